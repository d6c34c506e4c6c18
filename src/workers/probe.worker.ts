// Duration probe worker: reads only the byte ranges it needs from the chosen video; and, when
// asked, the SHA-256 of a whole file (content-hash.ts).
// It imports nothing from the app bundle; the page talks to it through comlink.
import { expose } from 'comlink';
import { contentSha256 } from './content-hash.ts';
import { probeFile } from './probe-file.ts';
import type { ProbeContract } from '../upload-queue/probe-contract.ts';

const api = { probe: probeFile, sha256: contentSha256 } satisfies ProbeContract;

export type ProbeWorkerApi = typeof api;

expose(api);
