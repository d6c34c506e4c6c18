// Offline behaviour of the service worker and the app (issue 8), in one place.

/** Recent API answers (lists, details, similar searches, profile) kept per user. */
export const API_CACHE_NAME = 'api-v1';
export const API_CACHE_MAX_ENTRIES = 200;
export const API_CACHE_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
/** Network-first: after this long without an answer the cached copy is shown. */
export const API_NETWORK_TIMEOUT_SECONDS = 3;
/**
 * Sent with a GET that refreshes an answer already on screen (a refetch). The service worker then
 * waits for the network and falls back to its copy only when the network fails: on a slow
 * network its copy is what the screen already shows, so answering with it would leave the screen
 * stale while looking refreshed (e.g. right after reconnecting).
 */
export const REFRESH_HEADER = 'X-Refresh';

/** The page's own copy of the output languages, for the upload dialog offline (one per user). */
export const LANGUAGES_CACHE_NAME = 'upload-languages-v2';

/**
 * Cache names that hold one user's data start with one of these and end with `@<userId>`.
 * A name with such a prefix and no owner (an older build's global image or languages cache) is
 * always purged.
 */
export const USER_CACHE_PREFIXES = ['api-', 'images-', 'upload-languages-'] as const;

/**
 * Online, the list fetches the upload dialog's output languages this long after it appears (off
 * the first load's path), so the dialog can queue an upload offline after one online visit.
 */
export const LANGUAGES_PREFETCH_DELAY_MS = 2_000;

/** How often a deferred update looks again whether the uploads have finished. */
export const UPDATE_IDLE_POLL_MS = 2_000;

/**
 * The API names the user an answer was made for in this header; the service worker keeps an
 * answer only in that user's cache, and only while that user is the one signed in on the device.
 */
export const ANSWER_OWNER_HEADER = 'X-User-Id';
