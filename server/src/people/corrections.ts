// What a person's name, a merge or a "not this person" changes (issue 30): the people rows, every
// face's person_name, the people images' names and the descriptions where the old name appears.
// Each returns the videos whose search documents must be rebuilt (server/src/people/reindex.ts).
// The caller runs it in one transaction, under the team's people lock.
import type { Queryable } from '../db/db.ts';
import { HttpError } from '../lib/http-error.ts';
import { PERSON_NAME_MAX_LENGTH } from '../limits.ts';
import { refreshPeople } from './store.ts';

/** Videos whose documents changed, and in each the scenes (the video's own document always). */
export type Touched = Map<string, Set<number>>;

function touch(into: Touched, rows: readonly { video_id: string; scene_idx: number }[]): void {
  for (const r of rows) {
    const scenes = into.get(r.video_id) ?? new Set<number>();
    scenes.add(r.scene_idx);
    into.set(r.video_id, scenes);
  }
}

function touchVideos(into: Touched, videoIds: Iterable<string>): void {
  for (const id of videoIds) if (!into.has(id)) into.set(id, new Set());
}

/** The name as stored: trimmed, not empty, not too long. */
export function cleanName(raw: string): string {
  const name = raw.trim();
  if (!name) throw new HttpError(422, 'Enter a name.');
  if ([...name].length > PERSON_NAME_MAX_LENGTH)
    throw new HttpError(422, `Use at most ${PERSON_NAME_MAX_LENGTH} characters.`);
  return name;
}

const DUPLICATE = 'Another person already has this name. Merge them instead.';

async function nameTaken(
  q: Queryable,
  teamId: string,
  name: string,
  self: string,
): Promise<boolean> {
  const rows = await q.query(
    'SELECT 1 FROM people WHERE team_id = $1 AND lower(name) = lower($2) AND id <> $3',
    [teamId, name, self],
  );
  return rows.length > 0;
}

/** Names a group or renames a person. The person must be of teamId (checked by the caller). */
export async function renamePerson(
  q: Queryable,
  teamId: string,
  personId: string,
  rawName: string,
): Promise<Touched> {
  const name = cleanName(rawName);
  if (await nameTaken(q, teamId, name, personId)) throw new HttpError(409, DUPLICATE);
  const [before] = await q.query<{ name: string | null }>('SELECT name FROM people WHERE id = $1', [
    personId,
  ]);
  const touched: Touched = new Map();
  if (!before || before.name === name) return touched;
  await q.query('UPDATE people SET name = $2, updated_at = now() WHERE id = $1', [personId, name]);
  touch(
    touched,
    await q.query<{ video_id: string; scene_idx: number }>(
      'UPDATE scene_faces SET person_name = $2 WHERE person_id = $1 RETURNING video_id, scene_idx',
      [personId, name],
    ),
  );
  const images = await q.query<{ video_id: string }>(
    'UPDATE video_people SET name = $2 WHERE person_id = $1 RETURNING video_id',
    [personId, name],
  );
  touchVideos(
    touched,
    images.map((r) => r.video_id),
  );
  if (before.name) await replaceInDescriptions(q, touched, before.name, name);
  return touched;
}

/**
 * Moves every face, people image and rejection of `from` into `into` and deletes `from`. `into`
 * keeps its name, or takes `from`'s when it has none. A face of `into` rejected for either leaves.
 */
export async function mergeInto(q: Queryable, fromId: string, intoId: string): Promise<Touched> {
  const [from] = await q.query<{ name: string | null }>('SELECT name FROM people WHERE id = $1', [
    fromId,
  ]);
  const [into] = await q.query<{ name: string | null }>('SELECT name FROM people WHERE id = $1', [
    intoId,
  ]);
  const touched: Touched = new Map();
  if (!from || !into || fromId === intoId) return touched;
  const name = into.name ?? from.name;
  const moved = await q.query<{ video_id: string; scene_idx: number }>(
    'UPDATE scene_faces SET person_id = $2 WHERE person_id = $1 RETURNING video_id, scene_idx',
    [fromId, intoId],
  );
  const images = await q.query<{ video_id: string }>(
    'UPDATE video_people SET person_id = $2 WHERE person_id = $1 RETURNING video_id',
    [fromId, intoId],
  );
  await q.query(
    `INSERT INTO face_rejections (face_id, person_id)
     SELECT face_id, $2 FROM face_rejections WHERE person_id = $1 ON CONFLICT DO NOTHING`,
    [fromId, intoId],
  );
  // Deleted before into takes its name: the name is unique in the team.
  await q.query('DELETE FROM people WHERE id = $1', [fromId]);
  if (!into.name && from.name) {
    await q.query('UPDATE people SET name = $2, updated_at = now() WHERE id = $1', [intoId, name]);
  }
  touch(
    touched,
    await q.query<{ video_id: string; scene_idx: number }>(
      `UPDATE scene_faces f SET person_id = NULL, person_name = NULL
       FROM face_rejections r
       WHERE r.face_id = f.id AND r.person_id = $1 AND f.person_id = $1
       RETURNING f.video_id, f.scene_idx`,
      [intoId],
    ),
  );
  touch(
    touched,
    await q.query<{ video_id: string; scene_idx: number }>(
      `UPDATE scene_faces SET person_name = $2
       WHERE person_id = $1 AND person_name IS DISTINCT FROM $2 RETURNING video_id, scene_idx`,
      [intoId, name],
    ),
  );
  if (name) {
    touchVideos(
      touched,
      (
        await q.query<{ video_id: string }>(
          `UPDATE video_people SET name = $2 WHERE person_id = $1 AND name <> $2 RETURNING video_id`,
          [intoId, name],
        )
      ).map((r) => r.video_id),
    );
  }
  if (from.name && name && from.name !== name) {
    const fromVideos: Touched = new Map();
    touch(fromVideos, moved);
    touchVideos(
      fromVideos,
      images.map((r) => r.video_id),
    );
    await replaceInDescriptions(q, fromVideos, from.name, name);
    for (const [v, scenes] of fromVideos) {
      const all = touched.get(v) ?? new Set<number>();
      for (const s of scenes) all.add(s);
      touched.set(v, all);
    }
  }
  await refreshPeople(q, [intoId]);
  return touched;
}

/**
 * "Not this person": the face leaves the person, belongs to nobody and is never assigned to them
 * again. False when the face is not the person's.
 */
export async function rejectFace(
  q: Queryable,
  personId: string,
  faceId: number,
): Promise<Touched | undefined> {
  const rows = await q.query<{ video_id: string; scene_idx: number; named: boolean }>(
    `UPDATE scene_faces SET person_id = NULL, person_name = NULL
     WHERE id = $1 AND person_id = $2
     RETURNING video_id, scene_idx, (SELECT name IS NOT NULL FROM people WHERE id = $2) AS named`,
    [faceId, personId],
  );
  if (rows.length === 0) return undefined;
  await q.query(
    'INSERT INTO face_rejections (face_id, person_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [faceId, personId],
  );
  await refreshPeople(q, [personId]);
  const touched: Touched = new Map();
  if (rows[0]!.named) touch(touched, rows);
  return touched;
}

/** Letters and digits of scripts written with spaces: a name next to one is part of a word. */
const WORD_CHAR = '[\\p{Script=Latin}\\p{Script=Cyrillic}\\p{Script=Greek}\\p{N}_]';

/** The old name replaced by the new one where it stands as a word (docs/decisions/people-groups.md). */
export function replaceName(text: string, oldName: string, newName: string): string {
  const escaped = oldName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(?<!${WORD_CHAR})${escaped}(?!${WORD_CHAR})`, 'gu');
  return text.replace(re, () => newName);
}

/** Scene descriptions and video summaries of these videos; the scenes changed are touched. */
async function replaceInDescriptions(
  q: Queryable,
  touched: Touched,
  oldName: string,
  newName: string,
): Promise<void> {
  const videos = [...touched.keys()];
  if (videos.length === 0) return;
  const scenes = await q.query<{ video_id: string; idx: number; description: string }>(
    `SELECT video_id, idx, description FROM scenes
     WHERE video_id = ANY ($1::uuid[]) AND strpos(description, $2) > 0`,
    [videos, oldName],
  );
  const changed = scenes
    .map((s) => ({ ...s, next: replaceName(s.description, oldName, newName) }))
    .filter((s) => s.next !== s.description);
  if (changed.length > 0) {
    await q.query(
      `UPDATE scenes s SET description = t.d
       FROM unnest($1::uuid[], $2::int[], $3::text[]) AS t(v, i, d)
       WHERE s.video_id = t.v AND s.idx = t.i`,
      [changed.map((s) => s.video_id), changed.map((s) => s.idx), changed.map((s) => s.next)],
    );
    touch(
      touched,
      changed.map((s) => ({ video_id: s.video_id, scene_idx: s.idx })),
    );
  }
  const summaries = await q.query<{ id: string; summary: string }>(
    `SELECT id, summary FROM videos WHERE id = ANY ($1::uuid[]) AND strpos(summary, $2) > 0`,
    [videos, oldName],
  );
  for (const v of summaries) {
    const next = replaceName(v.summary, oldName, newName);
    if (next !== v.summary)
      await q.query('UPDATE videos SET summary = $2 WHERE id = $1', [v.id, next]);
  }
}
