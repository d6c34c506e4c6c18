// Issue 43: every decodable video analyses, whatever camera, phone, editor or tape made it. Each
// kind of tests/support/camera-formats.ts is probed and cut by the real analysis pass (ffmpeg, the scene detector): its duration, both cuts,
// and candidate frames at the shape a player shows
// (non-square pixels and rotation applied). The upload dialog's duration of the same kinds:
// src/workers/probe-file.node.test.ts. A digitised NTSC tape (DV, 4:1:1) used to fail the
// pass's filter graph outright.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAnalysisPass } from '../../server/src/media/analysis-pass.ts';
import { probeFile } from '../../server/src/media/operations.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';
import { FRAME_MAX_WIDTH, MIN_SCENE_MS } from '../../server/src/pipeline/scenes-step.ts';
import {
  CAMERA_FORMATS,
  CUTS_MS,
  SCENE_SECONDS,
  SCENES,
  cameraFormatFile,
  imageSize,
} from '../support/camera-formats.ts';

const tools = resolveMediaTools({
  ffmpegPath: process.env.FFMPEG_PATH,
  ffprobePath: process.env.FFPROBE_PATH,
});

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-formats-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('every kind of camera file', () => {
  it.each(CAMERA_FORMATS.map((kind, i) => [kind.name, i] as const))(
    '%s: duration, both cuts and frames at the shape a player shows',
    async (_name, i) => {
      const kind = CAMERA_FORMATS[i]!;
      const file = await cameraFormatFile(tools.ffmpeg, kind);
      const probe = await probeFile(tools, file);
      expect(probe.durationMs).toBeGreaterThan(SCENES * SCENE_SECONDS * 1000 - 250);
      expect(probe.durationMs).toBeLessThan(SCENES * SCENE_SECONDS * 1000 + 250);
      const workDir = path.join(dir, `pass-${i}`);
      fs.mkdirSync(workDir);
      const pass = await runAnalysisPass({
        ffmpeg: tools.ffmpeg,
        input: file,
        workDir,
        durationMs: probe.durationMs,
        format: probe.format,
        minSceneMs: MIN_SCENE_MS,
        frameMaxWidth: FRAME_MAX_WIDTH,
        frameRate: probe.frameRate,
      });
      expect(pass.boundariesMs).toHaveLength(CUTS_MS.length);
      pass.boundariesMs.forEach((b, n) => expect(Math.abs(b - CUTS_MS[n]!)).toBeLessThan(500));
      expect(pass.decodedMs).toBeGreaterThan(probe.durationMs - 500);
      // The first and last candidates (a stream may change size midway).
      for (const frame of [pass.gridFrames[0]!, pass.gridFrames.at(-1)!]) {
        const { width, height } = imageSize(tools.ffprobe, frame);
        expect(width).toBeLessThanOrEqual(FRAME_MAX_WIDTH);
        expect(Math.abs(width / height - kind.displayAspect)).toBeLessThan(
          0.03 * kind.displayAspect,
        );
      }
    },
    60_000,
  );
});
