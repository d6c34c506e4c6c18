// What text a video or scene is found by: the same text feeds the keyword index and the
// dense vector, read from the database so a re-index needs nothing but the video id. A scene is
// found by its description, its captions, the people named in it and the lines read on screen
// (the perceive step's record, whatever the provider: a model's description may leave them out).
import type { Queryable } from '../db/db.ts';

export const VIDEO_DOC = 0;
export const SCENE_DOC = 1;
/** scene_idx of a video's own document in search_postings / search_documents. */
export const VIDEO_SCENE_IDX = -1;
/** Longer texts are cut before embedding (endpoints limit input tokens; the tail adds little). */
const MAX_EMBED_CHARS = 6000;

export interface VideoDocs {
  teamId: string;
  videoText: string;
  scenes: { idx: number; text: string }[];
}

interface VideoRow extends Record<string, unknown> {
  team_id: string;
  title: string | null;
  summary: string | null;
  tags: unknown;
  about_this_video: string;
}

/** Lines of a recorded ScreenLine[] (the perceive step's record of one scene). */
export const lineTexts = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap((l: unknown) => {
        const text = (l as { text?: unknown } | null)?.text;
        return typeof text === 'string' ? [text] : [];
      })
    : [];

function tagNames(tags: unknown): string[] {
  if (!Array.isArray(tags)) return [];
  return tags
    .map((t: unknown) =>
      typeof t === 'string' ? t : t && typeof t === 'object' && 'name' in t ? String(t.name) : '',
    )
    .filter(Boolean);
}

export async function loadVideoDocs(q: Queryable, videoId: string): Promise<VideoDocs | undefined> {
  const [video] = await q.query<VideoRow>(
    'SELECT team_id, title, summary, tags, about_this_video FROM videos WHERE id = $1',
    [videoId],
  );
  if (!video) return undefined;
  const people = await q.query<{ name: string }>(
    'SELECT name FROM video_people WHERE video_id = $1 ORDER BY position',
    [videoId],
  );
  const scenes = await q.query<{ idx: number; description: string; captions: string }>(
    'SELECT idx, description, captions FROM scenes WHERE video_id = $1 ORDER BY idx',
    [videoId],
  );
  // The people seen in each scene (issue 30): found by name once named, renamed with them.
  const seen = await q.query<{ scene_idx: number; name: string }>(
    `SELECT DISTINCT scene_idx, person_name AS name FROM scene_faces
     WHERE video_id = $1 AND person_name IS NOT NULL ORDER BY scene_idx, name`,
    [videoId],
  );
  // Recorded by scene position, which is the scene index (repositories/videos.ts).
  const [perceived] = await q.query<{ screen: unknown }>(
    `SELECT data -> 'screenText' AS screen FROM pipeline_steps
     WHERE video_id = $1 AND step = 'perceive'`,
    [videoId],
  );
  const screen = Array.isArray(perceived?.screen) ? (perceived.screen as unknown[]) : [];
  const screenIn = (idx: number): string => lineTexts(screen[idx]).join('\n');
  const seenIn = (idx: number): string =>
    seen
      .filter((s) => s.scene_idx === idx)
      .map((s) => s.name)
      .join(' ');
  const videoText = [
    video.title ?? '',
    video.summary ?? '',
    tagNames(video.tags).join(' '),
    video.about_this_video,
    people.map((p) => p.name).join(' '),
    [...new Set(seen.map((s) => s.name))].join(' '),
    scenes.map((s) => s.captions).join(' '),
    [...new Set(screen.flatMap(lineTexts))].join('\n'),
  ]
    .filter((s) => s.trim())
    .join('\n');
  return {
    teamId: video.team_id,
    videoText,
    scenes: scenes.map((s) => ({
      idx: s.idx,
      text: [s.description, s.captions, seenIn(s.idx), screenIn(s.idx)]
        .filter((x) => x.trim())
        .join('\n'),
    })),
  };
}

export function embeddingInput(text: string): string {
  return text.length > MAX_EMBED_CHARS ? text.slice(0, MAX_EMBED_CHARS) : text;
}
