// The analysis pass (scene cut and samples) over a video made by tests/support/media.ts, as the
// media tests run it: in a temporary folder removed after, checking that each of the video's
// scene boundaries is found once, within half a second.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { runAnalysisPass, type AnalysisPassResult } from '../../server/src/media/analysis-pass.ts';
import type { VideoFormat } from '../../server/src/media/args.ts';
import type { MadeVideo } from './media.ts';

export async function analyseMadeVideo(
  ffmpeg: string,
  made: MadeVideo,
  probed: { durationMs: number; format: VideoFormat } = {
    durationMs: made.durationMs,
    format: 'mov',
  },
): Promise<AnalysisPassResult> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-media-'));
  try {
    const pass = await runAnalysisPass({
      ffmpeg,
      input: made.file,
      workDir,
      ...probed,
      minSceneMs: 1000,
    });
    expect(pass.boundariesMs).toHaveLength(made.boundariesMs.length);
    const off = pass.boundariesMs.map((b, i) => Math.abs(b - made.boundariesMs[i]!));
    expect(Math.max(0, ...off)).toBeLessThanOrEqual(500);
    return pass;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
