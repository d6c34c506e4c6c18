// Figure: duration probe of a 2 GB MP4 whose index (moov) sits at the end, under 500 ms.
//
// The file is built cheaply and honestly: ffmpeg encodes a short real MP4 without faststart
// (moov after mdat), then we copy it with its mdat grown to about 2 GiB by zero padding after the
// real samples. Sample offsets stay valid, the padding is unused mdat payload (allowed by ISO BMFF),
// and the file is sparse on disk. The probe runs the same code as the worker (Blob.slice reads).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mediaInfoFactory from 'mediainfo.js';
import { blobSource } from '../src/workers/byte-source.ts';
import { probeMp4 } from '../src/workers/mp4-duration.ts';
import { topLevelBoxes } from '../tests/support/container-clips.ts';

const TARGET_BYTES = 2 * 1024 ** 3;
const LIMIT_MS = 500;
const CLIP_SECONDS = 12;

function ffmpegPath(): string {
  return process.env.FFMPEG_PATH ?? 'ffmpeg';
}

/** Writes a sparse ~2 GiB MP4 with moov at the end; returns its path. */
async function buildLargeMp4(dir: string): Promise<string> {
  const small = join(dir, 'small.mp4');
  execFileSync(ffmpegPath(), [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `testsrc2=size=640x360:rate=25:duration=${CLIP_SECONDS}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...['-metadata', 'creation_time=2024-03-04T05:06:07Z', small],
  ]);
  const bytes = readFileSync(small);
  const boxes = topLevelBoxes(bytes);
  const mdat = boxes.find((b) => b.type === 'mdat');
  const moov = boxes.find((b) => b.type === 'moov');
  if (!mdat || !moov || moov.start < mdat.start) throw new Error('expected mdat before moov');
  const moovBytes = bytes.subarray(moov.start, moov.start + moov.size);
  const grownMdatSize = TARGET_BYTES - mdat.start - moov.size;
  const header = Buffer.alloc(8);
  header.writeUInt32BE(grownMdatSize, 0);
  header.write('mdat', 4, 'latin1');

  const big = join(dir, 'large-moov-at-end.mp4');
  const file = await open(big, 'w');
  try {
    await file.write(bytes.subarray(0, mdat.start), 0, mdat.start, 0);
    await file.write(header, 0, 8, mdat.start);
    const payload = bytes.subarray(mdat.start + 8, mdat.start + mdat.size);
    await file.write(payload, 0, payload.length, mdat.start + 8);
    await file.write(moovBytes, 0, moovBytes.length, mdat.start + grownMdatSize);
  } finally {
    await file.close();
  }
  return big;
}

export async function main(): Promise<{ ms: number; bytesRead: number; ok: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'probe-bench-'));
  try {
    const path = await buildLargeMp4(dir);
    const blob = await openAsBlob(path);
    const source = blobSource(blob as unknown as globalThis.Blob);
    const started = performance.now();
    const info = await probeMp4(source);
    const ms = performance.now() - started;
    const bytesRead = source.bytesRead();
    const ok =
      ms < LIMIT_MS && info !== undefined && Math.abs(info.durationSeconds - CLIP_SECONDS) < 0.5;
    console.log(`probe: file ${(blob.size / 1024 ** 3).toFixed(2)} GiB, moov at the end`);
    console.log(
      `probe: duration ${info?.durationSeconds.toFixed(3) ?? 'none'} s, created ${info?.createdAt?.toISOString() ?? 'none'}`,
    );
    console.log(`probe: time ${ms.toFixed(1)} ms (limit ${LIMIT_MS} ms), bytes read ${bytesRead}`);
    console.log(`probe: ${ok ? 'PASS' : 'FAIL'}`);
    await compareMediaInfo(blob as unknown as globalThis.Blob);
    return { ms, bytesRead, ok };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The same file through mediainfo.js alone, for the choice of parsers
 * (docs/decisions/duration-probe.md): its wasm start and its analysis, in wall and CPU time,
 * and the bytes it reads.
 */
async function compareMediaInfo(blob: globalThis.Blob): Promise<void> {
  const cpu = (from: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(from);
    return ((used.user + used.system) / 1000).toFixed(1);
  };
  let wall = performance.now();
  let cpuFrom = process.cpuUsage();
  const mi = await mediaInfoFactory({ format: 'object' });
  console.log(
    `mediainfo: wasm start ${(performance.now() - wall).toFixed(1)} ms (CPU ${cpu(cpuFrom)} ms)`,
  );
  try {
    const source = blobSource(blob);
    wall = performance.now();
    cpuFrom = process.cpuUsage();
    const result = await mi.analyzeData(source.size, (size, offset) => source.read(offset, size));
    const general = result.media?.track.find((t) => t['@type'] === 'General');
    console.log(
      `mediainfo: analysis ${(performance.now() - wall).toFixed(1)} ms (CPU ${cpu(cpuFrom)} ms), ` +
        `bytes read ${source.bytesRead()}, duration ${String(general?.Duration)} s`,
    );
  } finally {
    mi.close();
  }
}
