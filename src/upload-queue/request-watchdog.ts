// Stall detection for every queue request. On a bad network a TCP connection can go half-open:
// the request never errors and never finishes, and without this the runner would hold the runner
// lock and wait for ever. A stalled request is aborted and fails as a NetworkError, which the
// runner retries with backoff like any lost connection; a caller's own abort (a user's cancel)
// still fails with the caller's reason, so a cancel never looks like a stall.
import {
  FETCH_DEADLINE_BASE_MS,
  FETCH_MIN_BYTES_PER_SECOND,
  STALL_MS,
} from '../config/upload-queue.ts';
import { NetworkError, type Http, type HttpRequest } from './http.ts';

export interface WatchdogLimits {
  /** Where the transport reports upload progress: longest wait for progress or the answer. */
  stallMs: number;
  /** Elsewhere the request gets this long plus its body at `minBytesPerSecond`. */
  deadlineBaseMs: number;
  minBytesPerSecond: number;
}

export const DEFAULT_WATCHDOG: WatchdogLimits = {
  stallMs: STALL_MS,
  deadlineBaseMs: FETCH_DEADLINE_BASE_MS,
  minBytesPerSecond: FETCH_MIN_BYTES_PER_SECOND,
};

function bodyBytes(body: HttpRequest['body']): number {
  if (body instanceof Blob) return body.size;
  if (typeof body === 'string') return body.length;
  let bytes = 0;
  // forEach, not for-of: the service worker's lib has no FormData iterator.
  body?.forEach((value) => (bytes += typeof value === 'string' ? value.length : value.size));
  return bytes;
}

/** How long a request without progress events may take in all. */
export function deadlineMs(request: HttpRequest, limits: WatchdogLimits): number {
  return limits.deadlineBaseMs + (bodyBytes(request.body) / limits.minBytesPerSecond) * 1_000;
}

/** `http` with every request aborted (as a NetworkError) when it makes no progress in time. */
export function withWatchdog(http: Http, limits: WatchdogLimits = DEFAULT_WATCHDOG): Http {
  return async (request) => {
    const outer = request.signal;
    outer?.throwIfAborted();
    const controller = new AbortController();
    const forward = (): void => controller.abort(outer?.reason);
    outer?.addEventListener('abort', forward, { once: true });
    const streams = http.reportsUploadProgress?.(request) ?? false;
    let stalled: NetworkError | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (ms: number): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        stalled = new NetworkError(`No progress for ${Math.ceil(ms / 1_000)} s`);
        controller.abort(stalled);
      }, ms);
    };
    // The caller's abort wins: its reason, not a stall, is what the caller sees.
    const failure = (error: unknown): unknown => (stalled && !outer?.aborted ? stalled : error);
    const report = request.onUploadProgress;
    arm(streams ? limits.stallMs : deadlineMs(request, limits));
    try {
      const response = await http({
        ...request,
        signal: controller.signal,
        onUploadProgress:
          report &&
          ((loaded, total) => {
            if (streams) arm(limits.stallMs);
            report(loaded, total);
          }),
      });
      clearTimeout(timer);
      return {
        status: response.status,
        header: (name) => response.header(name),
        // The answer's body may stall too (it is small: a stall time is plenty).
        text: async () => {
          arm(limits.stallMs);
          try {
            return await response.text();
          } catch (error) {
            throw failure(error);
          } finally {
            clearTimeout(timer);
          }
        },
      };
    } catch (error) {
      clearTimeout(timer);
      throw failure(error);
    } finally {
      outer?.removeEventListener('abort', forward);
    }
  };
}
