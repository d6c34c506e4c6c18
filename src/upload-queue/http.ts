// The queue's one door to the network. XMLHttpRequest where it exists (pages: it reports upload
// progress), fetch elsewhere (service workers: progress per part only). Tests pass their own.

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: Blob | FormData | string | null;
  onUploadProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  header(name: string): string | null;
  text(): Promise<string>;
}

export interface Http {
  (request: HttpRequest): Promise<HttpResponse>;
  /**
   * True when this transport reports upload progress as the body leaves for `request` (the stall
   * watchdog then waits for progress, not for the whole body). Missing means never.
   */
  reportsUploadProgress?: (request: HttpRequest) => boolean;
}

/** The request never got an answer (offline, DNS, reset, CORS). */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

export const fetchHttp: Http = async (request) => {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      signal: request.signal ?? null,
    });
  } catch (error) {
    if (request.signal?.aborted) throw error;
    throw new NetworkError(error instanceof Error ? error.message : 'network error');
  }
  if (request.onUploadProgress && request.body instanceof Blob) {
    request.onUploadProgress(request.body.size, request.body.size);
  }
  return {
    status: response.status,
    header: (name) => response.headers.get(name),
    text: () => response.text(),
  };
};

export const xhrHttp: Http = (request) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, request.url);
    for (const [name, value] of Object.entries(request.headers ?? {}))
      xhr.setRequestHeader(name, value);
    if (request.onUploadProgress) {
      const report = request.onUploadProgress;
      xhr.upload.onprogress = (event) => report(event.loaded, event.total);
    }
    xhr.onload = () =>
      resolve({
        status: xhr.status,
        header: (name) => xhr.getResponseHeader(name),
        text: () => Promise.resolve(xhr.responseText),
      });
    xhr.onerror = () => reject(new NetworkError('network error'));
    xhr.ontimeout = () => reject(new NetworkError('timeout'));
    xhr.onabort = () => reject(request.signal?.reason ?? new DOMException('Aborted', 'AbortError'));
    request.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(request.body ?? null);
  });

/** XMLHttpRequest is missing in service workers; use it only for bodies worth a progress bar. */
const usesXhr = (request: HttpRequest): boolean =>
  typeof XMLHttpRequest === 'function' && request.onUploadProgress !== undefined;

export const defaultHttp: Http = Object.assign(
  (request: HttpRequest) => (usesXhr(request) ? xhrHttp(request) : fetchHttp(request)),
  { reportsUploadProgress: usesXhr },
);
