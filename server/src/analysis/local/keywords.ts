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
  const out: string[] = [];
  for (const seg of segmenter.segment(text.normalize('NFKC'))) {
    if (!seg.isWordLike) continue;
    const word = seg.segment.replace(/^['’]+|['’]+$/g, '');
    const lower = normalizeText(word);
    if (!HAS_LETTER.test(word)) continue;
    if (hasCjk(word)) {
      if (JA_STOP_WORDS.has(lower) || ONLY_KANA_SHORT.test(word) || [...word].length < 2) continue;
    } else if (EN_STOP_WORDS.has(lower) || lower.length < 3) {
      continue;
    }
    out.push(word);
  }
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
