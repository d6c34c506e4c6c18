// Why a search hit matched (issue 29): the query's words found in the hit's text as written there,
// the part of the score keywords and meaning carried, and the person, object or on-screen text
// the query named. Worked out for the answered page only, from the text read with its rows
// (repositories/videos.ts: findVideoHits, findSceneHits), so it costs no statement of its own.
import { objectName } from '../perception/coco-labels.ts';
import type { HitTextColumns } from '../repositories/videos.ts';
import { lineTexts } from './documents.ts';
import { hasCjk, normalizeText, wordsWithTokens, wordTokens } from './tokenize.ts';
import type { HitMatch, SearchMethod } from './types.ts';

/** What a free-text query is compared with. */
export interface QueryWords {
  tokens: ReadonlySet<string>;
  /** Japanese (CJK) tokens, also looked for inside longer words (dictionaries cut differently). */
  cjk: string[];
  /** Prefixes a line must hold to be worth cutting into words (plural folding aside). */
  probes: string[];
}

/** The text of one hit that a match is looked for in. */
export interface HitText {
  /** Title, description, captions: where matched words are highlighted. */
  texts: string[];
  people: string[];
  /** COCO keys (English). */
  objects: string[];
  screenLines: string[];
}

export function queryWords(text: string): QueryWords {
  const tokens = new Set(wordTokens(text));
  const cjk = [...tokens].filter(hasCjk);
  // A folded plural ("city" from "cities") differs in its last letter: probe without it.
  const probes = [...tokens].map((t) => (hasCjk(t) || t.length < 3 ? t : t.slice(0, -1)));
  return { tokens, cjk, probes };
}

/** The query's words in a text, as written there (first spelling of each), in text order. */
export function matchedTerms(q: QueryWords, text: string): string[] {
  const found = new Map<string, string>();
  for (const line of text.split('\n')) {
    const norm = normalizeText(line);
    if (!q.probes.some((p) => norm.includes(p))) continue;
    for (const { word, token } of wordsWithTokens(line)) {
      if (q.tokens.has(token) && !found.has(token)) found.set(token, word);
    }
    for (const w of q.cjk) if (!found.has(w) && norm.includes(w)) found.set(w, w);
  }
  return [...found.values()];
}

function unique(words: Iterable<string>): string[] {
  const seen = new Map<string, string>();
  for (const w of words) if (!seen.has(w.toLowerCase())) seen.set(w.toLowerCase(), w);
  return [...seen.values()];
}

/** A name is asked for when the query holds it whole or one of its words. */
function names(q: QueryWords, query: string, name: string): boolean {
  const tokens = wordTokens(name);
  return normalizeText(query).includes(normalizeText(name)) || tokens.some((t) => q.tokens.has(t));
}

/** An object is asked for by all words of its English key or by its Japanese word. */
function namesObject(q: QueryWords, key: string): boolean {
  const en = wordTokens(key);
  if (en.length > 0 && en.every((t) => q.tokens.has(t))) return true;
  const ja = normalizeText(objectName(key, 'ja'));
  return q.tokens.has(ja) || (ja.length > 1 && q.cjk.some((w) => w.includes(ja)));
}

export function explainHit(
  q: QueryWords,
  query: string,
  text: HitText,
  shares: Pick<HitMatch, 'keyword' | 'meaning'>,
): HitMatch {
  return {
    terms: unique(text.texts.flatMap((t) => matchedTerms(q, t))),
    ...shares,
    people: text.people.filter((p) => names(q, query, p)),
    objects: text.objects.filter((o) => namesObject(q, o)),
    screenText: text.screenLines.filter((l) => matchedTerms(q, l).length > 0),
  };
}

/** Keyword and meaning shares of a hit's score by method (hybrid: what fusion measured). */
export function scoreShares(
  method: SearchMethod,
  keywordShare: number | undefined,
): Pick<HitMatch, 'keyword' | 'meaning'> {
  const keyword = method === 'sparse' ? 1 : method === 'dense' ? 0 : (keywordShare ?? 0);
  return { keyword, meaning: 1 - keyword };
}

export const NO_MATCH: HitMatch = {
  terms: [],
  keyword: null,
  meaning: null,
  people: [],
  objects: [],
  screenText: [],
};

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

function tagText(tags: unknown): string {
  if (!Array.isArray(tags)) return '';
  return tags
    .map((t: unknown) => (typeof t === 'string' ? t : (t as { name?: unknown } | null)?.name))
    .filter((t): t is string => typeof t === 'string')
    .join('\n');
}

/** A scene hit's text: its video's title, its description, captions, people, objects, lines. */
export function sceneHitText(
  row: HitTextColumns & { title: string | null; scene_description: string },
): HitText {
  return {
    texts: [row.title ?? '', row.scene_description, row.hit_captions],
    people: row.hit_people,
    objects: strings(row.hit_objects),
    screenLines: lineTexts(row.hit_screen),
  };
}

/** A video hit's text: title, summary, tags, and every scene's captions, objects and lines. */
export function videoHitText(
  row: HitTextColumns & { title: string | null; summary: string | null; tags: unknown },
): HitText {
  const scenes = Array.isArray(row.hit_objects) ? (row.hit_objects as unknown[]) : [];
  const screen = Array.isArray(row.hit_screen) ? (row.hit_screen as unknown[]) : [];
  return {
    texts: [row.title ?? '', row.summary ?? '', tagText(row.tags), row.hit_captions],
    people: row.hit_people,
    objects: unique(scenes.flatMap((sc) => strings((sc as { objects?: unknown } | null)?.objects))),
    screenLines: unique(screen.flatMap(lineTexts)),
  };
}

/**
 * How the hits of one search are explained: with no words of the user's ("similar to this"),
 * nothing; else the words found and the shares of each hit's score.
 */
export function hitMatcher(o: {
  method: SearchMethod;
  description?: string | undefined;
}): (text: HitText, keywordShare: number | undefined) => HitMatch {
  const query = o.description?.trim();
  if (!query) return () => NO_MATCH;
  const q = queryWords(query);
  return (text, keywordShare) => explainHit(q, query, text, scoreShares(o.method, keywordShare));
}
