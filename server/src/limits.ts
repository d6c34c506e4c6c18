// The specification's constants that only the server uses, grouped by area. Those the client
// checks too (lengths, sizes, file types, search and paging bounds) live once in
// src/config/limits.ts, which both sides import.

import { BATCH_MAX_FILES, VIDEO_MAX_BYTES } from '../../src/config/limits.ts';

// --- Accounts and sign-in (product-spec sections 5 and 9, OPERATIONS.md) ---
export const EMAIL_MAX_LENGTH = 254;
export const FULL_NAME_MAX_LENGTH = 100;
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 50;
export const LANGUAGES = ['en', 'ja'] as const;

/** Login throttling: per account, then a doubling delay; per client address a higher limit. */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_ACCOUNT_FAILURES = 5;
export const LOGIN_IP_FAILURES = 50;
export const LOGIN_BASE_DELAY_MS = 60 * 1000;
/** A client address that signed in to an account within this time is "known" to it. */
export const LOGIN_KNOWN_CLIENT_MS = 30 * 24 * 60 * 60 * 1000;

/** Wrong current passwords on change-password / change-email before a pause. */
export const PASSWORD_CHECK_FAILURES = 5;

/** Password reset links: valid 1 hour, single use; at most 3 mails per account per window. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const RESET_MAILS_PER_WINDOW = 3;
export const RESET_MAIL_WINDOW_MS = 15 * 60 * 1000;

/**
 * Forgot password, which needs no account: at most so many requests per e-mail address and per
 * network (the IPv4 address or the IPv6 /64, auth/network-key.ts) per window. Beyond them the
 * answer is the same and nothing is queued, so the limit tells nothing about the address.
 */
export const FORGOT_WINDOW_MS = 60 * 60 * 1000;
export const FORGOT_PER_ADDRESS = 5;
export const FORGOT_PER_NETWORK = 20;

export const EMAIL_CODE_TTL_MS = 10 * 60 * 1000;
export const EMAIL_CODE_MAX_ATTEMPTS = 5;
export const EMAIL_CODE_RESEND_MS = 30 * 1000;
export const EMAIL_CODE_PER_HOUR = 5;

// --- Videos, search and assets (product-spec sections 3, 5, 7 and 9) ---
export const VIDEO_PAGE_SIZE_MAX = 100;
/** Signed asset URLs live at least this long, and their expiry is rounded up to the bucket. */
export const ASSET_URL_TTL_S = 6 * 60 * 60;
export const ASSET_URL_BUCKET_S = 60 * 60;

// --- Uploads (product-spec sections 3, 5, 7 and 9; issue 3) ---
/** Longest video length accepted in seconds (48 h): anything longer is a broken probe. */
export const VIDEO_LENGTH_MAX_S = 48 * 60 * 60;
export const VIDEO_FILENAME_MAX_LENGTH = 255;
/** Scenes kept per video, strongest boundaries first: frames, clips and analysis are per scene. */
export const VIDEO_SCENES_MAX = 5000;
/** The signed form always carries this content type (product-spec section 7). */
export const VIDEO_UPLOAD_CONTENT_TYPE = 'video/mp4';
/** A signed upload form (single POST) stays valid this long: slow links need hours for 5 GB. */
export const UPLOAD_FORM_TTL_S = 12 * 60 * 60;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;
/** Multipart (resumable) uploads: part size, signed part URL life, batch size, expiry. */
export const MULTIPART_PART_SIZE = 16 * 1024 * 1024;
export const MULTIPART_MAX_PARTS = Math.ceil(VIDEO_MAX_BYTES / MULTIPART_PART_SIZE);
export const MULTIPART_PART_URL_TTL_S = 60 * 60;
export const MULTIPART_SIGN_BATCH_MAX = 100;
export const MULTIPART_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
export const UPLOAD_CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Files one check-files call (and one import batch) may hold: the app's batch limit, so a batch
 * the app accepts is always one call (issue 42).
 */
export const CHECK_FILES_MAX = BATCH_MAX_FILES;
export const CHECK_FILES_KEY_MAX_LENGTH = 1024;
/** Files the operator's import sends at once unless --concurrency says otherwise. */
export const IMPORT_CONCURRENCY = 4;

export const PEOPLE_MAX = 20;
export const PERSON_NAME_MAX_LENGTH = 100;
/**
 * All of one request's people images together, after SVGs are rebuilt by the sanitiser: 20
 * phone photos of 5 MB fit, and the disk a request can fill is bounded (issue 28).
 */
export const PEOPLE_IMAGES_MAX_BYTES = 100 * 1024 * 1024;
/**
 * A people image is decoded at most this many pixels on its longer side, an SVG rasterised at
 * it whatever it declares: enough for a face, and a blur over it costs seconds, not gigabytes.
 */
export const PICTURE_MAX_SIDE = 1024;

// --- What a video may be (issue 28): refused at the probe as "not a video file" beyond these ---
/** Widest and tallest picture: 8K (7680 x 4320) fits, a 16,000 px frame does not. */
export const VIDEO_MAX_SIDE = 8192;
/** Highest frame rate: 240 fps slow motion from phones fits. */
export const VIDEO_MAX_FPS = 240;
/** Pixels a second (width x height x fps): 8K at 30 fps, 4K at 120 and 1080p at 240 fit. */
export const VIDEO_MAX_PIXEL_RATE = 1_000_000_000;

// --- Captions read from a subtitle track (issue 28) ---
/** Characters kept of one cue's text; the rest is cut. */
export const CAPTION_CUE_MAX_CHARS = 1_000;
/** Characters of cue text kept for the whole track (about 20 hours of dense subtitles). */
export const CAPTION_TRACK_MAX_CHARS = 2_000_000;
/** WebVTT bytes read from ffmpeg for one track; a longer track is cut there. */
export const CAPTION_TRACK_READ_MAX_BYTES = 8 * 1024 * 1024;
/**
 * Output languages offered for the analysis, English first (the client preselects the first).
 * Only languages every provider writes for real: the local analyser has English and Japanese.
 */
export const SUPPORTED_VIDEO_LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'ja', name: '日本語 (Japanese)' },
] as const;

// --- Trailer and report (product-spec sections 2, 5 and 9; issue 6) ---
/** The trailer is at most this long, and never longer than its source. */
export const TRAILER_MAX_MS = 60_000;
/** When few scenes match the instruction, the next best ranked ones fill up to this length. */
export const TRAILER_MIN_MS = 10_000;
/** Length aimed at when no scene matches (then the liveliest, longest scenes are used). */
export const TRAILER_FALLBACK_MS = 30_000;
/** Longest piece taken from one scene (the middle of a longer scene). */
export const TRAILER_SEGMENT_MAX_MS = 8_000;
/** Shortest piece worth showing; shorter leftovers of the length budget are dropped. */
export const TRAILER_SEGMENT_MIN_MS = 1_000;
export const TRAILER_CROSSFADE_MS = 500;
/** The trailer's tallest picture (lines); smaller sources keep their size. */
export const TRAILER_MAX_HEIGHT = 720;
/** Scenes quoted in the report's answer section. */
export const REPORT_MATCHES_MAX = 10;
/** Caption cues listed in the report (long videos stay a readable page). */
export const REPORT_CAPTIONS_MAX = 2_000;
/** Width of the scene thumbnails embedded in the report. */
export const REPORT_THUMB_WIDTH = 240;

/** Longest side of a face crop shown on the People pages (px; issue 30). */
export const FACE_CROP_PX = 112;

// --- Background work (privacy policy in product-spec section 1; issue 14) ---
/** Videos and their results are deleted this many years after upload, checked once a day. */
export const VIDEO_RETENTION_YEARS = 3;
export const RETENTION_CHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** The throttle table is pruned of events no window looks at any more, hourly. */
export const THROTTLE_PRUNE_INTERVAL_MS = 60 * 60 * 1000;
/** Finished, failed and cancelled jobs (a reset-link job's e-mail address with them) go after this. */
export const JOB_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
export const JOB_PRUNE_INTERVAL_MS = 60 * 60 * 1000;
/** The embedded database has no autovacuum: its search tables are vacuumed and analysed hourly. */
export const SEARCH_VACUUM_INTERVAL_MS = 60 * 60 * 1000;
/**
 * Videos stored before migration 018 get the server's SHA-256 in the background: every hour (and
 * once after the first start) a run hashes all that are left, this many files at a time.
 */
export const CONTENT_HASH_BACKFILL_INTERVAL_MS = 60 * 60 * 1000;
export const CONTENT_HASH_BACKFILL_BATCH = 4;
/** A mail is retried with backoff (2 s, 6 s, 18 s ... capped at 10 min) this many times. */
export const MAIL_MAX_ATTEMPTS = 12;
/** A mail that carries no expiring code (a notice) is still worth sending this long. */
export const MAIL_NOTICE_TTL_MS = 24 * 60 * 60 * 1000;
