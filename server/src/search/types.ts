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
}

export interface SearchResult {
  items: SearchHit[];
  /** min(k, number of matches). */
  total: number;
}
