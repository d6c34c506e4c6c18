// What a failed call means for a job: retry later, re-sign, wait for a token, or give up with the
// server's own words. The rules follow issue 3 (network, 5xx, 429 and expired signatures retry).
import { parseRetryAfterMs } from './backoff.ts';
import type { HttpResponse } from './http.ts';

export type FailureKind =
  'retry' | 'offline' | 'auth' | 'expired-signature' | 'needs-file' | 'fatal';

export class UploadError extends Error {
  override name = 'UploadError';
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

interface DetailEntry {
  loc?: unknown;
  msg?: unknown;
}

/** The server's {detail} as one line: a string as is, a list as its messages joined. */
export function detailMessage(bodyText: string, status: number): string {
  try {
    const body = JSON.parse(bodyText) as { detail?: unknown };
    if (typeof body.detail === 'string' && body.detail) return body.detail;
    if (Array.isArray(body.detail)) {
      const messages = (body.detail as DetailEntry[])
        .map((entry) => (typeof entry.msg === 'string' ? entry.msg : ''))
        .filter(Boolean);
      if (messages.length) return messages.join('; ');
    }
  } catch {
    // Storage services answer XML (S3: <Error><Code/><Message/></Error>) or nothing.
  }
  const xml = /<Message>([^<]+)<\/Message>/.exec(bodyText)?.[1]?.trim();
  if (xml) return xml;
  return `Request failed with status ${status}`;
}

/**
 * signed: the URL carries its own signature (form or part URL), so 403 there means the signature
 * expired or was refused and a fresh one may work; on our API 401/403 mean the session is gone.
 */
export async function failureFrom(
  response: HttpResponse,
  signed: boolean,
  now: number,
): Promise<UploadError> {
  const { status } = response;
  const message = detailMessage(await response.text().catch(() => ''), status);
  if (signed && (status === 403 || (status === 400 && /expired/i.test(message)))) {
    return new UploadError('expired-signature', message, status);
  }
  if (status === 401 || status === 403) return new UploadError('auth', message, status);
  if (status === 429 || status === 408 || status >= 500) {
    return new UploadError(
      'retry',
      message,
      status,
      parseRetryAfterMs(response.header('Retry-After'), now),
    );
  }
  return new UploadError('fatal', message, status);
}

/**
 * The server no longer has the multipart upload: our API answers 410 once it expired (a day after
 * it started) or was aborted and 404 for an unknown one, S3 answers a part with 404 NoSuchUpload,
 * and the server relays S3's NoSuchUpload on complete. A 404 for the video itself looks the same
 * here; starting a new upload then answers it plainly.
 */
export function isUploadGone(error: unknown): error is UploadError {
  return (
    error instanceof UploadError &&
    (error.status === 404 || error.status === 410 || /NoSuchUpload/.test(error.message))
  );
}

/** `complete` refused a part list whose ETags the server no longer holds (409). */
export function partsChanged(error: unknown): error is UploadError {
  return error instanceof UploadError && error.status === 409;
}
