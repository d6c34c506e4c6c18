// The scene bench's sample streams, kept on disk and replayed through the detector: the 64x36
// samples of each bench video are decoded once (the analysis pass's own ffmpeg run, reference
// pictures only unless too sparse, as runAnalysisPass does), so a detector change is scored on all
// sets in seconds instead of minutes, and each missed or false boundary can be printed with what
// the detector saw around it (per-sample change, brightness, contrast).
// Run: node --import tsx bench/_scene-replay.ts (BENCH_SETS, BENCH_SEEDS, BENCH_SEED,
// BENCH_PER_SEED as in scene-detection.ts; BENCH_VERBOSE prints the samples around each miss).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  analysisPassArgs,
  COUNT_BYTES,
  STATS_HEIGHT,
  STATS_WIDTH,
  type VideoFormat,
} from '../server/src/media/args.ts';
import { runProcess } from '../server/src/media/run.ts';
import { SceneDetector as Current } from '../server/src/scenes/scene-detector.ts';
import { resolveMediaTools } from '../server/src/media/tools.ts';
import { drawtextFont, makeVideo } from '../tests/support/media.ts';
import { SETS, score, type Score } from './scene-detection.ts';

const STATS_FPS = 10;
const FRAME_BYTES = STATS_WIDTH * STATS_HEIGHT * 3;
const cacheDir = path.join(os.tmpdir(), 'va-scene-samples');
/** BENCH_DETECTOR: another scene-detector.ts to replay (a copy of an older commit's, to compare). */
const SceneDetector: typeof Current = process.env.BENCH_DETECTOR
  ? ((await import(path.resolve(process.env.BENCH_DETECTOR))) as { SceneDetector: typeof Current })
      .SceneDetector
  : Current;

/** The analysis pass's samples of a video (cached by file and settings). */
export async function samplesOf(
  ffmpeg: string,
  file: string,
  frameRate: number,
  format: VideoFormat = 'mov',
): Promise<Buffer> {
  const key = crypto
    .createHash('sha256')
    .update(`${file}/${fs.statSync(file).size}/${frameRate}`)
    .digest('hex')
    .slice(0, 16);
  fs.mkdirSync(cacheDir, { recursive: true });
  const cached = path.join(cacheDir, `${key}.rgb`);
  if (fs.existsSync(cached)) return fs.readFileSync(cached);
  const decode = async (referenceOnly: boolean): Promise<{ raw: Buffer; pictures: number }> => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'va-scene-replay-'));
    try {
      const countFile = path.join(work, 'count.raw');
      const { stdout } = await runProcess(
        ffmpeg,
        analysisPassArgs(file, {
          statsFps: STATS_FPS,
          gridFps: 1,
          frameMaxWidth: 64,
          framePattern: path.join(work, 'f-%06d.jpg'),
          format,
          referenceOnly,
          countFile,
        }),
        { maxStdoutBytes: 1 << 30, timeoutMs: 600_000 },
      );
      const pictures = (fs.statSync(countFile, { throwIfNoEntry: false })?.size ?? 0) / COUNT_BYTES;
      return { raw: stdout, pictures };
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  };
  const first = await decode(frameRate >= 2 * STATS_FPS);
  let raw = first.raw;
  const pictures = first.pictures;
  const samples = Math.floor(raw.length / FRAME_BYTES);
  if (frameRate >= 2 * STATS_FPS && pictures < samples) raw = (await decode(false)).raw;
  fs.writeFileSync(cached, raw);
  return raw;
}

/** The detector over a sample stream, as the analysis pass runs it. */
export function detectSamples(raw: Buffer, minSceneMs = 1000): { found: number[]; d: Current } {
  const d = new SceneDetector({
    fps: STATS_FPS,
    width: STATS_WIDTH,
    height: STATS_HEIGHT,
    minSceneMs,
  });
  for (let at = 0; at + FRAME_BYTES <= raw.length; at += FRAME_BYTES) {
    d.push(raw.subarray(at, at + FRAME_BYTES));
  }
  return { found: d.finish(), d };
}

/** The per-sample change and brightness around ms (what the detector saw). */
export function around(d: Current, ms: number): string {
  const c = Math.round((ms * STATS_FPS) / 1000);
  const rows: string[] = [];
  for (let i = Math.max(1, c - 8); i <= Math.min(d.visual.count - 1, c + 8); i++) {
    rows.push(
      `${i === c ? '>' : ' '}${i}:${d.visual.motion.get(i).toFixed(3)}/${d.visual.luma.get(i).toFixed(2)}`,
    );
  }
  return rows.join(' ');
}

async function main(): Promise<void> {
  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const font = drawtextFont();
  const seeds = Number(process.env.BENCH_SEEDS ?? 3);
  const first = Number(process.env.BENCH_SEED ?? 1);
  const perSeed = Number(process.env.BENCH_PER_SEED ?? 3);
  const only = process.env.BENCH_SETS?.split(',').map((s) => s.trim());
  const f1 = (s: Score): number =>
    (2 * s.truePositives) / Math.max(1, 2 * s.truePositives + s.falsePositives + s.falseNegatives);
  let detectMs = 0;
  let sampleCount = 0;
  for (const set of SETS) {
    if (only && !only.some((o) => set.name.includes(o))) continue;
    const total: Score = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
    const perSeedF1: string[] = [];
    for (let seed = first; seed < first + seeds; seed++) {
      const bySeed: Score = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
      for (let v = 0; v < perSeed; v++) {
        const video = set.video(seed, v, font);
        const made = await makeVideo({
          segments: video.segments,
          width: 320,
          height: 240,
          fps: video.fps,
          ...(video.x264Params ? { x264Params: video.x264Params } : {}),
          ...(video.keyframeSeconds ? { keyframeSeconds: video.keyframeSeconds } : {}),
        });
        const raw = await samplesOf(ffmpeg, made.file, video.fps);
        const t0 = process.cpuUsage();
        const { found, d } = detectSamples(raw);
        const cpu = process.cpuUsage(t0);
        detectMs += (cpu.user + cpu.system) / 1000;
        sampleCount += d.visual.count;
        const s = score(made.boundariesMs, found);
        for (const k of ['truePositives', 'falsePositives', 'falseNegatives'] as const) {
          bySeed[k] += s[k];
        }
        if (s.falseNegatives + s.falsePositives > 0) {
          const near = (a: number, xs: number[]): boolean => xs.some((b) => Math.abs(a - b) <= 500);
          const kinds = video.segments.slice(1).map((g) => {
            const t = g.transition ?? { kind: 'cut' as const };
            return t.kind === 'cut'
              ? 'cut'
              : `${t.kind}${t.seconds}${'from' in t ? t.from : ''}${'color' in t && t.color ? t.color : ''}`;
          });
          console.log(
            `  ${set.name} ${seed}.${v} ${video.fps}fps ${video.x264Params ?? ''} ` +
              `${video.keyframeSeconds ? 'gop10' : ''} ${path.basename(made.file)}`,
          );
          made.boundariesMs.forEach((b, i) => {
            if (!near(b, found)) {
              console.log(`    missed ${b} ${kinds[i]} ${video.labels[i]}>${video.labels[i + 1]}`);
              if (process.env.BENCH_VERBOSE) console.log(`      ${around(d, b)}`);
            }
          });
          for (const b of found) {
            if (!near(b, made.boundariesMs)) {
              const k = made.boundariesMs.findIndex((x) => x > b);
              console.log(
                `    false ${b} in ${video.labels[k < 0 ? video.labels.length - 1 : k]} (next true ${made.boundariesMs[k] ?? '-'})`,
              );
              if (process.env.BENCH_VERBOSE) console.log(`      ${around(d, b)}`);
            }
          }
        }
      }
      for (const k of ['truePositives', 'falsePositives', 'falseNegatives'] as const) {
        total[k] += bySeed[k];
      }
      perSeedF1.push(f1(bySeed).toFixed(3));
    }
    console.log(`${set.name}: F1 ${f1(total).toFixed(3)} seeds ${perSeedF1.join(' ')}`);
  }
  console.log(
    `detector ${(detectMs / Math.max(1, sampleCount)).toFixed(3)} CPU-ms a sample (${sampleCount} samples)`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
