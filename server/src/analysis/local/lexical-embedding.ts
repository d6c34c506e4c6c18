// The local provider's dense vectors: a lexical embedding by signed feature hashing, no model.
// Features: word unigrams (the search tokenizer's words), character 3- and 4-grams of each
// Latin word with boundary marks (so "running"/"runner" and typos still overlap), and CJK
// character bigrams (Japanese needs no dictionary for those). Each feature's weight is
// sublinear (1 + ln tf) times a per-kind weight; the sign comes from a second hash so that
// collisions cancel out on average instead of adding up; the vector is L2-normalised so the
// cosine distance of pgvector compares texts. See docs/decisions/local-provider.md.
import { EMBEDDING_DIM } from '../provider.ts';
import { cjkBigrams, hasCjk, wordTokens } from '../../search/tokenize.ts';

const WORD_WEIGHT = 1;
const NGRAM_WEIGHT = 0.35;
const BIGRAM_WEIGHT = 0.6;

/** 32-bit FNV-1a over UTF-16 code units, with a seed so two independent hashes come cheap. */
function fnv1a(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function addFeatures(counts: Map<string, number>, prefix: string, items: Iterable<string>): void {
  for (const item of items) {
    const key = prefix + item;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
}

function* charNgrams(word: string): Iterable<string> {
  const padded = `<${word}>`;
  for (const n of [3, 4]) {
    for (let i = 0; i + n <= padded.length; i++) yield padded.slice(i, i + n);
  }
}

export function lexicalEmbedding(text: string): number[] {
  const words = wordTokens(text);
  const counts = new Map<string, number>();
  addFeatures(counts, 'w:', words);
  for (const w of words) if (!hasCjk(w) && w.length > 2) addFeatures(counts, 'c:', charNgrams(w));
  addFeatures(counts, 'b:', cjkBigrams(text));

  const vec = new Float64Array(EMBEDDING_DIM);
  for (const [key, tf] of counts) {
    const kind = key[0];
    const kindWeight = kind === 'w' ? WORD_WEIGHT : kind === 'c' ? NGRAM_WEIGHT : BIGRAM_WEIGHT;
    const weight = kindWeight * (1 + Math.log(tf));
    const slot = fnv1a(key, 0) % EMBEDDING_DIM;
    const sign = (fnv1a(key, 0x9e3779b9) & 1) === 0 ? 1 : -1;
    vec[slot] = vec[slot]! + sign * weight;
  }
  return l2Normalize(Array.from(vec));
}

/** Unit length; an all-zero vector (empty text) stays zero rather than becoming NaN. */
export function l2Normalize(v: number[]): number[] {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  return norm > 0 ? v.map((x) => x / norm) : v.map(() => 0);
}
