import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../lib/seeded-random.ts';
import { impactLayers, maxScore, type ScoredList } from './max-score.ts';

/** Every document scored, sorted by rounded score, then key: what MaxScore must find. */
function bruteForce(
  lists: ScoredList[],
  k: number,
  skip: (key: number) => boolean,
  tie: (a: number, b: number) => number,
): number[] {
  const scores = new Map<number, number>();
  for (const l of lists) {
    for (let i = 0; i < l.length; i++) {
      const key = l.keys[i]!;
      scores.set(key, (scores.get(key) ?? 0) + l.weight * l.impacts[i]!);
    }
  }
  return [...scores]
    .filter(([key]) => !skip(key))
    .sort((a, b) => Math.round(b[1] * 1e9) - Math.round(a[1] * 1e9) || tie(a[0], b[0]))
    .slice(0, k)
    .map(([key]) => key);
}

function randomLists(rnd: () => number, docs: number, terms: number, levels: number): ScoredList[] {
  return Array.from({ length: terms }, () => {
    const density = rnd() ** 2;
    const keys: number[] = [];
    for (let d = 0; d < docs; d++) if (rnd() < density) keys.push(d);
    // Few impact levels: many exact ties, as documents of one length give.
    const impacts = keys.map(() => Math.fround((1 + Math.floor(rnd() * levels)) / levels));
    return {
      keys: Float64Array.from(keys),
      impacts: Float32Array.from(impacts),
      length: keys.length,
      top: Math.max(0, ...impacts),
      cap: Infinity,
      weight: 0.1 + rnd() * 3,
    };
  });
}

describe('maxScore', () => {
  // Each way of scoring on its own: the walk (MaxScore) and every list added up term at a time.
  it.each([
    ['the walk', Infinity],
    ['term at a time', 0],
  ])(
    'finds the exact top k, ties in the given order, over many random queries: %s',
    (_, taatMin) => {
      const rnd = mulberry32(5);
      for (let q = 0; q < 300; q++) {
        const lists = randomLists(rnd, 400, 1 + Math.floor(rnd() * 8), q % 4 === 1 ? 1 : 5);
        const k = 1 + Math.floor(rnd() * 20);
        const banned = new Set(Array.from({ length: 20 }, () => Math.floor(rnd() * 400)));
        const skip = (key: number): boolean => banned.has(key);
        // Ties go by another order than the lists' (ids are not in key order): the last wins.
        const tie =
          q % 3 ? (a: number, b: number): number => b - a : (a: number, b: number) => a - b;
        // Every other query on the lists split by impact, as the search runs them.
        const parts =
          q % 2
            ? lists.flatMap((l) => impactLayers(l).map((p) => ({ ...p, weight: l.weight })))
            : lists;
        const got = maxScore(parts, k, skip, tie, taatMin).map((h) => h.key);
        expect(got).toEqual(bruteForce(lists, k, skip, tie));
      }
    },
  );

  it('adds up long lists of common terms term at a time: the same top k as the walk, keys as searched', () => {
    const rnd = mulberry32(11);
    // Keys as the search makes them (video number * 2^20 + scene + 1), 8 lists of 5-50k postings.
    const lists = randomLists(rnd, 60_000, 8, 3).map((l) => ({
      ...l,
      keys: l.keys.map((d) => Math.floor(d / 20) * 2 ** 20 + (d % 20) + 1),
      weight: 2 + rnd(),
    }));
    const skip = (key: number): boolean => key % 7 === 0;
    const tie = (a: number, b: number): number => a - b;
    const exact = bruteForce(lists, 30, skip, tie);
    const keysOf = (taatMin: number): number[] =>
      maxScore(lists, 30, skip, tie, taatMin).map((h) => h.key);
    expect(keysOf(0)).toEqual(exact);
    expect(keysOf(Infinity)).toEqual(exact);
  });

  it('returns nothing for empty lists and stops at what exists', () => {
    expect(
      maxScore(
        [],
        10,
        () => false,
        (a, b) => a - b,
      ),
    ).toEqual([]);
    const one: ScoredList = {
      keys: Float64Array.from([3, 7]),
      impacts: Float32Array.from([0.5, 0.25]),
      length: 2,
      top: 0.5,
      cap: Infinity,
      weight: 2,
    };
    expect(
      maxScore(
        [one],
        10,
        () => false,
        (a, b) => a - b,
      ),
    ).toEqual([
      { key: 3, score: 1 },
      { key: 7, score: 0.5 },
    ]);
  });
});
