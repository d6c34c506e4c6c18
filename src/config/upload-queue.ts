// Tuning of the durable upload queue and the service worker's image cache, in one place.
import { MEGABYTE } from './limits.ts';

/** Files up to this size go through the single signed form; larger ones use resumable multipart. */
export const SINGLE_FORM_MAX_BYTES = 64 * MEGABYTE;
/** Part numbers signed per sign-parts call (URLs expire, so not all at once). */
export const SIGN_PARTS_BATCH = 8;
/** Parts sent at the same time in a multipart transfer (an interruption re-sends at most these). */
export const PARTS_IN_FLIGHT = 2;

/** Full-jitter exponential backoff bounds (issue 3: 1 s to 5 min). */
export const RETRY_BASE_MS = 1_000;
export const RETRY_MAX_MS = 5 * 60 * 1_000;
/** A Retry-After larger than this is treated as this (a misconfigured server must not park a job for days). */
export const RETRY_AFTER_MAX_MS = 60 * 60 * 1_000;

/**
 * Stall watchdog (every queue request). Where the transport reports upload progress (a page's
 * XMLHttpRequest), a request with no progress event and no answer for this long is stalled: it is
 * aborted and retried like a network error. A half-open connection never errors on its own.
 */
export const STALL_MS = 30_000;
/**
 * Where it does not (fetch, in the service worker), the whole request gets this long plus its
 * body at the slowest rate still worth waiting for: a 16 MiB part 30 s + 512 s.
 */
export const FETCH_DEADLINE_BASE_MS = 30_000;
export const FETCH_MIN_BYTES_PER_SECOND = 32 * 1024;

/** Progress messages per job at most every this often ("a few updates a second"). */
export const PROGRESS_INTERVAL_MS = 250;

/** Bytes hashed at each end of the file to recognise the same file when picked again. */
export const FINGERPRINT_EDGE_BYTES = MEGABYTE;
/** Room kept free when deciding whether the video itself can be stored in IndexedDB. */
export const STORAGE_HEADROOM_BYTES = 200 * MEGABYTE;

/** A service worker event may not run for long: it stops starting new work after this. */
export const SW_RUN_BUDGET_MS = 4 * 60 * 1_000;
/**
 * While an upload is runnable, an open page wakes whoever runs the queue this often, so a runner
 * stopped mid-step (a reload, a closed tab, a stopped worker) is replaced within seconds.
 */
export const QUEUE_HEARTBEAT_MS = 5_000;
/** IndexedDB lease used where Web Locks are missing. */
export const RUNNER_LEASE_MS = 30_000;

export const UPLOAD_QUEUE_CHANNEL = 'upload-queue';
export const UPLOAD_QUEUE_SYNC_TAG = 'upload-queue';
export const UPLOAD_QUEUE_LOCK = 'upload-queue-runner';

/** Thumbnail and frame images: cache-first within these bounds (issue 8). */
export const IMAGE_CACHE_NAME = 'images-v1';
export const IMAGE_CACHE_MAX_ENTRIES = 600;
export const IMAGE_CACHE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/**
 * Jobs the runner advances at the same time (issue 42: a batch of small files is mostly round
 * trips, not bytes). A large file's parts add PARTS_IN_FLIGHT each.
 */
export const JOBS_AT_ONCE = 3;
/** Durations probed at the same time when many files are chosen. */
export const PROBES_AT_ONCE = 4;
