// Scene detection quality on generated videos with known hard cuts, fades through black and
// cross-dissolves, mixed with moving content (pans, zooms, animated patterns) that must not
// count as scene changes. Prints precision, recall and F1 with a 0.5 s tolerance (target F1 >= 0.95).
// Run: node --import tsx bench/scene-detection.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runAnalysisPass } from '../server/src/media/analysis-pass.ts';
import { resolveMediaTools } from '../server/src/media/tools.ts';
import { makeVideo, type Segment, type Transition } from '../tests/support/media.ts';

const TOLERANCE_MS = 500;
const MIN_SCENE_MS = 1000;

const SOURCES: Pick<Segment, 'source' | 'extra'>[] = [
  { source: 'testsrc' },
  { source: 'testsrc2' },
  { source: 'smptebars' },
  { source: 'smptehdbars' },
  { source: 'rgbtestsrc' },
  { source: 'yuvtestsrc' },
  { source: 'mandelbrot' },
  { source: 'life=mold=10:ratio=0.1:death_color=#101060:life_color=#c0c020' },
  { source: 'color=c=navy' },
  { source: 'color=c=orange', extra: 'noise=alls=20:allf=t' },
  // Camera-like pans and zooms across a still pattern.
  { source: 'smptehdbars', extra: "scale=2*iw:2*ih,crop=iw/2:ih/2:x='t*60':y='t*20'" },
  { source: 'testsrc', extra: "scale=2*iw:2*ih,crop=iw/2:ih/2:x='(iw/2)*(0.5+0.5*sin(t))':y=0" },
  { source: 'smptebars', extra: "scale=3*iw:3*ih,crop=iw/3:ih/3:x='t*50':y='t*30'" },
];

/** Small deterministic PRNG so every run measures the same videos. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomVideo(seed: number): Segment[] {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const segments: Segment[] = [];
  let last = -1;
  for (let i = 0; i < 8; i++) {
    let k = Math.floor(rnd() * SOURCES.length);
    if (k === last) k = (k + 1) % SOURCES.length;
    last = k;
    const r = rnd();
    const transition: Transition =
      r < 0.5
        ? { kind: 'cut' }
        : { kind: r < 0.75 ? 'fade' : 'dissolve', seconds: pick([0.6, 1, 1.5, 2]) };
    segments.push({ ...SOURCES[k]!, seconds: 2.5 + rnd() * 3.5, transition });
  }
  return segments;
}

export interface Score {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

/** One-to-one matching of detected to true boundaries within the tolerance. */
export function score(truth: number[], found: number[], toleranceMs = TOLERANCE_MS): Score {
  const unused = [...found];
  let tp = 0;
  for (const t of truth) {
    let best = -1;
    for (let i = 0; i < unused.length; i++) {
      const d = Math.abs(unused[i]! - t);
      if (d <= toleranceMs && (best < 0 || d < Math.abs(unused[best]! - t))) best = i;
    }
    if (best >= 0) {
      tp += 1;
      unused.splice(best, 1);
    }
  }
  return { truePositives: tp, falsePositives: unused.length, falseNegatives: truth.length - tp };
}

export async function main(videos = Number(process.env.BENCH_VIDEOS ?? 10)): Promise<number> {
  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const total: Score = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
  for (let v = 0; v < videos; v++) {
    const segments = randomVideo(1000 + v);
    const made = await makeVideo({ segments, width: 320, height: 240 });
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-bench-scenes-'));
    try {
      const result = await runAnalysisPass({
        ffmpeg,
        input: made.file,
        workDir,
        durationMs: made.durationMs,
        minSceneMs: MIN_SCENE_MS,
      });
      const s = score(made.boundariesMs, result.boundariesMs);
      total.truePositives += s.truePositives;
      total.falsePositives += s.falsePositives;
      total.falseNegatives += s.falseNegatives;
      if (process.env.BENCH_VERBOSE) {
        const how = segments.slice(1).map((g, i) => {
          const t = g.transition ?? { kind: 'cut' };
          const kind = t.kind === 'cut' ? 'cut' : `${t.kind}${t.seconds}`;
          return `${made.boundariesMs[i]}:${kind}>${g.source.split('=')[0]}${g.extra ? '*' : ''}`;
        });
        console.log(
          `video ${v} ${path.basename(made.file)}: ${segments[0]!.source.split('=')[0]} ${how.join(' ')}`,
        );
        console.log(`         found ${result.boundariesMs.join(' ')}`);
      }
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  }
  const precision = total.truePositives / Math.max(1, total.truePositives + total.falsePositives);
  const recall = total.truePositives / Math.max(1, total.truePositives + total.falseNegatives);
  const f1 = (2 * precision * recall) / Math.max(1e-9, precision + recall);
  console.log(
    `scene detection: ${videos} videos, ${total.truePositives + total.falseNegatives} boundaries, ` +
      `precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}, F1 ${f1.toFixed(3)} ` +
      `(tolerance ${TOLERANCE_MS} ms, target F1 >= 0.95)`,
  );
  return f1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
