// The specification's limits and timings (product-spec sections 5 and 9), in one place. The
// server imports this file too (it is in tsconfig.node.json) for every limit both sides check, so
// a client check and the server's answer cannot drift apart; constants only the server needs are
// in server/src/limits.ts. Keep this file free of imports and of browser APIs.

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 20;

/** About-the-video, trailer and report instructions. */
export const TEXT_AREA_MAX_LENGTH = 500;

/** Search description; the input accepts two more characters so the error can show. */
export const SEARCH_TEXT_MAX_LENGTH = 1024;
export const SEARCH_INPUT_MAX_LENGTH = SEARCH_TEXT_MAX_LENGTH + 2;

export const MEGABYTE = 1024 * 1024;
export const VIDEO_MAX_BYTES = 5120 * MEGABYTE;
export const VIDEO_EXTENSIONS = ['mp4', 'm4v', 'mov'] as const;
/** Files one upload batch may hold, and one check-files call may ask about (issue 42). */
export const BATCH_MAX_FILES = 10_000;
export const IMAGE_MAX_BYTES = 10 * MEGABYTE;
export const IMAGE_EXTENSIONS = ['jpeg', 'png', 'jpg', 'svg'] as const;

export const TOP_K_MIN = 1;
export const TOP_K_MAX = 999;
export const TOP_K_DEFAULT = 10;

export const SEARCH_METHODS = ['hybrid', 'dense', 'sparse'] as const;
export type SearchMethod = (typeof SEARCH_METHODS)[number];
export const DEFAULT_SEARCH_METHOD: SearchMethod = 'hybrid';
export const SEARCH_SCOPES = ['all', 'current'] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];
export const DEFAULT_SEARCH_SCOPE: SearchScope = 'all';

export const PAGE_SIZE = 50;
export const DEFAULT_PAGE = 1;

/** Page sizes of the people calls (issue 30); the API takes at most PEOPLE_MAX_PAGE_SIZE. */
export const PEOPLE_PAGE_SIZE = 24;
export const PERSON_SCENES_PAGE_SIZE = 20;
export const PERSON_FACES_PAGE_SIZE = 48;
export const PEOPLE_MAX_PAGE_SIZE = 100;

export const FRAME_PREVIEW_COUNT = 6;
export const SCENE_TITLE_LENGTH = 60;
/** One-time code length issued by the server (OPERATIONS.md settles the 4-or-6 question). */
export const OTP_LENGTH = 6;

/** Delay before scrolling to the selected scene on the video detail page. */
export const SCENE_SCROLL_DELAY_MS = 200;
/** Delay before leaving a protected page after a failed session restore. */
export const RESTORE_REDIRECT_DELAY_MS = 100;
/** Access tokens live one hour; renew well before that while the app is open. */
export const TOKEN_REFRESH_INTERVAL_MS = 15 * 60 * 1000;
/**
 * A refresh without an answer (network error, timeout, 5xx, 429) is asked again after these
 * delays, as long as less than REFRESH_RETRY_WITHIN_MS passed since the first try. The server
 * may have rotated the token and its answer got lost on the way back: the old token is then
 * refused for every call, and it still buys the successor only within the server's 30 s grace
 * window (server/src/auth/refresh.ts's REUSE_GRACE_MS). Asked after that, it counts as a stolen token and ends the
 * session, so "try again later" (the next call or the 15-minute timer) signed the user out.
 */
export const REFRESH_RETRY_DELAYS_MS: readonly number[] = [1_000, 3_000, 6_000];
export const REFRESH_RETRY_WITHIN_MS = 20_000;

/** The video list refreshes itself this often while any video is still being processed. */
export const VIDEO_LIST_POLL_MS = 5_000;
/** While a trailer or report is being made, the video detail polls: 2 s, then 1.5x up to 15 s. */
export const VIDEO_DETAIL_POLL_BACKOFF = { firstMs: 2_000, maxMs: 15_000, factor: 1.5 } as const;
/** Collapsed height of a video's tags (and of a result summary) before View More. */
export const TAGS_COLLAPSED_HEIGHT = '4rem';
