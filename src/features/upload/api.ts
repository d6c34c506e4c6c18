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

const uploadApi = api.injectEndpoints({
  endpoints: (build) => ({
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

export const { useSupportedLanguagesQuery } = uploadApi;

/** Fetches (and remembers) the languages without rendering them: see use-languages-for-offline. */
export const usePrefetchLanguages = () => uploadApi.usePrefetch('supportedLanguages');

/** Refreshes the video list (after queuing, and when an upload reaches its last step). */
export const invalidateVideoList = () => api.util.invalidateTags([{ type: 'Video', id: 'LIST' }]);
