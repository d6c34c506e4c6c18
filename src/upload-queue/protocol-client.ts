// The upload protocol of the API (create, people images, signed form, multipart, status) as plain
// calls. Every call throws UploadError on failure; the runner decides what that means for the job.
import { API_HOST } from '../config/site.ts';
import { failureFrom, UploadError } from './api-errors.ts';
import { NetworkError, type Http, type HttpRequest, type HttpResponse } from './http.ts';
import type { CreateVideoPayload, SignedForm } from './job-types.ts';

export interface ProtocolDeps {
  http: Http;
  token: string;
  now: () => number;
  /** Prefix for API paths; empty for same origin. */
  apiBase?: string;
  signal?: AbortSignal;
}

export interface CreatedVideo {
  id: string;
  form: SignedForm;
}

export interface MultipartStart {
  uploadId: string;
  partSize: number;
  key: string;
}

async function send(
  deps: ProtocolDeps,
  request: HttpRequest,
  signed: boolean,
): Promise<HttpResponse> {
  let response: HttpResponse;
  try {
    response = await deps.http({ ...request, signal: deps.signal });
  } catch (error) {
    if (error instanceof NetworkError) throw new UploadError('offline', error.message);
    throw error;
  }
  if (response.status >= 200 && response.status < 300) return response;
  throw await failureFrom(response, signed, deps.now());
}

async function api<T>(
  deps: ProtocolDeps,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    Authorization: `Bearer ${deps.token}`,
  };
  let payload: string | FormData | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await send(
    deps,
    { method, url: `${deps.apiBase ?? API_HOST}${path}`, headers, body: payload },
    false,
  );
  const text = await response.text();
  return (text ? JSON.parse(text) : {}) as T;
}

const videoPath = (id: string): string => `/api/videos/${encodeURIComponent(id)}`;

interface CreateAnswer {
  data?: { id?: string | number; post_url?: { url?: string; fields?: Record<string, string> } };
}

/** Repeats with the same job id answer the same video with a fresh form (Idempotency-Key). */
export async function createVideo(
  deps: ProtocolDeps,
  jobId: string,
  payload: CreateVideoPayload,
): Promise<CreatedVideo> {
  const response = await send(
    deps,
    {
      method: 'POST',
      url: `${deps.apiBase ?? API_HOST}/api/videos`,
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        Authorization: `Bearer ${deps.token}`,
        'Idempotency-Key': jobId,
      },
      body: JSON.stringify(payload),
    },
    false,
  );
  const answer = JSON.parse(await response.text()) as CreateAnswer;
  const id = answer.data?.id;
  const postUrl = answer.data?.post_url;
  if (id === undefined || !postUrl?.url)
    throw new UploadError('fatal', 'The server did not return an upload form.');
  return { id: String(id), form: { url: postUrl.url, fields: postUrl.fields ?? {} } };
}

export async function uploadPeopleImages(
  deps: ProtocolDeps,
  videoId: string,
  names: string[],
  images: { blob: Blob; filename: string }[],
): Promise<void> {
  const form = new FormData();
  names.forEach((name, i) => {
    form.append('names[]', name);
    const image = images[i];
    if (image) form.append('images[]', image.blob, image.filename);
  });
  await api(deps, 'POST', `${videoPath(videoId)}/upload-people-images`, form);
}

/** The single signed form: its fields in order, the file last. */
export async function postSignedForm(
  deps: ProtocolDeps,
  form: SignedForm,
  file: Blob,
  filename: string,
  onProgress: (loaded: number) => void,
): Promise<void> {
  const body = new FormData();
  for (const [name, value] of Object.entries(form.fields)) body.append(name, value);
  // A slice, not the File itself: a picked File goes into a form body as its path on disk, which
  // Chromium lets only the process that picked it read. A file handed over by another tab failed
  // in the service worker at once ("Failed to fetch") on every try; a Blob is read through the
  // blob registry from any process, as the parts (slices too) always were.
  body.append('file', file.slice(0, file.size, file.type), filename);
  await send(
    deps,
    { method: 'POST', url: form.url, body, onUploadProgress: (loaded) => onProgress(loaded) },
    true,
  );
}

export async function startMultipart(deps: ProtocolDeps, videoId: string): Promise<MultipartStart> {
  const answer = await api<{ upload_id: string; part_size: number; key: string }>(
    deps,
    'POST',
    `${videoPath(videoId)}/multipart`,
    {},
  );
  return { uploadId: answer.upload_id, partSize: answer.part_size, key: answer.key };
}

export async function signParts(
  deps: ProtocolDeps,
  videoId: string,
  uploadId: string,
  partNumbers: number[],
): Promise<Map<number, string>> {
  const answer = await api<{ parts: { part_number: number; url: string }[] }>(
    deps,
    'POST',
    `${videoPath(videoId)}/multipart/sign-parts`,
    { upload_id: uploadId, part_numbers: partNumbers },
  );
  return new Map(answer.parts.map((p) => [p.part_number, p.url]));
}

export async function listParts(
  deps: ProtocolDeps,
  videoId: string,
  uploadId: string,
): Promise<{ partNumber: number; etag: string; size: number }[]> {
  const answer = await api<{ parts: { part_number: number; etag: string; size: number }[] }>(
    deps,
    'GET',
    `${videoPath(videoId)}/multipart/parts?upload_id=${encodeURIComponent(uploadId)}`,
  );
  return answer.parts.map((p) => ({ partNumber: p.part_number, etag: p.etag, size: p.size }));
}

/** PUTs one part's raw bytes to its signed URL; answers the part's ETag. */
export async function putPart(
  deps: ProtocolDeps,
  url: string,
  bytes: Blob,
  onProgress: (loaded: number) => void,
): Promise<string> {
  const response = await send(
    deps,
    { method: 'PUT', url, body: bytes, onUploadProgress: (loaded) => onProgress(loaded) },
    true,
  );
  const etag = response.header('ETag');
  if (!etag)
    throw new UploadError('fatal', 'The storage did not return an ETag (is it exposed by CORS?).');
  return etag;
}

export async function completeMultipart(
  deps: ProtocolDeps,
  videoId: string,
  uploadId: string,
  parts: { partNumber: number; etag: string }[],
): Promise<void> {
  await api(deps, 'POST', `${videoPath(videoId)}/multipart/complete`, {
    upload_id: uploadId,
    parts: parts.map((p) => ({ part_number: p.partNumber, etag: p.etag })),
  });
}

export async function abortMultipart(
  deps: ProtocolDeps,
  videoId: string,
  uploadId: string,
): Promise<void> {
  await api(
    deps,
    'DELETE',
    `${videoPath(videoId)}/multipart?upload_id=${encodeURIComponent(uploadId)}`,
  );
}

export async function sendInProgressStatus(deps: ProtocolDeps, videoId: string): Promise<void> {
  await api(deps, 'PUT', `${videoPath(videoId)}/update-status`, { status: 'in_progress' });
}

export async function deleteVideo(deps: ProtocolDeps, videoId: string): Promise<void> {
  await api(deps, 'DELETE', videoPath(videoId));
}
