// Scene detection quality on generated videos with known boundaries, one set per kind of
// transition (issue 31): hard cuts; fades through black and white; dissolves and wipes; title
// cards of one layout whose colours change, mostly at the same brightness; camera moves and
// flashes that are not cuts (the shots between them are cut); and videos of every transition in
// the encodes cameras write (B-frames, adaptive B-frames, long GOPs, 24 to 60 fps). Each set is
// drawn on several seeds; each seed makes a few videos. Prints precision, recall and F1 per seed
// and per set with a 0.5 s tolerance. Targets: every set F1 >= 0.98, no seed below 0.95.
// Run: node --import tsx bench/scene-detection.ts
// BENCH_SEEDS seeds per set (default 3) from BENCH_SEED (default 1), BENCH_PER_SEED videos each
// (default 3), BENCH_SETS a comma list of set names to run, BENCH_VERBOSE prints every video.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runAnalysisPass } from '../server/src/media/analysis-pass.ts';
import { resolveMediaTools } from '../server/src/media/tools.ts';
import { drawtextFont, makeVideo, type Segment, type Transition } from '../tests/support/media.ts';
import { cardVideo } from '../tests/support/title-cards.ts';
import { mulberry32 } from '../server/src/lib/seeded-random.ts';

const TOLERANCE_MS = 500;
const MIN_SCENE_MS = 1000;
const SET_TARGET = 0.98;
const SEED_TARGET = 0.95;

const WIDTH = 320;
const HEIGHT = 240;
const SHOTS = 8;

/** Patterns that stay still (bars, gradients, a flat colour, a noisy flat colour, a clock). */
const STILL = [
  'smptebars',
  'smptehdbars',
  'rgbtestsrc',
  'yuvtestsrc',
  'testsrc',
  'color=c=navy',
  'color=c=orange',
];
/**
 * Patterns that move by themselves: moving shapes, an endless zoom, cellular life (seeded: its
 * first grid is random otherwise, so each run of the bench on fresh videos scored other shots).
 */
const ANIMATED = [
  'testsrc2',
  'mandelbrot',
  'life=mold=10:ratio=0.1:death_color=#101060:life_color=#c0c020:seed=1',
];
/** Textured patterns a simulated camera pans across, zooms into or rotates over. */
const FILMED = ['smptebars', 'smptehdbars', 'rgbtestsrc', 'yuvtestsrc', 'testsrc', 'testsrc2'];
/** What cameras and phones write: B-frames (adaptive or fixed, with or without a pyramid). */
const ENCODES = [
  'bframes=3:b-pyramid=normal:b-adapt=1',
  'bframes=3:b-pyramid=none',
  'bframes=3:b-pyramid=normal:b-adapt=2',
  'bframes=5:b-pyramid=normal:b-adapt=1',
];
const RATES = [24, 25, 30, 50, 60];

type Rnd = () => number;
const between = (rnd: Rnd, lo: number, hi: number): number =>
  Math.round((lo + rnd() * (hi - lo)) * 100) / 100;
const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

/**
 * A camera move over a pattern at a random speed: a pan (at its fastest up to one and a half
 * frame widths per second, a quick pan), a zoom in and out (up to 70 % per second), or a rotation
 * (up to 45 degrees per second).
 */
function cameraMove(rnd: Rnd, fps: number): string {
  const w = between(rnd, 0.3, 1.5); // angular speed, rad/s
  const phase = between(rnd, 0, 6.28);
  const kind = rnd();
  if (kind < 0.5) {
    const k = pick(rnd, [2, 3]);
    const w2 = between(rnd, 0.2, 1);
    return (
      `scale=${k}*iw:${k}*ih,crop=iw/${k}:ih/${k}:` +
      `x='(iw-ow)*(0.5+0.5*sin(t*${w}+${phase}))':y='(ih-oh)*(0.5+0.5*cos(t*${w2}))'`
    );
  }
  if (kind < 0.8) {
    return (
      `zoompan=z='1.5+0.45*sin(on/${fps}*${w}+${phase})':d=1:` +
      `x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':s=${WIDTH}x${HEIGHT}:fps=${fps}`
    );
  }
  return `scale=2*iw:2*ih,rotate=a='t*${(w / 2).toFixed(2)}+${phase}',crop=iw/2:ih/2`;
}

interface Shot {
  pattern: string;
  source: string;
  extra?: string;
  label: string;
}

/** A still, animated or filmed shot; `moving` leaves out the still ones. */
function randomShot(rnd: Rnd, fps: number, moving = false): Shot {
  const r = moving ? 0.4 + 0.6 * rnd() : rnd();
  if (r < 0.4) {
    const source = pick(rnd, STILL);
    // The orange one carries sensor-like noise that changes every frame.
    const extra = source === 'color=c=orange' ? 'noise=alls=20:allf=t' : undefined;
    return { pattern: source, source, extra, label: source.replace('color=c=', '') };
  }
  if (r < 0.6) {
    const source = pick(rnd, ANIMATED);
    return { pattern: source, source, label: source.split('=')[0]! };
  }
  const pattern = pick(rnd, FILMED);
  const extra = cameraMove(rnd, fps);
  const how = extra.startsWith('zoompan') ? 'zoom' : extra.includes('rotate') ? 'turn' : 'pan';
  return { pattern, source: pattern, extra, label: `${pattern}~${how}` };
}

/**
 * A flash: the picture bursts towards white for one to three frames (a photographer's flash, a
 * strobe), or for a fifth of a second (lightning), then is the same shot again.
 */
function flash(rnd: Rnd, fps: number, at: number): string {
  const frames = rnd() < 0.75 ? 1 + Math.floor(rnd() * 3) : Math.round(0.2 * fps);
  const end = at + (frames - 0.5) / fps;
  const gain = between(rnd, 1.3, 2);
  const lift = Math.round(between(rnd, 60, 140));
  return `lutyuv=y='min(255,val*${gain}+${lift})':enable='between(t,${at},${end.toFixed(3)})'`;
}

interface Video {
  segments: Segment[];
  labels: string[];
  fps: number;
  x264Params?: string;
  keyframeSeconds?: number;
}

/** Shots joined by the transitions `next` draws; a shot never continues the one before it. */
function shotVideo(
  rnd: Rnd,
  next: (rnd: Rnd) => Transition,
  o: { fps?: number; moving?: boolean; flashes?: boolean } = {},
): Video {
  const fps = o.fps ?? 25;
  const transitions: (Transition | undefined)[] = [undefined];
  for (let i = 1; i < SHOTS; i++) transitions.push(next(rnd));
  const overlap = (t: Transition | undefined): number =>
    t?.kind === 'dissolve' || t?.kind === 'wipe' ? t.seconds : 0;
  const segments: Segment[] = [];
  const labels: string[] = [];
  let last = '';
  for (let i = 0; i < SHOTS; i++) {
    let shot = randomShot(rnd, fps, o.moving);
    while (shot.pattern === last) shot = randomShot(rnd, fps, o.moving);
    last = shot.pattern;
    const body = between(rnd, 2, 5);
    const seconds = body + overlap(transitions[i]) + overlap(transitions[i + 1]);
    const extras = shot.extra ? [shot.extra] : [];
    let label = shot.label;
    if (o.flashes) {
      // One or two flashes inside the shot's own part, away from its ends.
      const count = 1 + Math.floor(rnd() * 2);
      for (let k = 0; k < count; k++) {
        const at = between(
          rnd,
          overlap(transitions[i]) + 0.6,
          seconds - overlap(transitions[i + 1]) - 0.6,
        );
        extras.push(flash(rnd, fps, at));
        label += `!${at}`;
      }
    }
    segments.push({
      source: shot.source,
      ...(extras.length ? { extra: extras.join(',') } : {}),
      seconds,
      transition: transitions[i],
    });
    labels.push(label);
  }
  return { segments, labels, fps };
}

const cut = (): Transition => ({ kind: 'cut' });
const fade = (rnd: Rnd): Transition => ({
  kind: 'fade',
  seconds: between(rnd, 0.5, 2),
  ...(rnd() < 0.5 ? { color: 'white' } : {}),
});
const dissolveOrWipe = (rnd: Rnd): Transition =>
  rnd() < 0.5
    ? { kind: 'dissolve', seconds: between(rnd, 0.5, 2.5) }
    : {
        kind: 'wipe',
        seconds: between(rnd, 0.5, 2.5),
        from: pick(rnd, ['left', 'right', 'top', 'bottom'] as const),
      };
const anyTransition = (rnd: Rnd): Transition => {
  const r = rnd();
  return r < 0.4 ? cut() : r < 0.6 ? fade(rnd) : dissolveOrWipe(rnd);
};

interface BenchSet {
  name: string;
  /** Video `v` of seed `seed`. */
  video: (seed: number, v: number, font: string) => Video;
}

/** A generator per set and seed: the set's name keeps the sets' numbers apart. */
const rndFor = (name: string, seed: number, v: number): Rnd => {
  let h = 2166136261;
  for (const ch of `${name}/${seed}/${v}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return mulberry32(h);
};

export const SETS: BenchSet[] = [
  { name: 'hard cuts', video: (s, v) => shotVideo(rndFor('cuts', s, v), cut) },
  { name: 'fades', video: (s, v) => shotVideo(rndFor('fades', s, v), fade) },
  {
    name: 'dissolves and wipes',
    video: (s, v) => shotVideo(rndFor('blends', s, v), dissolveOrWipe),
  },
  {
    name: 'title cards',
    video: (s, v, font) => {
      const cards = cardVideo(s * 100 + v, {
        count: SHOTS,
        height: HEIGHT,
        font,
        cutShare: 0.8,
        sameBrightness: 0.7,
      });
      return { segments: cards.segments, labels: ['', ...cards.kinds], fps: 25 };
    },
  },
  {
    name: 'camera moves and flashes',
    video: (s, v) => shotVideo(rndFor('moves', s, v), cut, { moving: true, flashes: true }),
  },
  {
    name: 'B-frame and long-GOP encodes',
    video: (s, v) => {
      const rnd = rndFor('encodes', s, v);
      const fps = pick(rnd, RATES);
      const x264Params = pick(rnd, ENCODES);
      const keyframeSeconds = rnd() < 0.5 ? 10 : undefined;
      const video = shotVideo(rnd, anyTransition, { fps });
      return { ...video, x264Params, ...(keyframeSeconds ? { keyframeSeconds } : {}) };
    },
  },
];

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

export interface Quality {
  precision: number;
  recall: number;
  f1: number;
}

function quality(s: Score): Quality {
  const precision = s.truePositives / Math.max(1, s.truePositives + s.falsePositives);
  const recall = s.truePositives / Math.max(1, s.truePositives + s.falseNegatives);
  const f1 = (2 * precision * recall) / Math.max(1e-9, precision + recall);
  return { precision, recall, f1 };
}

function add(total: Score, s: Score): void {
  total.truePositives += s.truePositives;
  total.falsePositives += s.falsePositives;
  total.falseNegatives += s.falseNegatives;
}

const describe = (s: Score): string => {
  const q = quality(s);
  return (
    `${s.truePositives + s.falseNegatives} boundaries, precision ${q.precision.toFixed(3)}, ` +
    `recall ${q.recall.toFixed(3)}, F1 ${q.f1.toFixed(3)}`
  );
};

/** Makes one video, runs the real analysis pass over it and scores its boundaries. */
async function detect(ffmpeg: string, video: Video, name: string): Promise<Score> {
  const made = await makeVideo({
    segments: video.segments,
    width: WIDTH,
    height: HEIGHT,
    fps: video.fps,
    ...(video.x264Params ? { x264Params: video.x264Params } : {}),
    ...(video.keyframeSeconds ? { keyframeSeconds: video.keyframeSeconds } : {}),
  });
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-bench-scenes-'));
  try {
    const result = await runAnalysisPass({
      ffmpeg,
      input: made.file,
      workDir,
      durationMs: made.durationMs,
      format: 'mov',
      minSceneMs: MIN_SCENE_MS,
      frameRate: video.fps,
    });
    const s = score(made.boundariesMs, result.boundariesMs);
    if (process.env.BENCH_VERBOSE) {
      const how = video.segments.slice(1).map((g, i) => {
        const t = g.transition ?? { kind: 'cut' };
        const kind =
          t.kind === 'cut'
            ? 'cut'
            : `${t.kind}${t.seconds}${t.kind === 'wipe' ? t.from : ''}${'color' in t && t.color ? t.color : ''}`;
        return `${made.boundariesMs[i]}:${kind}>${video.labels[i + 1]}`;
      });
      const encode = `${video.fps}fps ${video.x264Params ?? ''} ${video.keyframeSeconds ? 'gop10s' : ''}`;
      console.log(
        `  ${name} ${path.basename(made.file)} ${encode} ${s.falseNegatives} missed, ` +
          `${s.falsePositives} false: ${video.labels[0]} ${how.join(' ')}\n` +
          `     found ${result.boundariesMs.join(' ')}`,
      );
    }
    return s;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

export interface SceneBenchResult {
  sets: { name: string; f1: number; seeds: number[] }[];
  ok: boolean;
}

export async function main(
  seeds = Number(process.env.BENCH_SEEDS ?? 3),
  firstSeed = Number(process.env.BENCH_SEED ?? 1),
  perSeed = Number(process.env.BENCH_PER_SEED ?? 3),
): Promise<SceneBenchResult> {
  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const font = drawtextFont();
  const only = process.env.BENCH_SETS?.split(',').map((s) => s.trim());
  const sets: SceneBenchResult['sets'] = [];
  let ok = true;
  for (const set of SETS) {
    if (only && !only.some((o) => set.name.includes(o))) continue;
    const total: Score = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
    const seedF1: number[] = [];
    for (let seed = firstSeed; seed < firstSeed + seeds; seed++) {
      const bySeed: Score = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
      for (let v = 0; v < perSeed; v++) {
        add(bySeed, await detect(ffmpeg, set.video(seed, v, font), `seed ${seed}.${v}`));
      }
      add(total, bySeed);
      const f1 = quality(bySeed).f1;
      seedF1.push(f1);
      if (f1 < SEED_TARGET) ok = false;
      console.log(`  ${set.name}, seed ${seed}: ${describe(bySeed)}`);
    }
    const f1 = quality(total).f1;
    if (f1 < SET_TARGET) ok = false;
    sets.push({ name: set.name, f1, seeds: seedF1 });
    console.log(
      `${set.name}: ${seeds} seeds x ${perSeed} videos, ${describe(total)} (tolerance ` +
        `${TOLERANCE_MS} ms; target F1 >= ${SET_TARGET}, each seed >= ${SEED_TARGET})`,
    );
  }
  return { sets, ok };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
