// Video calls (product-spec section 7): list, detail, delete and retry. Delete and retry change
// the cached list and detail at once and put them back if the server refuses.
import { DEFAULT_PAGE, PAGE_SIZE } from '../../config/limits';
import { api } from '../../lib/api';

export type VideoStatus = 'in_progress' | 'completed' | 'failed' | (string & {});

export interface Video {
  id: string;
  filename: string;
  title: string | null;
  summary?: string | null;
  status: VideoStatus;
  createdAt: string;
  videoDate?: string | null;
  videoLength?: number | null;
  tags?: { name: string }[];
  videoThumbnailPath?: string | null;
  videoPath?: string | null;
  trailerPath?: string | null;
  reportPath?: string | null;
  isTrailerCreating?: boolean;
  isReportCreating?: boolean;
  /** Why a failed video failed, as a code (failure-messages.ts words it); absent from older answers. */
  failureCode?: string | null;
  /** The team's video a 'duplicate' failure repeats (issue 42); null otherwise. */
  duplicateOf?: { id: string; title: string | null; filename: string } | null;
}

/** A retry; `allowDuplicate` analyses a video that failed as a duplicate after all (issue 42). */
export interface RetryArgs {
  id: string;
  allowDuplicate?: boolean;
}

export interface Scene {
  index: number;
  startTime: string;
  endTime: string;
  thumbnail: string | null;
  description: string;
  videoPath: string | null;
  frames: { path: string }[];
  /** Issue 29 (absent from older answers): who was recognised, what was seen and read. */
  people?: ScenePerson[];
  /** Object labels as stable English keys (COCO names), shown through messages object.<key>. */
  objects?: string[];
  screenText?: string;
}

/** A person recognised in a scene; faceThumbnail is a signed asset path or null. */
export interface ScenePerson {
  name: string;
  faceThumbnail: string | null;
}

/** One caption as the analysis stores it ("00:00:02.000" times). */
export interface CaptionCue {
  startTime: string;
  endTime: string;
  text: string;
}

/** Why a video has no captions (issue 29): no subtitle track and no transcriber, or no speech. */
export type CaptionsNote = 'none_embedded' | 'none_spoken' | (string & {});

/** Signed asset paths of the video's downloads (issue 29). */
export interface VideoDownloads {
  captionsVtt: string | null;
  captionsSrt: string | null;
  scenesCsv: string;
  analysisJson: string;
}

/** An uploaded person or a recognised one, with the scenes where their face was recognised. */
export interface Person {
  name: string;
  scenes: number[];
  /** Whether the person's image shows exactly one face; null before the analysis looked. */
  faceFound: 'one' | 'none' | 'several' | null;
}

export interface VideoDetail extends Video {
  outputData: { scenes: Scene[]; captions?: CaptionCue[] };
  /** Absent from answers of servers before issue 16. */
  people?: Person[];
  /** The rest: absent from answers of servers before issue 29. */
  captionsTrack?: { path: string; language: string } | null;
  captionsNote?: CaptionsNote | null;
  downloads?: VideoDownloads;
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

/** Anything other than completed or failed is shown as in progress (product-spec section 3). */
export function isInProgress(status: VideoStatus): boolean {
  return status !== 'completed' && status !== 'failed';
}

const videosApi = api.injectEndpoints({
  endpoints: (build) => ({
    listVideos: build.query<Page<Video>, VideoListFilters>({
      query: ({ page = DEFAULT_PAGE, size = PAGE_SIZE, ...rest }) => ({
        url: '/api/videos',
        body: { size, page, ...rest },
      }),
      providesTags: (result) => [
        { type: 'Video', id: 'LIST' },
        ...(result?.items ?? []).map((video) => ({ type: 'Video' as const, id: video.id })),
      ],
    }),
    getVideo: build.query<VideoDetail, string>({
      query: (id) => ({ url: `/api/videos/${encodeURIComponent(id)}` }),
      providesTags: (_result, _error, id) => [{ type: 'Video', id }],
    }),
    deleteVideo: build.mutation<unknown, string>({
      query: (id) => ({ url: `/api/videos/${encodeURIComponent(id)}`, method: 'DELETE' }),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const undo = patchCachedLists(getState, id, (args) =>
          dispatch(
            videosApi.util.updateQueryData('listVideos', args, (page) => {
              const before = page.items.length;
              page.items = page.items.filter((video) => video.id !== id);
              page.total -= before - page.items.length;
            }),
          ),
        );
        await queryFulfilled.catch(undo);
      },
      // Results of a search may hold the video too; its detail is gone (not refetched).
      invalidatesTags: (_result, error) =>
        error
          ? []
          : [
              { type: 'Video', id: 'LIST' },
              { type: 'Similar', id: 'LIST' },
            ],
    }),
    retryVideo: build.mutation<Video, RetryArgs>({
      query: ({ id, allowDuplicate }) => ({
        url: `/api/videos/${encodeURIComponent(id)}/retry-process`,
        method: 'POST',
        ...(allowDuplicate ? { body: { allow_duplicate: true } } : {}),
      }),
      async onQueryStarted({ id }, { dispatch, getState, queryFulfilled }) {
        // Product-spec section 4: a retried video shows as in progress at once.
        const undoLists = patchCachedLists(getState, id, (args) =>
          dispatch(
            videosApi.util.updateQueryData('listVideos', args, (page) => {
              for (const video of page.items) if (video.id === id) video.status = 'in_progress';
            }),
          ),
        );
        const detail = dispatch(
          videosApi.util.updateQueryData('getVideo', id, (video) => {
            video.status = 'in_progress';
          }),
        );
        await queryFulfilled.catch(() => {
          undoLists();
          detail.undo();
        });
      },
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Video', id }],
    }),
  }),
});

type ApiState = Parameters<typeof api.util.selectInvalidatedBy>[0];

/** Patches every cached list page holding the video (through `patch`); returns the undo. */
function patchCachedLists(
  getState: () => unknown,
  id: string,
  patch: (args: VideoListFilters) => { undo: () => void },
): () => void {
  const patches = api.util
    .selectInvalidatedBy(getState() as ApiState, [{ type: 'Video', id }])
    .filter((entry) => entry.endpointName === 'listVideos')
    .map((entry) => patch(entry.originalArgs as VideoListFilters));
  return () => {
    for (const one of patches) one.undo();
  };
}

export const {
  useListVideosQuery,
  useGetVideoQuery,
  useDeleteVideoMutation,
  useRetryVideoMutation,
} = videosApi;
