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
