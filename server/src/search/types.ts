// The search module's public shapes, shared by the routes and the three methods.

export type SearchMethod = 'hybrid' | 'dense' | 'sparse';
export type SearchScope = 'all' | 'current';

export interface SearchParams {
  teamId: string;
  /** Free text; when absent, videoId (and sceneIndex) say "similar to this item". */
  description?: string | undefined;
  videoId?: string | undefined;
  sceneIndex?: number | undefined;
  /** current: scenes of videoId only (scene search). */
  scope: SearchScope;
  method: SearchMethod;
  /** Top-k, 1..999. */
  k: number;
  /** 1-based page of the top-k. */
  page: number;
  size: number;
}

export interface SearchHit {
  videoId: string;
  /** Present for scene results. */
  sceneIndex?: number;
  /** 0..1, higher is better, comparable within one method. */
  score: number;
  /** Hybrid: the part of the fused score the keyword list gave, 0..1 (search/match.ts). */
  keywordShare?: number;
}

/** Why a hit matched (issue 29, docs/api.md). */
export interface HitMatch {
  /** Query words found in the hit's title, description or captions, as written there. */
  terms: string[];
  /** Shares of the score carried by keywords and by meaning (sum 1); null without query text. */
  keyword: number | null;
  meaning: number | null;
  /** The hit's people, objects (COCO keys) and on-screen lines that the query named. */
  people: string[];
  objects: string[];
  screenText: string[];
}

export interface SearchResult {
  items: SearchHit[];
  /** min(k, number of matches). */
  total: number;
}
