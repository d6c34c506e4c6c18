// What the probe worker does with a chosen video: mp4box.js for MP4/MOV (a few header reads and
// the moov), mediainfo.js for anything else it cannot answer (other containers, a fragmented MP4
// whose moov carries no duration). Both read only the ranges they ask for.
import { blobSource } from './byte-source.ts';
import { probeWithMediaInfo } from './mediainfo-probe.ts';
import { probeMp4 } from './mp4-duration.ts';
import type { ProbeResult } from '../upload-queue/probe-contract.ts';

export async function probeFile(file: Blob): Promise<ProbeResult> {
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
  if (info.durationSeconds === undefined) throw new Error('The video duration could not be read.');
  return {
    durationSeconds: info.durationSeconds,
    createdAtMs: info.createdAt?.getTime(),
    parser: 'mediainfo',
    bytesRead: source.bytesRead(),
  };
}
