// Keywords of the uploader's text and the captions: the words that recur or stand out, found
// with the search tokenizer (Intl.Segmenter for Japanese, stop words removed). Used for tags
// and for naming what the captions talk about; nothing here adds a word that was not there.
import { hasCjk, normalizeText } from '../../search/tokenize.ts';
import { EN_STOP_WORDS, JA_STOP_WORDS } from '../../search/stop-words.ts';

const segmenter = new Intl.Segmenter('ja', { granularity: 'word' });
const ONLY_KANA_SHORT = /^[\p{Script=Hiragana}ー]{1,3}$/u;
const HAS_LETTER = /\p{L}/u;

export interface KeywordSource {
  text: string;
  /** How much a word from this source counts (the uploader's own words count more). */
  weight: number;
}

/** Candidate keyword surface forms of a text, in order, as written (not stemmed). */
export function keywordCandidates(text: string): string[] {
  return candidateRuns(text).flat();
}

/**
 * The candidate words in runs: words next to each other in the text with no stop word, short
 * word or punctuation between them ("product launch" in "the product launch, in Tokyo").
 */
function candidateRuns(text: string): string[][] {
  const runs: string[][] = [[]];
  const breakRun = (): void => {
    if (runs.at(-1)!.length > 0) runs.push([]);
  };
  for (const seg of segmenter.segment(text.normalize('NFKC'))) {
    if (!seg.isWordLike) {
      if (/[^\s]/u.test(seg.segment)) breakRun();
      continue;
    }
    const word = seg.segment.replace(/^['’]+|['’]+$/g, '');
    const lower = normalizeText(word);
    if (!HAS_LETTER.test(word)) {
      breakRun();
      continue;
    }
    if (hasCjk(word)) {
      if (JA_STOP_WORDS.has(lower) || ONLY_KANA_SHORT.test(word) || [...word].length < 2) {
        breakRun();
        continue;
      }
    } else if (EN_STOP_WORDS.has(lower) || lower.length < 3) {
      breakRun();
      continue;
    }
    runs.at(-1)!.push(word);
  }
  return runs.filter((r) => r.length > 0);
}

/**
 * Two-word phrases that recur (weighted count of at least minScore), best first, as first written:
 * "product launch" says more than "product" and "launch" apart. Latin words only: Japanese
 * compounds already come out of the segmenter whole or as their parts.
 */
export function extractPhrases(sources: KeywordSource[], max: number, minScore = 2): string[] {
  const stats = new Map<string, { phrase: string; score: number; first: number }>();
  let position = 0;
  for (const source of sources) {
    for (const run of candidateRuns(source.text)) {
      for (let i = 0; i + 1 < run.length; i++) {
        if (hasCjk(run[i]!) || hasCjk(run[i + 1]!)) continue;
        const phrase = `${run[i]} ${run[i + 1]}`;
        const key = normalizeText(phrase);
        const entry = stats.get(key) ?? { phrase, score: 0, first: position };
        entry.score += source.weight;
        stats.set(key, entry);
        position++;
      }
    }
  }
  return [...stats.values()]
    .filter((e) => e.score >= minScore)
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .slice(0, max)
    .map((e) => e.phrase);
}

/**
 * Topic tags, cleaned: case folded (names of people keep their spelling), duplicates and words
 * already inside a kept phrase dropped, phrases first, at most max.
 */
export function cleanTags(o: {
  names: string[];
  phrases: string[];
  words: string[];
  max: number;
  /** Keep the words' spelling (a title), rather than case folding them (tags). */
  keepCase?: boolean;
}): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const inPhrase = new Set(o.phrases.flatMap((p) => normalizeText(p).split(' ')));
  const add = (tag: string, fold: boolean): void => {
    const t = (fold ? normalizeText(tag) : tag.normalize('NFKC')).replace(/\s+/g, ' ').trim();
    const key = normalizeText(t);
    if (!t || seen.has(key) || out.length >= o.max) return;
    seen.add(key);
    out.push(t);
  };
  for (const n of o.names) add(n, false);
  for (const p of o.phrases) add(p, !o.keepCase);
  for (const w of o.words) if (!inPhrase.has(normalizeText(w))) add(w, !o.keepCase);
  return out;
}

/**
 * Up to max keywords, ranked by weighted frequency, then by first appearance (deterministic).
 * Case variants are merged under the first spelling seen.
 */
export function extractKeywords(sources: KeywordSource[], max: number): string[] {
  const stats = new Map<string, { word: string; score: number; first: number }>();
  let position = 0;
  for (const source of sources) {
    for (const word of keywordCandidates(source.text)) {
      const key = normalizeText(word);
      const entry = stats.get(key) ?? { word, score: 0, first: position };
      // Show the lower-case spelling when the text has one ("Look" at a sentence start).
      if (word === key) entry.word = word;
      // Longer words say more (a name, a compound); short ones are often fillers.
      entry.score += source.weight * (1 + Math.min([...key].length, 12) / 12);
      stats.set(key, entry);
      position++;
    }
  }
  return [...stats.values()]
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .slice(0, max)
    .map((e) => e.word);
}

/** "#keyword" form: spaces and punctuation removed, as social networks expect. */
export function socialTag(word: string): string {
  return '#' + word.replace(/[\s\p{P}\p{S}]+/gu, '');
}
