// @vitest-environment node
// The probe worker's choice of parser on real videos: mp4box.js answers MP4/MOV; mediainfo.js
// (its real wasm, loaded from the package as the worker loads it from its URL) answers what
// mp4box.js cannot: a fragmented MP4, whose moov has no duration, and other containers.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import {
  CAMERA_FORMATS,
  SCENE_SECONDS,
  SCENES,
  cameraFormatFile,
} from '../../tests/support/camera-formats.ts';
import { makeClip, type ClipSpec } from '../../tests/support/container-clips.ts';
import { probeFile } from './probe-file.ts';

// The worker gets the wasm's URL from Vite; in Node the module reads it from a path.
vi.mock('mediainfo.js/MediaInfoModule.wasm?url', () => ({
  default: createRequire(import.meta.url).resolve('mediainfo.js/MediaInfoModule.wasm'),
}));

const SECONDS = 4;
const CREATED = '2024-03-04T05:06:07Z';

async function probe(spec: Omit<ClipSpec, 'seconds'>) {
  const file = await makeClip({ seconds: SECONDS, ...spec });
  return probeFile((await fs.openAsBlob(file)) as unknown as Blob);
}

describe('probeFile', { timeout: 60_000 }, () => {
  it('answers an MP4 with mp4box.js', async () => {
    const result = await probe({ format: 'mp4', metadata: { creation_time: CREATED } });
    expect(result).toMatchObject({ parser: 'mp4box', createdAtMs: Date.parse(CREATED) });
    expect(result.durationSeconds).toBeCloseTo(SECONDS, 1);
  });

  it('falls back to mediainfo.js for a fragmented MP4', async () => {
    const result = await probe({
      format: 'mp4',
      fragmented: true,
      metadata: { creation_time: CREATED },
    });
    expect(result).toMatchObject({ parser: 'mediainfo', createdAtMs: Date.parse(CREATED) });
    expect(result.durationSeconds).toBeCloseTo(SECONDS, 1);
  });

  it('falls back to mediainfo.js for a container mp4box.js cannot read (Matroska)', async () => {
    const result = await probe({ format: 'matroska', metadata: { creation_time: CREATED } });
    expect(result).toMatchObject({ parser: 'mediainfo', createdAtMs: Date.parse(CREATED) });
    expect(result.durationSeconds).toBeCloseTo(SECONDS, 1);
  });

  it('fails when neither can read a duration', async () => {
    const blob = new Blob([new Uint8Array(64 * 1024).fill(7)]);
    await expect(probeFile(blob)).rejects.toThrow('The video duration could not be read.');
  });

  it('answers the duration of every kind of camera file (DV, ProRes, HEVC, MPEG-2 ...)', async () => {
    // The upload dialog shows it before anything is sent (issue 43).
    for (const kind of CAMERA_FORMATS) {
      const file = await cameraFormatFile(process.env.FFMPEG_PATH ?? 'ffmpeg', kind);
      const result = await probeFile((await fs.openAsBlob(file)) as unknown as Blob);
      expect(result.durationSeconds, kind.name).toBeCloseTo(SCENES * SCENE_SECONDS, 0);
    }
  }, 400_000);
});
