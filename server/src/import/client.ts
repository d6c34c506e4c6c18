// The import's HTTP client of the running server: an operator token signed afresh before it ages,
// and patience under the server's limits: 429 and 503 wait for Retry-After and try again (a batch
// is throttled, never refused), a dropped connection is tried again a few times.
import { mintOperatorToken, OPERATOR_TOKEN_TTL_S } from '../auth/operator-token.ts';
import type { Secrets } from '../secrets.ts';

/** Nothing more can be done in this run (no server, a token it refuses): the import stops. */
export class FatalImportError extends Error {}

export class ImportHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
  }
}

/** The detail of an API error answer, as words. */
export function detailText(body: unknown): string {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return detail.map((d: { msg?: string }) => d.msg ?? '').join('; ');
  return typeof body === 'string' ? body.slice(0, 200) : JSON.stringify(body);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Seconds of a Retry-After header (number or HTTP date), within 1..60. */
function retryAfterMs(header: string | null): number {
  const s = Number(header);
  const ms = Number.isFinite(s) ? s * 1000 : header ? Date.parse(header) - Date.now() : NaN;
  return Math.min(60_000, Math.max(1000, Number.isFinite(ms) ? ms : 1000));
}

const NETWORK_TRIES = 5;

export class ImportClient {
  private token = '';
  private tokenAt = 0;
  /** Waits under 429/503, for the summary. */
  throttled = 0;

  constructor(
    readonly baseUrl: string,
    private readonly secrets: Pick<Secrets, 'uploadKey'>,
    private readonly who: { email: string; team: string },
  ) {}

  private bearer(): string {
    const now = Date.now();
    // A third of the token's life: a slow request never carries an expired one.
    if (!this.token || now - this.tokenAt > (OPERATOR_TOKEN_TTL_S * 1000) / 3) {
      this.token = mintOperatorToken(this.secrets, { ...this.who, nowMs: now });
      this.tokenAt = now;
    }
    return this.token;
  }

  /**
   * A request, again after Retry-After on 429/503 and after a dropped connection; `send` makes
   * the body afresh each time (a stream cannot be sent twice).
   */
  async request(
    url: string,
    init: () => RequestInit,
    o: { auth?: boolean } = {},
  ): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        const req = init();
        const headers = new Headers(req.headers);
        if (o.auth !== false) headers.set('authorization', `Bearer ${this.bearer()}`);
        res = await fetch(url, { ...req, headers });
      } catch (err) {
        const code = (err as { cause?: { code?: string } }).cause?.code;
        if (attempt === 1 && code === 'ECONNREFUSED' && url.startsWith(this.baseUrl)) {
          throw new FatalImportError(
            `Cannot reach the server at ${this.baseUrl}. The import talks to the running server: start it (npm start) with the same settings, or set HOST and PORT to where it listens.`,
          );
        }
        if (attempt >= NETWORK_TRIES) throw err;
        await sleep(500 * 2 ** attempt);
        continue;
      }
      if (res.status === 429 || res.status === 503) {
        await res.arrayBuffer().catch(() => undefined);
        this.throttled++;
        await sleep(retryAfterMs(res.headers.get('retry-after')));
        continue;
      }
      return res;
    }
  }

  /** A JSON call of the API; non-2xx answers become ImportHttpError with the server's words. */
  async json<T>(
    method: string,
    urlPath: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T }> {
    const res = await this.request(this.baseUrl + urlPath, () => ({
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }));
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: keep the text.
    }
    if (res.status === 401) {
      throw new FatalImportError(
        `The server at ${this.baseUrl} did not accept the import's token: it must use the same DATA_DIR (or UPLOAD_SIGNING_KEY) as this command.`,
      );
    }
    if (res.status === 403) throw new FatalImportError(detailText(parsed));
    if (res.status >= 400) {
      throw new ImportHttpError(res.status, parsed, detailText(parsed));
    }
    return { status: res.status, body: parsed as T };
  }
}
