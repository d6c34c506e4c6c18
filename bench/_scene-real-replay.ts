// The real-footage scene bench (scene-real.ts) replayed: each video's 64x36 samples decoded once
// and cached (bench/_scene-replay.ts), then run through the detector in seconds, each false or
// missed boundary printed with what the detector saw around it. The whole recordings (MP4 and
// WebM) must give no cut; the joins of each seed are scored as the bench scores them.
// Run: node --import tsx bench/_scene-real-replay.ts (BENCH_SEEDS, BENCH_SEED, BENCH_PER_SEED as
// in scene-real.ts; BENCH_VERBOSE prints the samples around each error).
import { pathToFileURL } from 'node:url';
import { resolveMediaTools } from '../server/src/media/tools.ts';
import { makeJoin, RECORDINGS, WEBM_RECORDINGS } from '../tests/support/real-footage.ts';
import { around, detectSamples, samplesOf } from './_scene-replay.ts';
import { score, type Score } from './scene-detection.ts';
import { joinSpec } from './scene-real.ts';

async function main(): Promise<void> {
  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const verbose = Boolean(process.env.BENCH_VERBOSE);
  let falseCuts = 0;
  for (const r of [...RECORDINGS, ...WEBM_RECORDINGS]) {
    const format = r.file.endsWith('.webm') ? 'matroska' : 'mov';
    const { found, d } = detectSamples(await samplesOf(ffmpeg, r.file, r.fps, format));
    falseCuts += found.length;
    for (const b of found) {
      console.log(`  continuous ${r.file.split('/').pop()}: false ${b}`);
      if (verbose) console.log(`      ${around(d, b)}`);
    }
  }
  console.log(`continuous: ${falseCuts} false cuts`);
  const seeds = Number(process.env.BENCH_SEEDS ?? 10);
  const first = Number(process.env.BENCH_SEED ?? 1);
  const perSeed = Number(process.env.BENCH_PER_SEED ?? 3);
  const f1 = (s: Score): number =>
    (2 * s.truePositives) / Math.max(1, 2 * s.truePositives + s.falsePositives + s.falseNegatives);
  const perSeedF1: string[] = [];
  const total: Score = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
  for (let seed = first; seed < first + seeds; seed++) {
    const bySeed: Score = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
    for (let v = 0; v < perSeed; v++) {
      const spec = joinSpec(seed, v);
      const made = await makeJoin(spec);
      const { found, d } = detectSamples(await samplesOf(ffmpeg, made.file, 25));
      const s = score(made.boundariesMs, found);
      for (const k of ['truePositives', 'falsePositives', 'falseNegatives'] as const) {
        bySeed[k] += s[k];
        total[k] += s[k];
      }
      const near = (a: number, xs: number[]): boolean => xs.some((b) => Math.abs(a - b) <= 500);
      made.boundariesMs.forEach((b, i) => {
        if (near(b, found)) return;
        const j = spec.pieces[i + 1]!.join!;
        console.log(`  ${seed}.${v} missed ${b} ${j.kind}${'seconds' in j ? j.seconds : ''}`);
        if (verbose) console.log(`      ${around(d, b)}`);
      });
      for (const b of found) {
        if (near(b, made.boundariesMs)) continue;
        console.log(`  ${seed}.${v} false ${b}`);
        if (verbose) console.log(`      ${around(d, b)}`);
      }
    }
    perSeedF1.push(f1(bySeed).toFixed(3));
  }
  console.log(`joins: F1 ${f1(total).toFixed(3)} seeds ${perSeedF1.join(' ')}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
