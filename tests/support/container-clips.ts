// Short real videos that differ in how they are packaged rather than in what they show: MP4 or
// MOV with the index (moov) at the end or at the start, fragmented MP4, Matroska, and creation
// dates in mvhd or in metadata. For the duration probe's tests. Cached in the temp folder.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runProcess } from '../../server/src/media/run.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';

export interface ClipSpec {
  seconds: number;
  format: 'mp4' | 'mov' | 'matroska';
  /** moov before the media data (`-movflags +faststart`); by default ffmpeg writes it last. */
  faststart?: boolean;
  /** Fragmented MP4: the moov carries no duration (`frag_keyframe+empty_moov`). */
  fragmented?: boolean;
  /** `-metadata` pairs: creation_time (mvhd), date (udta ©day), com.apple.quicktime.* keys. */
  metadata?: Record<string, string>;
  /** Writes the metadata as QuickTime keys (mdta), as phones do (`use_metadata_tags`). */
  quicktimeKeys?: boolean;
}

const cacheDir = path.join(os.tmpdir(), 'va-test-media', 'containers');
const EXTENSIONS = { mp4: 'mp4', mov: 'mov', matroska: 'mkv' } as const;

/** Makes (or reuses) a 320x240 clip of `seconds` packaged as `spec` says; answers its path. */
export async function makeClip(spec: ClipSpec): Promise<string> {
  const key = crypto.createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 16);
  fs.mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, `${key}.${EXTENSIONS[spec.format]}`);
  if (fs.existsSync(file)) return file;
  const flags = [
    ...(spec.faststart ? ['+faststart'] : []),
    ...(spec.fragmented ? ['+frag_keyframe+empty_moov'] : []),
    ...(spec.quicktimeKeys ? ['+use_metadata_tags'] : []),
  ];
  const metadata = Object.entries(spec.metadata ?? {}).flatMap(([k, v]) => [
    '-metadata',
    `${k}=${v}`,
  ]);
  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const tmp = `${file}.${process.pid}.part`;
  try {
    await runProcess(
      ffmpeg,
      [
        ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi'],
        ...['-i', `testsrc2=size=320x240:rate=25:duration=${spec.seconds}`],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
        ...metadata,
        ...(flags.length ? ['-movflags', flags.join('')] : []),
        ...['-f', spec.format, tmp],
      ],
      { timeoutMs: 120_000 },
    );
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return file;
}

export interface TopLevelBox {
  type: string;
  start: number;
  size: number;
}

/** A file's top-level boxes in order (ftyp, moov, mdat, ...), from its bytes. */
export function topLevelBoxes(bytes: Buffer, from = 0, to = bytes.length): TopLevelBox[] {
  const boxes: TopLevelBox[] = [];
  for (let at = from; at + 8 <= to;) {
    let size = bytes.readUInt32BE(at);
    if (size === 1) size = Number(bytes.readBigUInt64BE(at + 8));
    if (size === 0) size = to - at;
    if (size < 8) throw new Error(`bad box size at ${at}`);
    boxes.push({ type: bytes.toString('latin1', at + 4, at + 8), start: at, size });
    at += size;
  }
  return boxes;
}

/**
 * A copy of an MP4 whose headers claim another length: the duration fields of mvhd, each tkhd
 * and each mdhd are rewritten (the media data stays as it is), as a hostile file would lie.
 */
export function forgeDuration(bytes: Buffer, seconds: number): Buffer {
  const out = Buffer.from(bytes);
  const children = (box: TopLevelBox): TopLevelBox[] =>
    topLevelBoxes(out, box.start + 8, box.start + box.size);
  // Full-box layouts: version 1 has 64-bit times. Offsets from the box start.
  const patch = (box: TopLevelBox, timescale: number | undefined): number => {
    const v1 = out[box.start + 8] === 1;
    const scaleAt = box.start + (v1 ? 28 : 20);
    const scale = timescale ?? out.readUInt32BE(scaleAt);
    const durationAt =
      box.type === 'tkhd' ? box.start + (v1 ? 36 : 28) : box.start + (v1 ? 32 : 24);
    const value = Math.round(seconds * scale);
    if (v1) out.writeBigUInt64BE(BigInt(value), durationAt);
    else out.writeUInt32BE(Math.min(value, 0xffffffff), durationAt);
    return scale;
  };
  const moov = topLevelBoxes(out).find((b) => b.type === 'moov');
  if (!moov) throw new Error('no moov box');
  let movieScale = 1000;
  for (const box of children(moov)) if (box.type === 'mvhd') movieScale = patch(box, undefined);
  for (const trak of children(moov).filter((b) => b.type === 'trak')) {
    for (const box of children(trak)) {
      if (box.type === 'tkhd') patch(box, movieScale);
      if (box.type !== 'mdia') continue;
      for (const inner of children(box)) if (inner.type === 'mdhd') patch(inner, undefined);
    }
  }
  return out;
}
