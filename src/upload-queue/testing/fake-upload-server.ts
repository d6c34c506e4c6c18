// The upload protocol of the API, in memory, at the queue's network edge (the Http function).
// It keeps what a real server keeps (videos, idempotency keys, form and multipart uploads) so
// tests can count creates and check the bytes that arrived. Faults are injected per request.
import { NetworkError, type Http, type HttpRequest, type HttpResponse } from '../http.ts';

export interface FakeVideo {
  id: string;
  payload: unknown;
  peopleNames: string[];
  bytes?: number;
  status: 'uploading' | 'in_progress';
  deleted: boolean;
}

interface FakeUpload {
  videoId: string;
  parts: Map<number, { etag: string; size: number }>;
  /** expired: the server dropped it a day after it started (a long offline spell outlives it). */
  state: 'open' | 'completed' | 'aborted' | 'expired';
}

/** expire-upload: the open multipart uploads expire just before this request is answered. */
type Fault =
  | { status: number; retryAfter?: string; detail?: string }
  | 'network'
  | 'lose-response'
  | 'expire-upload';

interface Rule {
  match: (method: string, path: string) => boolean;
  fault: Fault;
  times: number;
}

const STORAGE = 'http://storage.test';

function answer(
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): HttpResponse {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    status,
    header: (name) => lower[name.toLowerCase()] ?? null,
    text: () => Promise.resolve(body === undefined ? '' : JSON.stringify(body)),
  };
}

/** Storage errors are S3's XML, not the API's JSON. */
function s3Error(status: number, code: string, message: string): HttpResponse {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  return { status, header: () => null, text: () => Promise.resolve(xml) };
}

export function createFakeUploadServer(options: { partSize?: number; token?: string } = {}) {
  const partSize = options.partSize ?? 64 * 1024;
  let validToken = options.token ?? 'token-1';
  const videos = new Map<string, FakeVideo>();
  const byKey = new Map<string, string>();
  const uploads = new Map<string, FakeUpload>();
  const rules: Rule[] = [];
  let signatureGeneration = 1;
  let nextId = 1;
  let partGate: ((partNumber: number) => Promise<void>) | undefined;
  let partsInFlight = 0;
  const stats = {
    creates: 0,
    createCalls: 0,
    partPuts: 0,
    statusCalls: 0,
    refreshes: 0,
    /** The most part uploads that were on their way at the same time. */
    maxPartsInFlight: 0,
    requests: [] as string[],
  };

  /** Holds a part upload at the gate (if any) like a slow network; an abort ends the wait. */
  async function throughGate(partNumber: number, signal: AbortSignal | undefined): Promise<void> {
    partsInFlight += 1;
    stats.maxPartsInFlight = Math.max(stats.maxPartsInFlight, partsInFlight);
    try {
      if (!partGate) return;
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => reject(signal!.reason as Error);
        signal?.addEventListener('abort', onAbort, { once: true });
        partGate!(partNumber).then(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, reject);
      });
    } finally {
      partsInFlight -= 1;
    }
  }

  function route(
    req: HttpRequest,
    path: string,
    query: URLSearchParams,
  ): Promise<HttpResponse> | HttpResponse {
    const m = req.method;
    if (path.startsWith('/api/')) {
      if (req.headers?.Authorization !== `Bearer ${validToken}`)
        return answer(401, { detail: 'Not authenticated' });
    }
    if (m === 'GET' && path === '/api/refresh') {
      // Rotation: the old token stops working, as on the real server.
      stats.refreshes += 1;
      validToken = `${validToken}-renewed`;
      return answer(200, { access_token: validToken, token_type: 'bearer' });
    }
    if (m === 'POST' && path === '/api/videos') {
      stats.createCalls += 1;
      const key = req.headers?.['Idempotency-Key'];
      let id = key ? byKey.get(key) : undefined;
      if (!id) {
        id = String(nextId++);
        stats.creates += 1;
        videos.set(id, {
          id,
          payload: JSON.parse(String(req.body)),
          peopleNames: [],
          status: 'uploading',
          deleted: false,
        });
        if (key) byKey.set(key, id);
      }
      const fields = { key: `input/${id}/video.mp4`, policy: `gen-${signatureGeneration}` };
      return answer(201, { data: { id, post_url: { url: `${STORAGE}/form/${id}`, fields } } });
    }
    const formMatch = /^\/form\/(\w+)$/.exec(path);
    if (m === 'POST' && formMatch) return receiveForm(formMatch[1]!, req);
    const partMatch = /^\/part\/(\w+)\/(\d+)$/.exec(path);
    if (m === 'PUT' && partMatch) {
      if (query.get('sig') !== `gen-${signatureGeneration}`) return answer(403);
      const upload = uploads.get(partMatch[1]!);
      if (!upload || upload.state !== 'open')
        return s3Error(404, 'NoSuchUpload', 'The specified upload does not exist.');
      stats.partPuts += 1;
      const n = Number(partMatch[2]);
      const size = (req.body as Blob).size;
      upload.parts.set(n, { etag: `"etag-${n}-${size}"`, size });
      return answer(200, undefined, { ETag: `"etag-${n}-${size}"` });
    }
    const api = /^\/api\/videos\/(\w+)(\/.*)?$/.exec(path);
    const video = api ? videos.get(api[1]!) : undefined;
    if (!api || !video || video.deleted) return answer(404, { detail: 'Video not found' });
    const rest = api[2] ?? '';
    /** The video's multipart upload as the server's routes find it (404 unknown, 410 gone). */
    const findUpload = (id: unknown): FakeUpload | HttpResponse => {
      const upload = uploads.get(String(id));
      if (!upload || upload.videoId !== video.id)
        return answer(404, { detail: 'Upload not found' });
      if (upload.state === 'aborted' || upload.state === 'expired')
        return answer(410, { detail: 'The upload has expired or was aborted; start a new one.' });
      return upload;
    };
    const openUpload = (id: unknown): FakeUpload | HttpResponse => {
      const upload = findUpload(id);
      if ('state' in upload && upload.state !== 'open')
        return answer(409, { detail: 'The upload is already complete.' });
      return upload;
    };
    const body =
      typeof req.body === 'string' ? (JSON.parse(req.body) as Record<string, unknown>) : {};
    if (m === 'POST' && rest === '/upload-people-images') {
      video.peopleNames = (req.body as FormData).getAll('names[]').map(String);
      return answer(200, { detail: 'ok' });
    }
    if (m === 'POST' && rest === '/multipart') {
      // One transfer per video: a new start replaces older ones.
      for (const old of uploads.values())
        if (old.videoId === video.id && old.state === 'open') old.state = 'aborted';
      const uploadId = `u${video.id}x${uploads.size + 1}`;
      uploads.set(uploadId, { videoId: video.id, parts: new Map(), state: 'open' });
      return answer(201, {
        upload_id: uploadId,
        part_size: partSize,
        key: `input/${video.id}/video.mp4`,
      });
    }
    if (m === 'POST' && rest === '/multipart/sign-parts') {
      const upload = openUpload(body.upload_id);
      if (!('state' in upload)) return upload;
      const numbers = body.part_numbers as number[];
      return answer(200, {
        parts: numbers.map((n) => ({
          part_number: n,
          url: `${STORAGE}/part/${String(body.upload_id)}/${n}?sig=gen-${signatureGeneration}`,
        })),
      });
    }
    if (m === 'GET' && rest.startsWith('/multipart/parts')) {
      const upload = openUpload(query.get('upload_id'));
      if (!('state' in upload)) return upload;
      const parts = [...upload.parts].map(([n, p]) => ({
        part_number: n,
        etag: p.etag,
        size: p.size,
      }));
      return answer(200, { parts });
    }
    if (m === 'POST' && rest === '/multipart/complete') {
      const upload = findUpload(body.upload_id);
      if (!('state' in upload)) return upload;
      // A repeated complete (the first answer was lost) answers the same result.
      if (upload.state === 'completed') return answer(200, { detail: 'ok' });
      const listed = body.parts as { part_number: number; etag: string }[];
      if (listed.some((p) => upload.parts.get(p.part_number)?.etag !== p.etag)) {
        return answer(409, { detail: 'Part etags do not match' });
      }
      upload.state = 'completed';
      video.bytes = listed.reduce((n, p) => n + (upload.parts.get(p.part_number)?.size ?? 0), 0);
      return answer(200, { detail: 'ok' });
    }
    if (m === 'DELETE' && rest === '/multipart') {
      const upload = uploads.get(query.get('upload_id') ?? '');
      if (!upload) return answer(404, { detail: 'Upload not found' });
      if (upload.state === 'open') upload.state = 'aborted';
      return answer(204);
    }
    if (m === 'PUT' && rest === '/update-status') {
      stats.statusCalls += 1;
      if (video.bytes === undefined)
        return answer(409, { detail: 'The video file has not been uploaded.' });
      video.status = 'in_progress';
      return answer(200, { detail: 'ok' });
    }
    if (m === 'DELETE' && rest === '') {
      video.deleted = true;
      return answer(204);
    }
    return answer(404, { detail: 'Not Found' });
  }

  function receiveForm(id: string, req: HttpRequest): HttpResponse {
    const form = req.body as FormData;
    if (form.get('policy') !== `gen-${signatureGeneration}`) return answer(403);
    const file = form.get('file');
    const video = videos.get(id);
    if (!video || !(file instanceof Blob)) return answer(400);
    req.onUploadProgress?.(file.size, file.size);
    video.bytes = file.size;
    return answer(204);
  }

  function expireUploads(): void {
    for (const upload of uploads.values()) if (upload.state === 'open') upload.state = 'expired';
  }

  const http: Http = async (req) => {
    const url = new URL(req.url, 'http://app.test');
    const path = url.origin === STORAGE ? url.pathname : url.pathname;
    stats.requests.push(`${req.method} ${path}`);
    const rule = rules.find((r) => r.times > 0 && r.match(req.method, path));
    if (rule) rule.times -= 1;
    if (rule?.fault === 'expire-upload') expireUploads();
    if (rule?.fault === 'network') throw new NetworkError('connection reset');
    if (rule && typeof rule.fault === 'object') {
      const headers: Record<string, string> = rule.fault.retryAfter
        ? { 'Retry-After': rule.fault.retryAfter }
        : {};
      return answer(
        rule.fault.status,
        { detail: rule.fault.detail ?? 'injected failure' },
        headers,
      );
    }
    await Promise.resolve();
    const part = req.method === 'PUT' ? /^\/part\/\w+\/(\d+)$/.exec(path) : null;
    if (part) await throughGate(Number(part[1]), req.signal);
    const response = await route(req, path, url.searchParams);
    // The server did the work but the answer never came back.
    if (rule?.fault === 'lose-response')
      throw new NetworkError('connection reset after the request');
    return response;
  };

  return {
    http,
    videos,
    uploads,
    stats,
    fail(match: (method: string, path: string) => boolean, fault: Fault, times = 1): void {
      rules.push({ match, fault, times });
    },
    /** Every signed URL and form issued so far stops working. */
    expireSignatures(): void {
      signatureGeneration += 1;
    },
    /**
     * A late copy of part n lands after the client recorded its own (a request of a stopped
     * runner, delayed on the way): the server now holds the same bytes under another ETag.
     */
    rewritePart(n: number): void {
      for (const upload of uploads.values()) {
        const part = upload.parts.get(n);
        if (part && upload.state === 'open') upload.parts.set(n, { ...part, etag: `"late-${n}"` });
      }
    },
    /** Every open multipart upload expires (as a day offline outlives it). */
    expireUploads,
    setValidToken(token: string): void {
      validToken = token;
    },
    /** Part uploads wait for the promise this answers for their part number (slow parts). */
    setPartGate(gate: ((partNumber: number) => Promise<void>) | undefined): void {
      partGate = gate;
    },
    /** How often each part number was PUT (arrived at the server). */
    partPutsByNumber(): Map<number, number> {
      const counts = new Map<number, number>();
      for (const r of stats.requests) {
        const m = /^PUT \/part\/\w+\/(\d+)$/.exec(r);
        if (m) counts.set(Number(m[1]), (counts.get(Number(m[1])) ?? 0) + 1);
      }
      return counts;
    },
    liveVideos: (): FakeVideo[] => [...videos.values()].filter((v) => !v.deleted),
  };
}

export type FakeUploadServer = ReturnType<typeof createFakeUploadServer>;
