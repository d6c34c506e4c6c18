// Duration probe worker: reads only the byte ranges it needs from the chosen video.
// It imports nothing from the app bundle; the page talks to it through comlink.
import { expose } from 'comlink';
import { probeFile } from './probe-file.ts';
import type { ProbeContract } from '../upload-queue/probe-contract.ts';

const api = { probe: probeFile } satisfies ProbeContract;

export type ProbeWorkerApi = typeof api;

expose(api);
