// One tokenizer for the keyword index, the keyword query and the local lexical embedding, so a
// word is cut the same way when stored and when searched, on PGlite and on PostgreSQL alike.
// English: word segmentation, stop words dropped, plural "s" folded. Japanese (and other CJK):
// Intl.Segmenter words plus overlapping character bigrams of every CJK run, so a query still
// matches when the dictionary cuts a compound differently.
import { EN_STOP_WORDS, JA_STOP_WORDS } from './stop-words.ts';

const segmenter = new Intl.Segmenter('ja', { granularity: 'word' });

/** Han, Hiragana, Katakana (incl. prolonged sound mark), Hangul. */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆]+/gu;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const ONLY_HIRAGANA = /^[\p{Script=Hiragana}ー]+$/u;

/** NFKC (full-width to half-width, compatibility forms) and lower case. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

export function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/** Conservative English plural folding (Harman's S-stemmer). */
export function stemEnglish(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  if (word.endsWith('ies') && !word.endsWith('eies') && !word.endsWith('aies')) {
    return word.slice(0, -3) + 'y';
  }
  if (word.endsWith('es') && !/(aes|ees|oes)$/.test(word)) return word.slice(0, -1);
  if (word.endsWith('s') && !/(us|ss)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The token of one normalised segmenter word, or undefined for a stop word or a non-word. */
function tokenOf(segment: string): string | undefined {
  const w = segment.replace(/^['’]+|['’]+$/g, '');
  if (!w || !HAS_LETTER_OR_DIGIT.test(w)) return undefined;
  if (hasCjk(w)) {
    if (JA_STOP_WORDS.has(w)) return undefined;
    // Lone hiragana are particles and inflection tails: no meaning alone.
    if (w.length === 1 && ONLY_HIRAGANA.test(w)) return undefined;
    return w;
  }
  if (EN_STOP_WORDS.has(w) || (w.length === 1 && !/\d/.test(w))) return undefined;
  return stemEnglish(w);
}

/** Word tokens (segmenter words, normalised, stop words removed, English plurals folded). */
export function wordTokens(text: string): string[] {
  const out: string[] = [];
  for (const seg of segmenter.segment(normalizeText(text))) {
    if (!seg.isWordLike) continue;
    const token = tokenOf(seg.segment);
    if (token) out.push(token);
  }
  return out;
}

/** Each word of a text as written, with its token (for showing which words matched). */
export function* wordsWithTokens(text: string): Generator<{ word: string; token: string }> {
  for (const seg of segmenter.segment(text)) {
    if (!seg.isWordLike) continue;
    const token = tokenOf(normalizeText(seg.segment));
    if (token) yield { word: seg.segment, token };
  }
}

/** Overlapping character bigrams of each CJK run (a lone CJK character stands as itself). */
export function cjkBigrams(text: string): string[] {
  const out: string[] = [];
  for (const m of normalizeText(text).matchAll(CJK_RUN)) {
    const chars = [...m[0]];
    if (chars.length === 1) {
      if (!ONLY_HIRAGANA.test(chars[0]!)) out.push(chars[0]!);
      continue;
    }
    for (let i = 0; i + 1 < chars.length; i++) {
      const bigram = chars[i]! + chars[i + 1]!;
      // Two hiragana in a row are mostly grammar (です, ます, して): skip them.
      if (ONLY_HIRAGANA.test(bigram)) continue;
      out.push(bigram);
    }
  }
  return out;
}

/**
 * Index and query terms of a text. Bigrams are prefixed with "~" so that a two-character word
 * from the segmenter and the same two characters as a bigram stay separate terms (their
 * statistics differ).
 */
export function searchTerms(text: string): string[] {
  const terms = wordTokens(text);
  for (const b of cjkBigrams(text)) terms.push('~' + b);
  return terms;
}

/** Term frequencies of a text. */
export function termFrequencies(text: string): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of searchTerms(text)) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}
