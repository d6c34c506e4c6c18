// The safe thresholds of the pruned keyword search (sparse.ts). A document's score is the sum of
// weight * impact over the query terms it holds, impacts being float4 values read from the index;
// given a score theta that k visible documents already reach, these say which postings of which
// terms can still hold a document of the top k. Everything here is exact float arithmetic: JS
// numbers are the same IEEE doubles as PostgreSQL's float8, and an impact is a float4 widened.

/** Scores are ordered after rounding to 9 decimals: a margin below theta that rounding cannot cross. */
export const SCORE_EPS = 2e-9;

const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);

/** The float4 just above a non-negative float4 x. */
export function nextF32(x: number): number {
  f32[0] = x;
  i32[0]! += 1;
  return f32[0]!;
}

/** The float4 just below a positive float4 x (0 stays 0). */
export function prevF32(x: number): number {
  if (x <= 0) return 0;
  f32[0] = x;
  i32[0]! -= 1;
  return f32[0]!;
}

export interface TermBound {
  term: string;
  /** qtf * idf * (k1 + 1): the score of a document is sum(weight * impact). */
  weight: number;
  /** The highest impact in the term's list. */
  top: number;
}

export interface TermBand {
  term: string;
  /** Read every posting whose impact is above this (and at least lo). */
  hi: number;
  /** Postings with lo <= impact <= hi can at best tie theta: read only those up to the k-th id. */
  lo: number;
}

/**
 * Largest float4 x >= 0 with weight * x + others <= theta (a few steps around the quotient; a
 * smaller x is always safe, it only reads more), or -1 when no x qualifies.
 */
function tieCeiling(weight: number, others: number, theta: number): number {
  if (others > theta) return -1;
  let x = Math.fround(Math.max(0, (theta - others) / weight));
  for (let i = 0; i < 8 && x > 0 && weight * x + others > theta; i++) x = prevF32(x);
  if (weight * x + others > theta) return -1;
  for (let i = 0; i < 4 && weight * nextF32(x) + others <= theta; i++) x = nextF32(x);
  return x;
}

/**
 * MaxScore over the query terms, then a per-term impact threshold: a document scoring at least
 * theta holds one of the essential terms (the others together stay below theta), and for that
 * term weight * impact >= theta - (everything the other terms could add).
 */
export function termBands(terms: readonly TermBound[], theta: number): TermBand[] {
  const byBound = [...terms].sort((a, b) => a.weight * a.top - b.weight * b.top);
  let prefix = 0;
  const bands: TermBand[] = [];
  for (const t of byBound) {
    const ub = t.weight * t.top;
    if (bands.length === 0 && prefix + ub < theta - SCORE_EPS) {
      prefix += ub;
      continue;
    }
    // Summed afresh (not total - ub) so rounding cannot make it smaller than it is.
    const others = byBound.reduce((s, u) => (u === t ? s : s + u.weight * u.top), 0);
    const lo = prevF32(prevF32(Math.fround(Math.max(0, (theta - SCORE_EPS - others) / t.weight))));
    bands.push({ term: t.term, hi: tieCeiling(t.weight, others, theta), lo });
  }
  return bands;
}
