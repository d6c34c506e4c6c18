// Test data: a team's video written straight to the database and storage, with real small media
// files (made once per machine with ffmpeg) so pages can show thumbnails, frames and clips, and
// search can find it (indexed through the search module like the pipeline's last step).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AppContext } from '../../server/src/context.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';
import { indexVideo } from '../../server/src/search/index-video.ts';

const run = promisify(execFile);

export interface SeedScene {
  description: string;
  captions?: string;
  /** Defaults: scenes follow each other, 2 s each. */
  startMs?: number;
  endMs?: number;
  /** How many frame images (default 3). */
  frames?: number;
}

export interface SeedVideoOptions {
  teamId: string;
  ownerId?: string | null;
  filename?: string;
  title?: string | null;
  summary?: string | null;
  tags?: string[];
  status?: 'uploading' | 'in_progress' | 'completed' | 'failed';
  createdAt?: Date;
  /** ISO local date-time, e.g. 2024-05-01T10:00:00.000. */
  videoDate?: string | null;
  videoLength?: number;
  aboutThisVideo?: string;
  outputLanguage?: string;
  scenes?: SeedScene[];
  captions?: unknown;
  withTrailer?: boolean;
  /** Build the search index rows (default: when completed). */
  index?: boolean;
}

export interface SeededVideo {
  id: string;
  keys: {
    source: string;
    thumbnail: string | null;
    trailer: string | null;
    scenes: { thumbnail: string; clip: string; frames: string[] }[];
  };
}

function ffmpegBinary(): string {
  return resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH || undefined,
    ffprobePath: process.env.FFPROBE_PATH || undefined,
  }).ffmpeg;
}

const CACHE = path.join(os.tmpdir(), 'va-seed-media-v1');
let media: Promise<{ jpeg: Buffer; mp4: Buffer }> | undefined;

async function makeOnce(name: string, args: string[]): Promise<Buffer> {
  const file = path.join(CACHE, name);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(CACHE, { recursive: true });
    // A private temp name then rename: parallel test processes never read a half-written file.
    const tmp = `${file}.${process.pid}${path.extname(name)}`;
    await run(ffmpegBinary(), ['-hide_banner', '-loglevel', 'error', '-y', ...args, tmp]);
    fs.renameSync(tmp, file);
  }
  return fs.readFileSync(file);
}

/** A 160x120 JPEG and a 2 s 160x120 H.264 mp4 (with silent AAC audio). */
export function seedMedia(): Promise<{ jpeg: Buffer; mp4: Buffer }> {
  media ??= (async () => ({
    jpeg: await makeOnce('frame.jpg', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=1',
      '-frames:v',
      '1',
    ]),
    mp4: await makeOnce('clip.mp4', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=duration=2:size=160x120:rate=10',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=22050:cl=mono',
      '-shortest',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-movflags',
      '+faststart',
    ]),
  }))();
  return media;
}

/** The team of a user made with TestServer.createUser. */
export async function teamOf(ctx: Pick<AppContext, 'db'>, userId: string): Promise<string> {
  const rows = await ctx.db.query<{ team_id: string }>('SELECT team_id FROM users WHERE id = $1', [
    userId,
  ]);
  if (!rows[0]) throw new Error(`no user ${userId}`);
  return rows[0].team_id;
}

export async function seedCompletedVideo(
  ctx: AppContext,
  o: SeedVideoOptions,
): Promise<SeededVideo> {
  const status = o.status ?? 'completed';
  const scenesIn = o.scenes ?? [];
  const { jpeg, mp4 } = await seedMedia();
  const id = crypto.randomUUID();
  const source = `input/${id}/source.mp4`;
  await ctx.storage.put(source, mp4, 'video/mp4');

  const done = status === 'completed';
  const thumbnail = done ? `output/${id}/thumbnail.jpg` : null;
  if (thumbnail) await ctx.storage.put(thumbnail, jpeg, 'image/jpeg');
  const trailer = done && o.withTrailer ? `output/${id}/trailer.mp4` : null;
  if (trailer) await ctx.storage.put(trailer, mp4, 'video/mp4');

  const sceneKeys: SeededVideo['keys']['scenes'] = [];
  let at = 0;
  for (const [i, s] of scenesIn.entries()) {
    const base = `output/${id}/scenes/${i}`;
    const frames = Array.from({ length: s.frames ?? 3 }, (_, f) => `${base}/frames/${f}.jpg`);
    await ctx.storage.put(`${base}/thumbnail.jpg`, jpeg, 'image/jpeg');
    await ctx.storage.put(`${base}/clip.mp4`, mp4, 'video/mp4');
    for (const f of frames) await ctx.storage.put(f, jpeg, 'image/jpeg');
    sceneKeys.push({ thumbnail: `${base}/thumbnail.jpg`, clip: `${base}/clip.mp4`, frames });
    const start = s.startMs ?? at;
    at = s.endMs ?? start + 2000;
  }
  const length = o.videoLength ?? Math.max(2, at / 1000);

  await ctx.db.tx(async (q) => {
    await q.query(
      `INSERT INTO videos (id, team_id, owner_id, filename, title, summary, tags, status,
         about_this_video, output_language, video_date, video_length, source_key, source_size,
         thumbnail_key, playable_key, trailer_key, output_data, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
         $19, $19)`,
      [
        id,
        o.teamId,
        o.ownerId ?? null,
        o.filename ?? 'clip.mp4',
        o.title === undefined ? (done ? 'Seeded video' : null) : o.title,
        o.summary === undefined ? (done ? 'A seeded video for tests.' : null) : o.summary,
        JSON.stringify((o.tags ?? []).map((name) => ({ name }))),
        status,
        o.aboutThisVideo ?? '',
        o.outputLanguage ?? 'en',
        o.videoDate === undefined ? '2024-05-01T10:00:00.000' : o.videoDate,
        length,
        source,
        mp4.length,
        thumbnail,
        done ? source : null,
        trailer,
        JSON.stringify({ captions: o.captions ?? [] }),
        o.createdAt ?? new Date(ctx.now()),
      ],
    );
    let t = 0;
    for (const [i, s] of scenesIn.entries()) {
      const start = s.startMs ?? t;
      const end = s.endMs ?? start + 2000;
      t = end;
      const keys = sceneKeys[i]!;
      await q.query(
        `INSERT INTO scenes (video_id, idx, start_ms, end_ms, description, thumbnail_key, clip_key,
           frames, captions)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          id,
          i,
          start,
          end,
          s.description,
          keys.thumbnail,
          keys.clip,
          JSON.stringify(keys.frames),
          s.captions ?? '',
        ],
      );
    }
  });
  if (o.index ?? done) await indexVideo(ctx, id);
  return { id, keys: { source, thumbnail, trailer, scenes: sceneKeys } };
}
