// `npm run admin -- import`: brings a folder or an S3 prefix into a team's archive through the
// running server's API, as the user named (docs/decisions/operator-import.md). Steps:
//   1. list the accepted files (mp4, m4v, mov; the rest is listed as left out, with the reason);
//   2. ask check-files by size; hash only the files whose size the team (or another file of the
//      batch) has, and ask again with the digests: what the team has is skipped;
//   3. import the rest, N at once: read the duration (the app's MP4 reader,
//      ffprobe for what it cannot read), create the video (with its size
//      and digest), send the file through the signed form, and say it is up.
// An Idempotency-Key made of the user, the file and its size and date makes a run stopped halfway
// and run again reuse its videos, so nothing lands twice.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { mapLimit } from '../lib/map-limit.ts';
import type { MediaTools } from '../media/tools.ts';
import type { Secrets } from '../secrets.ts';
import { CHECK_FILES_MAX } from '../limits.ts';
import { FatalImportError, ImportClient, ImportHttpError } from './client.ts';
import { importDuration } from './duration.ts';
import { Progress } from './progress.ts';
import type { LeftOut, Source, SourceFile } from './sources.ts';

export interface ImportOptions {
  team: string;
  email: string;
  about: string;
  language: string;
  concurrency: number;
  dryRun: boolean;
  exclude: RegExp[];
  serverUrl: string;
  secrets: Pick<Secrets, 'uploadKey'>;
  tools: MediaTools;
  out: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface ImportSummary {
  imported: string[];
  /** Files the team already has: key and the archive's name for it. */
  present: { key: string; as: string }[];
  /** Files of this batch with the same bytes as an earlier file of it. */
  sameAs: { key: string; as: string }[];
  leftOut: LeftOut[];
  unreadable: LeftOut[];
  failed: LeftOut[];
  /** --dry-run: what would be imported. */
  wouldImport: string[];
}

interface ArchivedVideo {
  id: string;
  title: string | null;
  filename: string;
}
interface CheckItem {
  key: string;
  state: 'new' | 'needs-hash' | 'in-archive';
  video?: ArchivedVideo;
}

export class BatchTooLargeError extends Error {}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The local date-time the API takes (YYYY-MM-DDTHH:mm:ss.SSS), as the app sends it. */
export function localDateTime(d: Date): string {
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
  );
}

const archiveName = (v: ArchivedVideo): string => v.title || v.filename;

/** Check-files in calls of at most 10,000 (the batch is never larger, but keep the rule here). */
async function checkFiles(
  client: ImportClient,
  files: { key: string; size: number; sha256?: string }[],
): Promise<CheckItem[]> {
  const items: CheckItem[] = [];
  for (let i = 0; i < files.length; i += CHECK_FILES_MAX) {
    const res = await client.json<{ items: CheckItem[] }>('POST', '/api/videos/check-files', {
      files: files.slice(i, i + CHECK_FILES_MAX),
    });
    items.push(...res.body.items);
  }
  return items;
}

export async function runImport(source: Source, o: ImportOptions): Promise<ImportSummary> {
  const summary: ImportSummary = {
    imported: [],
    present: [],
    sameAs: [],
    leftOut: [],
    unreadable: [],
    failed: [],
    wouldImport: [],
  };
  const say = (line: string) => o.out.write(`${line}\n`);
  const client = new ImportClient(o.serverUrl, o.secrets, { email: o.email, team: o.team });

  // 1. The files.
  const listing = await source.list(o.exclude);
  summary.leftOut.push(...listing.leftOut);
  summary.unreadable.push(...listing.unreadable);
  const files = listing.accepted;
  if (files.length > CHECK_FILES_MAX) {
    throw new BatchTooLargeError(
      `${files.length.toLocaleString('en')} files to import in ${source.label}: at most ${CHECK_FILES_MAX.toLocaleString('en')} go in one import. Import its folders one at a time, or leave some out with --exclude.`,
    );
  }
  say(
    `${source.label}: ${files.length} video file(s), ${listing.leftOut.length} left out, ${listing.unreadable.length} unreadable.`,
  );
  if (files.length === 0) return summary;

  // 2. What the team has: by size, then by digest where a size matches.
  const bySize = await checkFiles(
    client,
    files.map((f) => ({ key: f.key, size: f.size })),
  );
  const sizeCount = new Map<number, number>();
  for (const f of files) sizeCount.set(f.size, (sizeCount.get(f.size) ?? 0) + 1);
  const toHash = files.filter(
    (f, i) => bySize[i]!.state === 'needs-hash' || sizeCount.get(f.size)! > 1,
  );
  const digests = new Map<string, string>();
  if (toHash.length > 0) {
    const hashing = new Progress(o.out, 'hashing', toHash.length, sum(toHash));
    await mapLimit(toHash, o.concurrency, async (f) => {
      try {
        digests.set(f.key, (await source.digest(f)).sha256);
      } catch (err) {
        summary.unreadable.push({ key: f.key, reason: (err as Error).message });
      }
      hashing.add(1, f.size);
    });
    hashing.done();
  }
  const hashed = files.filter((f) => digests.has(f.key));
  const byDigest = new Map(
    (
      await checkFiles(
        client,
        hashed.map((f) => ({ key: f.key, size: f.size, sha256: digests.get(f.key)! })),
      )
    ).map((item) => [item.key, item]),
  );
  const hashedSet = new Set(toHash);
  const todo: SourceFile[] = [];
  const firstOfDigest = new Map<string, string>();
  for (const f of files) {
    const sha = digests.get(f.key);
    if (!sha && hashedSet.has(f)) continue; // unreadable, listed
    const found = sha ? byDigest.get(f.key) : undefined;
    if (found?.state === 'in-archive' && found.video) {
      summary.present.push({ key: f.key, as: archiveName(found.video) });
      continue;
    }
    if (sha && firstOfDigest.has(sha)) {
      summary.sameAs.push({ key: f.key, as: firstOfDigest.get(sha)! });
      continue;
    }
    if (sha) firstOfDigest.set(sha, f.key);
    todo.push(f);
  }

  if (o.dryRun) {
    summary.wouldImport.push(...todo.map((f) => f.key));
    return summary;
  }

  // 3. The new ones.
  const progress = new Progress(o.out, 'importing', todo.length, sum(todo));
  await mapLimit(todo, o.concurrency, async (f) => {
    try {
      const result = await importOne(client, source, f, digests.get(f.key), o);
      if (result.kind === 'imported') summary.imported.push(f.key);
      else if (result.kind === 'present') summary.present.push({ key: f.key, as: result.as });
      else summary.unreadable.push({ key: f.key, reason: result.reason });
    } catch (err) {
      if (err instanceof FatalImportError) throw err;
      summary.failed.push({ key: f.key, reason: (err as Error).message });
    }
    progress.add(1, f.size);
  });
  progress.done();
  if (client.throttled > 0) {
    say(`The server asked the import to slow down ${client.throttled} time(s); it waited.`);
  }
  return summary;
}

const sum = (files: SourceFile[]): number => files.reduce((n, f) => n + f.size, 0);

type OneResult =
  { kind: 'imported' } | { kind: 'present'; as: string } | { kind: 'unreadable'; reason: string };

async function importOne(
  client: ImportClient,
  source: Source,
  f: SourceFile,
  sha256: string | undefined,
  o: ImportOptions,
): Promise<OneResult> {
  let local;
  try {
    local = await source.local(f);
  } catch (err) {
    return { kind: 'unreadable', reason: (err as Error).message };
  }
  try {
    let durationMs: number;
    try {
      durationMs = (await importDuration(o.tools, local.path)).durationMs;
    } catch (err) {
      return {
        kind: 'unreadable',
        reason: `not a video (${(err as Error).message.split(' | ')[0]?.slice(0, 200)})`,
      };
    }
    if (!(durationMs > 0)) return { kind: 'unreadable', reason: 'not a video (no duration)' };
    // Sent with the create, so a run that follows (or a concurrent one) finds it by its digest
    // even before the server has read the bytes (S3); a local file is in the page cache after.
    const digest = sha256 ?? local.digest?.sha256 ?? (await source.digest(f)).sha256;
    const filename = path.posix.basename(f.key);
    // The same file of the same user: a stopped run's video is found again, not made twice.
    const idempotencyKey = `import-${crypto
      .createHash('sha256')
      .update([o.team, o.email, f.key, f.size, f.date.getTime()].join('\n'))
      .digest('hex')
      .slice(0, 40)}`;
    let created: { status: number; body: { data: { id: string; post_url: PostUrl } } };
    try {
      created = await client.json(
        'POST',
        '/api/videos',
        {
          filename,
          video_length: durationMs / 1000,
          video_date: localDateTime(f.date),
          output_language: o.language,
          about_this_video: o.about,
          file_size: f.size,
          content_sha256: digest,
        },
        { 'idempotency-key': idempotencyKey },
      );
    } catch (err) {
      if (err instanceof ImportHttpError && err.status === 409) {
        const video = (err.body as { video?: ArchivedVideo }).video;
        return { kind: 'present', as: video ? archiveName(video) : filename };
      }
      throw err;
    }
    const { id, post_url } = created.body.data;
    if (created.status === 200) {
      // A stopped run's video: send the file only if it never arrived.
      const video = await client.json<{ status: string }>('GET', `/api/videos/${id}`);
      if (video.body.status !== 'uploading') return { kind: 'present', as: filename };
    }
    await sendForm(client, post_url, local.path, filename);
    await client.json('PUT', `/api/videos/${id}/update-status`, { status: 'in_progress' });
    return { kind: 'imported' };
  } finally {
    await local.release();
  }
}

interface PostUrl {
  url: string;
  fields: Record<string, string>;
}

/** The signed form, as a browser posts it; the file streams from disk (never held in memory). */
async function sendForm(
  client: ImportClient,
  post: PostUrl,
  file: string,
  filename: string,
): Promise<void> {
  const blob = await fs.openAsBlob(file, { type: post.fields['Content-Type'] ?? 'video/mp4' });
  const res = await client.request(
    post.url,
    () => {
      const form = new FormData();
      for (const [k, v] of Object.entries(post.fields)) form.append(k, v);
      form.append('file', blob, filename);
      return { method: 'POST', body: form };
    },
    { auth: false },
  );
  const text = await res.text();
  if (res.status >= 300) {
    const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? text.slice(0, 200);
    throw new Error(`the upload was refused (${res.status}): ${message}`);
  }
}
