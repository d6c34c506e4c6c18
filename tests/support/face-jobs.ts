// The recompute-faces jobs of a video, for the face tests (faces/recompute.ts).
import type { TestServer } from './server.ts';

/** The states of the video's recompute-faces jobs. */
export function recomputeJobs(server: TestServer, videoId: string): Promise<{ state: string }[]> {
  return server.ctx.db.query<{ state: string }>(
    `SELECT state FROM jobs WHERE name = 'recompute-faces' AND video_id = $1`,
    [videoId],
  );
}

/** Waits until none of the video's recompute-faces jobs is queued or running. */
export async function recomputeSettled(server: TestServer, videoId: string): Promise<void> {
  const until = Date.now() + 240_000;
  const live = (j: { state: string }) => j.state === 'queued' || j.state === 'running';
  while ((await recomputeJobs(server, videoId)).some(live)) {
    if (Date.now() > until) throw new Error('the recompute job did not finish');
    await new Promise((r) => setTimeout(r, 300));
  }
}
