// A small client for OpenAI-compatible endpoints: JSON and multipart POSTs with a timeout per
// attempt and retries with exponential backoff on 429, 5xx and network failures. Anything else
// (400, 401, 404) fails at once: repeating it cannot help.

export class AiProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AiProviderError';
  }
}

export interface HttpOptions {
  baseUrl: string;
  apiKey: string | undefined;
  /** Attempts after the first one. */
  retries: number;
  /** First backoff; doubled each retry (plus jitter), capped at maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function describeNetworkError(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timed out';
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? err.message;
  }
  return String(err);
}

export class OpenAiHttp {
  constructor(private readonly opts: HttpOptions) {}

  private url(path: string): string {
    return `${this.opts.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  async postJson<T>(path: string, body: unknown, timeoutMs: number): Promise<T> {
    return this.send<T>(path, timeoutMs, () => ({
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    }));
  }

  /** makeForm is called per attempt: a FormData body cannot be sent twice. */
  async postForm<T>(path: string, makeForm: () => FormData, timeoutMs: number): Promise<T> {
    return this.send<T>(path, timeoutMs, () => ({ body: makeForm(), headers: {} }));
  }

  private async send<T>(
    path: string,
    timeoutMs: number,
    make: () => { body: string | FormData; headers: Record<string, string> },
  ): Promise<T> {
    const url = this.url(path);
    let lastProblem = '';
    for (let attempt = 0; attempt <= this.opts.retries; attempt++) {
      if (attempt > 0) {
        const base = Math.min(this.opts.maxBackoffMs, this.opts.backoffMs * 2 ** (attempt - 1));
        await sleep(base / 2 + Math.random() * (base / 2));
      }
      const { body, headers } = make();
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          body,
          headers: {
            ...headers,
            accept: 'application/json',
            ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
          },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        lastProblem = describeNetworkError(err);
        continue;
      }
      const text = await res.text().catch(() => '');
      if (res.ok) {
        try {
          return JSON.parse(text) as T;
        } catch {
          throw new AiProviderError(`AI endpoint ${url} answered with invalid JSON`);
        }
      }
      lastProblem = `HTTP ${res.status}${text ? `: ${text.slice(0, 300)}` : ''}`;
      if (!retryable(res.status)) {
        throw new AiProviderError(
          `AI endpoint ${url} refused the request (${lastProblem})`,
          res.status,
        );
      }
    }
    throw new AiProviderError(
      `AI endpoint ${url} is unavailable after ${this.opts.retries + 1} attempts (${lastProblem})`,
    );
  }
}
