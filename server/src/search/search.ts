// Entry points for find-similar-videos / find-similar-scenes.
import type { AppContext } from '../context.ts';
import type { SearchParams, SearchResult } from './types.ts';

export type { SearchParams, SearchResult, SearchHit, SearchMethod, SearchScope } from './types.ts';

type SearchCtx = Pick<AppContext, 'db' | 'config'>;

export function searchVideos(_ctx: SearchCtx, _params: SearchParams): Promise<SearchResult> {
  return Promise.resolve({ items: [], total: 0 });
}

export function searchScenes(_ctx: SearchCtx, _params: SearchParams): Promise<SearchResult> {
  return Promise.resolve({ items: [], total: 0 });
}
