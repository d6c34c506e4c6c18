// Why a search hit matched (issue 29): the query's words found in the hit's text as written there,
// the part of the score keywords and meaning carried, and the person, object or on-screen text
// the query named. Worked out for the answered page only, from one statement.
import type { Queryable } from '../db/db.ts';
import { objectName } from '../perception/coco-labels.ts';
import { hasCjk, normalizeText, wordsWithTokens, wordTokens } from './tokenize.ts';
import type { HitMatch, SearchHit, SearchMethod } from './types.ts';

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

/** Lines of a recorded ScreenLine[] (the perceive step's record). */
const lineTexts = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap((l: unknown) =>
        l && typeof l === 'object' && typeof (l as { text?: unknown }).text === 'string'
          ? [(l as { text: string }).text]
          : [],
      )
    : [];

function tagText(tags: unknown): string {
  return Array.isArray(tags)
    ? tags
        .map((t: unknown) =>
          typeof t === 'string'
            ? t
            : t && typeof t === 'object' && 'name' in t
              ? String(t.name)
              : '',
        )
        .join('\n')
    : '';
}

const hitKey = (videoId: string, sceneIdx?: number): string =>
  sceneIdx === undefined ? videoId : `${videoId}#${sceneIdx}`;

/**
 * The text of each hit of a page. Scenes: the video's title, the scene's description, captions,
 * people, objects and screen lines (the perceive step's record holds the last two, by scene
 * index). Videos: title, summary, tags and every scene's captions, people, objects and lines.
 */
export async function loadHitTexts(
  db: Queryable,
  teamId: string,
  hits: readonly SearchHit[],
): Promise<Map<string, HitText>> {
  const out = new Map<string, HitText>();
  const scenes = hits.filter((h) => h.sceneIndex !== undefined);
  const videos = hits.filter((h) => h.sceneIndex === undefined);
  if (scenes.length > 0) {
    type Row = {
      video_id: string;
      idx: number;
      title: string;
      description: string;
      captions: string;
      people: string[];
      objects: unknown;
      screen: unknown;
    };
    const rows = await db.query<Row>(
      `SELECT s.video_id, s.idx, coalesce(v.title, '') AS title, s.description, s.captions,
         ARRAY(SELECT DISTINCT f.person_name FROM scene_faces f
               WHERE f.video_id = s.video_id AND f.scene_idx = s.idx AND f.person_name IS NOT NULL
               ORDER BY f.person_name) AS people,
         ps.data #> ARRAY['scenes', s.idx::text, 'objects'] AS objects,
         ps.data #> ARRAY['screenText', s.idx::text] AS screen
       FROM unnest($1::uuid[], $2::int[]) AS p(video_id, idx)
       JOIN scenes s ON s.video_id = p.video_id AND s.idx = p.idx
       JOIN videos v ON v.id = s.video_id
       LEFT JOIN pipeline_steps ps ON ps.video_id = s.video_id AND ps.step = 'perceive'
       WHERE v.team_id = $3`,
      [scenes.map((h) => h.videoId), scenes.map((h) => h.sceneIndex), teamId],
    );
    for (const r of rows) {
      out.set(hitKey(r.video_id, r.idx), {
        texts: [r.title, r.description, r.captions],
        people: r.people,
        objects: strings(r.objects),
        screenLines: lineTexts(r.screen),
      });
    }
  }
  if (videos.length > 0) {
    type Row = {
      id: string;
      title: string;
      summary: string;
      tags: unknown;
      captions: string;
      people: string[];
      perceived: unknown;
      screen: unknown;
    };
    const rows = await db.query<Row>(
      `SELECT v.id, coalesce(v.title, '') AS title, coalesce(v.summary, '') AS summary, v.tags,
         (SELECT coalesce(string_agg(s.captions, E'\\n' ORDER BY s.idx), '') FROM scenes s
          WHERE s.video_id = v.id AND s.captions <> '') AS captions,
         ARRAY(SELECT name FROM video_people WHERE video_id = v.id
               UNION SELECT person_name FROM scene_faces
               WHERE video_id = v.id AND person_name IS NOT NULL) AS people,
         ps.data -> 'scenes' AS perceived, ps.data -> 'screenText' AS screen
       FROM videos v
       LEFT JOIN pipeline_steps ps ON ps.video_id = v.id AND ps.step = 'perceive'
       WHERE v.id = ANY($1::uuid[]) AND v.team_id = $2`,
      [videos.map((h) => h.videoId), teamId],
    );
    for (const r of rows) {
      const perceived = Array.isArray(r.perceived) ? (r.perceived as unknown[]) : [];
      const screen = Array.isArray(r.screen) ? (r.screen as unknown[]) : [];
      out.set(hitKey(r.id), {
        texts: [r.title, r.summary, tagText(r.tags), r.captions],
        people: r.people,
        objects: unique(
          perceived.flatMap((s) => strings((s as { objects?: unknown } | null)?.objects)),
        ),
        screenLines: unique(screen.flatMap(lineTexts)),
      });
    }
  }
  return out;
}

/** The page's hits with their match: what the query's words found, and the score's shares. */
export async function explainHits(
  db: Queryable,
  o: { teamId: string; method: SearchMethod; description?: string | undefined },
  hits: readonly (SearchHit & { keywordShare?: number | undefined })[],
): Promise<SearchHit[]> {
  const plain = (h: SearchHit): SearchHit => ({
    videoId: h.videoId,
    ...(h.sceneIndex === undefined ? {} : { sceneIndex: h.sceneIndex }),
    score: h.score,
  });
  const query = o.description?.trim();
  // "Similar to this item": no words of the user's to explain.
  if (!query) return hits.map((h) => ({ ...plain(h), match: NO_MATCH }));
  const texts = await loadHitTexts(db, o.teamId, hits);
  const q = queryWords(query);
  return hits.map((h) => {
    const shares = scoreShares(o.method, h.keywordShare);
    const text = texts.get(hitKey(h.videoId, h.sceneIndex));
    const match = text ? explainHit(q, query, text, shares) : { ...NO_MATCH, ...shares };
    return { ...plain(h), match };
  });
}
