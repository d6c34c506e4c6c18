// The output languages offered for analysis (GET /api/supported-videos-languages). The last
// answer is remembered so the dialog still works offline, where uploads queue until online.
import { api } from '../../lib/api';

export interface OutputLanguage {
  code: string;
  name: string;
}

// Cache Storage, not localStorage: the spec allows only two localStorage keys (section 3).
const CACHE_NAME = 'upload-languages-v1';
const CACHE_KEY = '/api/supported-videos-languages';

async function remembered(): Promise<OutputLanguage[] | undefined> {
  try {
    const cached = await (await caches.open(CACHE_NAME)).match(CACHE_KEY);
    const value = (await cached?.json()) as unknown;
    return Array.isArray(value) ? (value as OutputLanguage[]) : undefined;
  } catch {
    return undefined; // no Cache Storage here (tests, old browsers)
  }
}

async function remember(languages: OutputLanguage[]): Promise<void> {
  try {
    const cache = await caches.open(CACHE_NAME);
    await cache.put(CACHE_KEY, new Response(JSON.stringify(languages)));
  } catch {
    // Nothing to keep it in: the next offline open has no list, nothing else breaks.
  }
}

const uploadApi = api.injectEndpoints({
  endpoints: (build) => ({
    supportedLanguages: build.query<OutputLanguage[], void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const result = await baseQuery({ url: '/api/supported-videos-languages' });
        if (!result.error && Array.isArray(result.data)) {
          const languages = result.data as OutputLanguage[];
          void remember(languages);
          return { data: languages };
        }
        const fallback = await remembered();
        return fallback ? { data: fallback } : { error: result.error ?? { status: 0 } };
      },
      providesTags: ['Languages'],
    }),
  }),
});

export const { useSupportedLanguagesQuery } = uploadApi;

/** Refreshes the video list (after queuing, and when an upload reaches its last step). */
export const invalidateVideoList = () => api.util.invalidateTags([{ type: 'Video', id: 'LIST' }]);
