// The output languages offered for analysis (GET /api/supported-videos-languages). The last
// answer is remembered so the dialog still works offline, where uploads queue until online. It
// was fetched with the user's token, so it is kept like every cached answer: in a cache named
// after the user, deleted on logout (src/sw/user-caches.ts).
import { LANGUAGES_CACHE_NAME } from '../../config/offline';
import { api } from '../../lib/api';
import { selectCurrentUser, type WithSession } from '../../lib/session-slice';
import { userCacheName } from '../../sw/user-caches';

export interface OutputLanguage {
  code: string;
  name: string;
}

// Cache Storage, not localStorage: the spec allows only two localStorage keys (section 3). The
// copy is kept under the request's path.
const LANGUAGES_PATH = '/api/supported-videos-languages';

async function remembered(cacheName: string): Promise<OutputLanguage[] | undefined> {
  try {
    const cached = await (await caches.open(cacheName)).match(LANGUAGES_PATH);
    const value = (await cached?.json()) as unknown;
    return Array.isArray(value) ? (value as OutputLanguage[]) : undefined;
  } catch {
    return undefined; // no Cache Storage here (tests, old browsers)
  }
}

async function remember(cacheName: string, languages: OutputLanguage[]): Promise<void> {
  try {
    const cache = await caches.open(cacheName);
    await cache.put(LANGUAGES_PATH, new Response(JSON.stringify(languages)));
  } catch {
    // Nothing to keep it in: the next offline open has no list, nothing else breaks.
  }
}

/** POST /api/videos/check-files: does the team already have these files? (issue 42) */
export interface FileToCheck {
  key: string;
  size: number;
  sha256?: string;
}

export interface FileCheck {
  key: string;
  /** new: not in the archive; needs-hash: a video there has the same size; in-archive: same bytes. */
  state: 'new' | 'needs-hash' | 'in-archive';
  video?: { id: string; title: string | null; filename: string };
}

/** Where one uploaded video stands (POST /api/videos/statuses). */
export interface VideoStatus {
  id: string;
  status: string;
  title: string | null;
  failureCode: string | null;
}

const uploadApi = api.injectEndpoints({
  endpoints: (build) => ({
    checkFiles: build.mutation<FileCheck[], FileToCheck[]>({
      query: (files) => ({ url: '/api/videos/check-files', method: 'POST', body: { files } }),
      transformResponse: (answer: { items: FileCheck[] }) => answer.items,
    }),
    videoStatuses: build.query<VideoStatus[], string[]>({
      query: (ids) => ({ url: '/api/videos/statuses', method: 'POST', body: { ids } }),
      transformResponse: (answer: { items: VideoStatus[] }) => answer.items,
    }),
    supportedLanguages: build.query<OutputLanguage[], void>({
      async queryFn(_arg, { getState }, _extra, baseQuery) {
        const userId = selectCurrentUser(getState() as WithSession)?.user.id;
        const cacheName =
          userId === undefined ? undefined : userCacheName(LANGUAGES_CACHE_NAME, String(userId));
        const result = await baseQuery({ url: LANGUAGES_PATH });
        if (!result.error && Array.isArray(result.data)) {
          const languages = result.data as OutputLanguage[];
          if (cacheName) void remember(cacheName, languages);
          return { data: languages };
        }
        const fallback = cacheName ? await remembered(cacheName) : undefined;
        return fallback ? { data: fallback } : { error: result.error ?? { status: 0 } };
      },
      providesTags: ['Languages'],
    }),
  }),
});

export const { useSupportedLanguagesQuery, useCheckFilesMutation, useVideoStatusesQuery } =
  uploadApi;

/** Fetches (and remembers) the languages without rendering them: see use-languages-for-offline. */
export const usePrefetchLanguages = () => uploadApi.usePrefetch('supportedLanguages');

/** Refreshes the video list (after queuing, and when an upload reaches its last step). */
export const invalidateVideoList = () => api.util.invalidateTags([{ type: 'Video', id: 'LIST' }]);
