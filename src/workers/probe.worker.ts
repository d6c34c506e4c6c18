// Duration probe worker: reads only the byte ranges it needs from the chosen video.
// It imports nothing from the app bundle; the page talks to it through comlink.
import { expose } from 'comlink';
import { blobSource } from './byte-source.ts';
import { probeWithMediaInfo } from './mediainfo-probe.ts';
import { probeMp4 } from './mp4-duration.ts';
import type { ProbeContract, ProbeResult } from '../upload-queue/probe-contract.ts';

const api = {
  async probe(file: Blob): Promise<ProbeResult> {
    const source = blobSource(file);
    const mp4 = await probeMp4(source);
    if (mp4 && mp4.durationSeconds > 0) {
      return {
        durationSeconds: mp4.durationSeconds,
        createdAtMs: mp4.createdAt?.getTime(),
        parser: 'mp4box',
        bytesRead: source.bytesRead(),
      };
    }
    const info = await probeWithMediaInfo(source);
    if (info.durationSeconds === undefined)
      throw new Error('The video duration could not be read.');
    return {
      durationSeconds: info.durationSeconds,
      createdAtMs: info.createdAt?.getTime(),
      parser: 'mediainfo',
      bytesRead: source.bytesRead(),
    };
  },
} satisfies ProbeContract;

export type ProbeWorkerApi = typeof api;

expose(api);
