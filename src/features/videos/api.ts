// Video list call (product-spec section 7). More video endpoints join here later.
import { PAGE_SIZE, DEFAULT_PAGE } from '../../config/limits';
import { api } from '../../lib/api';

export type VideoStatus = 'in_progress' | 'completed' | 'failed' | (string & {});

export interface VideoSummary {
  id: number | string;
  filename: string;
  title: string | null;
  status: VideoStatus;
  createdAt: string;
  tags?: { name: string }[];
  videoThumbnailPath?: string | null;
}

export interface Page<T> {
  items: T[];
  total: number;
  pages: number;
  page: number;
  size: number;
}

export interface VideoListFilters {
  page?: number;
  size?: number;
  tags?: string;
  sort?: string;
}

const videosApi = api.injectEndpoints({
  endpoints: (build) => ({
    listVideos: build.query<Page<VideoSummary>, VideoListFilters>({
      query: ({ page = DEFAULT_PAGE, size = PAGE_SIZE, ...rest }) => ({
        url: '/api/videos',
        body: { size, page, ...rest },
      }),
      providesTags: (result) => [
        { type: 'Video', id: 'LIST' },
        ...(result?.items ?? []).map((video) => ({ type: 'Video' as const, id: video.id })),
      ],
    }),
  }),
});

export const { useListVideosQuery } = videosApi;
