// The query of AdvancedSearch and SimilarVideo (product-spec section 2): videoId in the path;
// sceneIndex, searchScope, video, kValue, description and searchMethod in the query. Null values
// are dropped, booleans travel as strings, the description is URL-encoded.
import {
  DEFAULT_PAGE,
  DEFAULT_SEARCH_METHOD,
  DEFAULT_SEARCH_SCOPE,
  SEARCH_METHODS,
  SEARCH_SCOPES,
  TOP_K_DEFAULT,
  TOP_K_MAX,
  TOP_K_MIN,
  type SearchMethod,
  type SearchScope,
} from '../config/limits';

export interface SimilarSearch {
  videoId: string | null;
  sceneIndex: number | null;
  searchScope: SearchScope | null;
  /** true: video search; false: scene search. */
  video: boolean;
  kValue: number;
  description: string | null;
  searchMethod: SearchMethod;
  page: number | null;
}

export const DEFAULT_SEARCH: SimilarSearch = {
  videoId: null,
  sceneIndex: null,
  searchScope: null,
  video: true,
  kValue: TOP_K_DEFAULT,
  description: null,
  searchMethod: DEFAULT_SEARCH_METHOD,
  page: null,
};

type QueryValue = string | number | boolean | null | undefined;

/** "a=1&b=true" from an ordered list of pairs; null and undefined values are left out. */
export function buildQuery(pairs: [string, QueryValue][]): string {
  return pairs
    .filter((pair): pair is [string, string | number | boolean] => pair[1] != null)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
}

function searchPairs(s: SimilarSearch): [string, QueryValue][] {
  return [
    ['sceneIndex', s.sceneIndex],
    ['searchScope', s.searchScope],
    ['video', s.video],
    ['kValue', s.kValue],
    ['description', s.description],
    ['searchMethod', s.searchMethod],
    ['page', s.page],
  ];
}

function withPath(base: string, s: SimilarSearch): string {
  const path = s.videoId ? `${base}/${encodeURIComponent(s.videoId)}` : base;
  const query = buildQuery(searchPairs(s));
  return query ? `${path}?${query}` : path;
}

/** Where the search button goes. */
export function similarResultsPath(s: SimilarSearch): string {
  return withPath('/video/similar', s);
}

/** Where Change goes: the advanced search with the same query (without the page). */
export function advancedSearchPath(s: Partial<SimilarSearch>): string {
  return withPath('/advanced-search', { ...DEFAULT_SEARCH, ...s, page: null });
}

/** Numeric text coerced into 1..999; empty or unreadable becomes the minimum. */
export function coerceTopK(text: string): number {
  const digits = text.replace(/\D/g, '');
  const value = digits === '' ? TOP_K_MIN : Number.parseInt(digits, 10);
  return Math.min(TOP_K_MAX, Math.max(TOP_K_MIN, value));
}

function oneOf<T extends string>(values: readonly T[], value: string | null): T | null {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : null;
}

function integer(value: string | null): number | null {
  if (value === null || !/^\d{1,9}$/.test(value)) return null;
  return Number.parseInt(value, 10);
}

/** Reads the path parameter and query string back (unknown or broken values fall back). */
export function parseSearch(videoId: string | undefined, search: string): SimilarSearch {
  const q = new URLSearchParams(search);
  const kValue = integer(q.get('kValue'));
  return {
    videoId: videoId ? decodeURIComponent(videoId) : null,
    sceneIndex: integer(q.get('sceneIndex')),
    searchScope: oneOf(SEARCH_SCOPES, q.get('searchScope')),
    video: q.get('video') !== 'false',
    kValue: kValue === null ? TOP_K_DEFAULT : coerceTopK(String(kValue)),
    description: q.get('description') || null,
    searchMethod: oneOf(SEARCH_METHODS, q.get('searchMethod')) ?? DEFAULT_SEARCH_METHOD,
    page: integer(q.get('page')),
  };
}

/** The API parameters of find-similar-videos / find-similar-scenes. */
export function apiParams(s: SimilarSearch, size: number) {
  return {
    videoId: s.videoId ?? undefined,
    sceneIndex: s.sceneIndex ?? undefined,
    searchScope: s.videoId ? (s.searchScope ?? DEFAULT_SEARCH_SCOPE) : undefined,
    kValue: s.kValue,
    description: s.description ?? undefined,
    searchMethod: s.searchMethod,
    page: s.page ?? DEFAULT_PAGE,
    size,
  };
}
