// The video's own scenes ranked against a free-text instruction (hybrid search, scope current),
// shared by the trailer (which scenes to cut) and the report (which scenes answer it).
import type { AppContext } from '../context.ts';
import { TOP_K_MAX } from '../../../src/config/limits.ts';
import { searchScenes } from '../search/search.ts';
import type { RankedScene } from './plan.ts';

export async function rankScenes(
  ctx: Pick<AppContext, 'db' | 'config'>,
  o: { teamId: string; videoId: string; text: string; sceneCount: number },
): Promise<RankedScene[]> {
  if (o.sceneCount === 0 || !o.text.trim()) return [];
  const k = Math.min(TOP_K_MAX, o.sceneCount);
  const result = await searchScenes(ctx, {
    teamId: o.teamId,
    videoId: o.videoId,
    description: o.text,
    scope: 'current',
    method: 'hybrid',
    k,
    page: 1,
    size: k,
  });
  return result.items.flatMap((hit) =>
    hit.videoId === o.videoId && hit.sceneIndex !== undefined
      ? [{ idx: hit.sceneIndex, score: hit.score }]
      : [],
  );
}
