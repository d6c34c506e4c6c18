// A video file analysed by the real pipeline without the upload path: the row, the stored
// source and the job, then a wait until the analysis ends. For tests that look at what the
// analysis found rather than at how the file arrived.
import fs from 'node:fs';
import type { AppContext } from '../../server/src/context.ts';
import { enqueueAnalysis } from '../../server/src/pipeline/enqueue.ts';

export interface AnalyseFile {
  teamId: string;
  ownerId: string;
  file: string;
  /** The name the video row shows (its downloads are named after the title, then this). */
  filename: string;
  language: string;
  timeoutMs: number;
}

/** Answers the video's id once it is completed; throws with the failure reason otherwise. */
export async function analyseFile(ctx: AppContext, o: AnalyseFile): Promise<string> {
  // allow_duplicate: these tests may analyse one clip more than once in a team (in two output
  // languages, say), as a user who asked to upload it anyway; the archive refuses it otherwise.
  const [row] = await ctx.db.query<{ id: string }>(
    `INSERT INTO videos
       (team_id, owner_id, filename, status, output_language, about_this_video, allow_duplicate)
     VALUES ($1, $2, $3, 'uploading', $4, '', true) RETURNING id`,
    [o.teamId, o.ownerId, o.filename, o.language],
  );
  const id = row!.id;
  const key = `input/${id}/source.mp4`;
  await ctx.storage.put(key, fs.readFileSync(o.file));
  await ctx.db.query('UPDATE videos SET source_key = $2 WHERE id = $1', [id, key]);
  await enqueueAnalysis(ctx, id);
  const until = Date.now() + o.timeoutMs;
  for (;;) {
    const [v] = await ctx.db.query<{ status: string; failure_reason: string | null }>(
      'SELECT status, failure_reason FROM videos WHERE id = $1',
      [id],
    );
    if (v?.status === 'completed') return id;
    if (v?.status !== 'in_progress' || Date.now() > until) {
      throw new Error(`video is ${v?.status} (${v?.failure_reason})`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
