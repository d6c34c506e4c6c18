// The import's duration: the app's MP4/MOV reader answers what it can (no process started),
// ffprobe the rest; a file neither can read fails with ffprobe's words (listed as unreadable).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../../tests/support/container-clips.ts';
import { probeToolForMany } from '../media/tools.ts';
import { importDuration } from './duration.ts';

const tools = probeToolForMany({
  ffmpegPath: process.env.FFMPEG_PATH,
  ffprobePath: process.env.FFPROBE_PATH,
});
const SECONDS = 2;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-import-duration-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('importDuration', () => {
  it('reads an MP4 (moov at the end) and a MOV with the MP4 reader', async () => {
    for (const format of ['mp4', 'mov'] as const) {
      const result = await importDuration(tools, await makeClip({ seconds: SECONDS, format }));
      expect(result.via).toBe('mp4');
      expect(result.durationMs).toBeGreaterThan(SECONDS * 1000 - 200);
      expect(result.durationMs).toBeLessThan(SECONDS * 1000 + 200);
    }
  });

  it('asks ffprobe for a fragmented MP4 and for Matroska named .mp4', async () => {
    const fragmented = await makeClip({ seconds: SECONDS, format: 'mp4', fragmented: true });
    const mkv = path.join(dir, 'really-matroska.mp4');
    fs.copyFileSync(await makeClip({ seconds: SECONDS, format: 'matroska' }), mkv);
    for (const file of [fragmented, mkv]) {
      const result = await importDuration(tools, file);
      expect(result.via).toBe('ffprobe');
      expect(result.durationMs).toBeGreaterThan(SECONDS * 1000 - 200);
      expect(result.durationMs).toBeLessThan(SECONDS * 1000 + 200);
    }
  });

  it("fails with ffprobe's words when neither can read it", async () => {
    const junk = path.join(dir, 'junk.mp4');
    fs.writeFileSync(junk, crypto.randomBytes(5000));
    await expect(importDuration(tools, junk)).rejects.toThrow();
  });
});
