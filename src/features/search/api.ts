// Similar search calls (product-spec section 7). Results are tagged so that deleting a video
// refreshes any search that showed it.
import { api } from '../../lib/api';

export interface SimilarItem {
  id: string;
  title: string | null;
  summary: string | null;
  status: string;
  createdAt: string;
  similarityScore: number;
  videoThumbnailPath: string | null;
  sceneThumbnailPath?: string | null;
  sceneDescription?: string;
  sceneIndex?: number;
  /** People recognised in the scene whose name the search text contains. */
  matchedPeople?: string[];
  /** Why the hit matched (issue 29); absent from older answers. */
  match?: MatchReason;
}

/** Why a hit matched: the words, the shares of the score, and what of the hit the query named. */
export interface MatchReason {
  /** Query words as they appear in the hit's texts (matched case-insensitively). */
  terms: string[];
  /** Share of the score carried by keywords (0..1); null for a search without text. */
  keyword: number | null;
  meaning: number | null;
  people: string[];
  /** Object keys (English, as in the detail's scenes[].objects). */
  objects: string[];
  screenText: string[];
}

export interface SimilarPage {
  items: SimilarItem[];
  total: number;
  pages: number;
  page: number;
  size: number;
}

export interface SimilarParams {
  videoId?: string;
  sceneIndex?: number;
  searchScope?: string;
  kValue: number;
  description?: string;
  searchMethod: string;
  page: number;
  size: number;
}

const searchApi = api.injectEndpoints({
  endpoints: (build) => ({
    findSimilarVideos: build.query<SimilarPage, SimilarParams>({
      query: (params) => ({ url: '/api/videos/find-similar-videos', body: params }),
      providesTags: [{ type: 'Similar', id: 'LIST' }],
    }),
    findSimilarScenes: build.query<SimilarPage, SimilarParams>({
      query: (params) => ({ url: '/api/videos/find-similar-scenes', body: params }),
      providesTags: [{ type: 'Similar', id: 'LIST' }],
    }),
  }),
});

export const { useFindSimilarVideosQuery, useFindSimilarScenesQuery } = searchApi;
