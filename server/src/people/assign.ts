// Assigns a newly analysed video's faces to the team's people (issue 30): each face goes to a
// named person or an existing group by the rules of grouping.ts, over its nearest faces in the
// team's archive (the HNSW index of migration 016) and the people images; otherwise it starts a
// group of its own. Groups the video shows to be one person are joined. One team at a time: a
// per-team advisory lock keeps two workers from making two groups of one new person.
import crypto from 'node:crypto';
import { SET_LOCAL_SQL, type Db, type Queryable } from '../db/db.ts';
import { faceDistance } from '../perception/face-match.ts';
import { assignFace, joinTarget, shouldJoin, type Neighbour, type PersonInfo } from './grouping.ts';
import { parseVector } from '../db/vector.ts';
import { mergeInto, type Touched } from './corrections.ts';
import { reindexTouched, wakeReindex } from './reindex.ts';
import { groupsConflict, lockTeamPeople, refreshPeople, samplesOf, teamOfVideo } from './store.ts';

/** Nearest faces read from the index per face: enough for the quorum of a few groups. */
const NEIGHBOURS = 24;
/** Faces per group compared when deciding whether two groups are one person. */
const SAMPLE = 16;

interface VideoFace {
  id: number;
  sceneIdx: number;
  descriptor: number[];
}

export interface AssignResult {
  /** Faces given a person or group. */
  assigned: number;
  /** Groups started by this video. */
  created: number;
  /** Pairs of groups joined. */
  joined: number;
  /** Other videos whose faces changed names (a group joined into a named person), re-indexed. */
  renamedVideos: string[];
}

/** Assigns the video's faces that have a descriptor and no person yet. */
export async function assignVideoFaces(db: Db, videoId: string): Promise<AssignResult> {
  const team = await teamOfVideo(db, videoId);
  const none: AssignResult = { assigned: 0, created: 0, joined: 0, renamedVideos: [] };
  if (!team) return none;
  const touched: Touched = new Map();
  const result = await db.tx(async (q) => {
    await lockTeamPeople(q, team.id);
    await nameFromPeopleImages(q, team.id, videoId);
    const r = await assignInTx(q, team.id, team.faceGrouping, videoId, touched);
    await reindexTouched(q, touched, Date.now());
    return r;
  });
  wakeReindex(touched);
  return result;
}

/**
 * Each people image showing one face (it has a descriptor) names a person of its name, found or
 * created in the team; an image with no face names nobody.
 */
async function nameFromPeopleImages(q: Queryable, teamId: string, videoId: string): Promise<void> {
  const images = await q.query<{ position: number; name: string }>(
    `SELECT position, btrim(name) AS name FROM video_people
     WHERE video_id = $1 AND person_id IS NULL AND btrim(name) <> '' AND descriptor IS NOT NULL`,
    [videoId],
  );
  for (const image of images) {
    const [person] = await q.query<{ id: string }>(
      `INSERT INTO people (team_id, name) VALUES ($1, $2)
       ON CONFLICT (team_id, lower(name)) WHERE name IS NOT NULL
       DO UPDATE SET updated_at = people.updated_at
       RETURNING id`,
      [teamId, image.name],
    );
    await q.query('UPDATE video_people SET person_id = $3 WHERE video_id = $1 AND position = $2', [
      videoId,
      image.position,
      person!.id,
    ]);
  }
}

async function assignInTx(
  q: Queryable,
  teamId: string,
  grouping: boolean,
  videoId: string,
  touched: Touched,
): Promise<AssignResult> {
  const faces = (
    await q.query<{ id: string; scene_idx: number; descriptor: string }>(
      `SELECT id, scene_idx, descriptor::text AS descriptor FROM scene_faces
       WHERE video_id = $1 AND descriptor IS NOT NULL AND person_id IS NULL
       ORDER BY scene_idx, face_idx`,
      [videoId],
    )
  ).map<VideoFace>((f) => ({
    id: Number(f.id),
    sceneIdx: f.scene_idx,
    descriptor: parseVector(f.descriptor),
  }));
  if (faces.length === 0) return { assigned: 0, created: 0, joined: 0, renamedVideos: [] };
  // Deeper than the default 40 and past faces of other teams: the team filter is applied after
  // the index, and relaxed_order keeps scanning until enough of the team's faces are found.
  await q.query(SET_LOCAL_SQL, ['hnsw.ef_search', String(NEIGHBOURS * 4)]);
  await q.query(SET_LOCAL_SQL, ['hnsw.iterative_scan', 'relaxed_order']);

  // The video's vectors join the team's (again when a recompute changed a descriptor).
  await q.query(
    `INSERT INTO face_vectors (face_id, team_id, video_id, descriptor)
     SELECT id, $2, video_id, descriptor FROM scene_faces
     WHERE video_id = $1 AND descriptor IS NOT NULL
     ON CONFLICT (face_id) DO UPDATE SET descriptor = EXCLUDED.descriptor
     WHERE face_vectors.descriptor <> EXCLUDED.descriptor`,
    [videoId, teamId],
  );
  // The archive's nearest faces of each face, in one statement: the index answers per face.
  const near = await q.query<{ face_id: string; person_id: string; distance: number }>(
    `SELECT f.face_id, n.person_id, n.distance
     FROM face_vectors f
     CROSS JOIN LATERAL (
       SELECT s.person_id, v.descriptor <-> f.descriptor AS distance
       FROM face_vectors v JOIN scene_faces s ON s.id = v.face_id
       ${grouping ? '' : 'JOIN people p ON p.id = s.person_id AND p.name IS NOT NULL'}
       WHERE v.team_id = $2 AND v.video_id <> $1 AND s.person_id IS NOT NULL
       ORDER BY v.descriptor <-> f.descriptor
       LIMIT ${NEIGHBOURS}
     ) n
     WHERE f.face_id = ANY ($3::bigint[])`,
    [videoId, teamId, faces.map((f) => f.id)],
  );
  const neighbours = new Map<number, Neighbour[]>();
  for (const r of near) {
    const list = neighbours.get(Number(r.face_id)) ?? [];
    list.push({ person: r.person_id, distance: Number(r.distance) });
    neighbours.set(Number(r.face_id), list);
  }
  // The people images of the team's named people count as their faces.
  const references = (
    await q.query<{ person_id: string; descriptor: string }>(
      `SELECT vp.person_id, vp.descriptor::text AS descriptor
       FROM video_people vp JOIN people p ON p.id = vp.person_id
       WHERE p.team_id = $1 AND vp.descriptor IS NOT NULL`,
      [teamId],
    )
  ).map((r) => ({ person: r.person_id, descriptor: parseVector(r.descriptor) }));

  const candidateIds = new Set<string>(near.map((r) => r.person_id));
  for (const r of references) candidateIds.add(r.person);
  const people = new Map<string, PersonInfo>();
  for (const p of await q.query<{ id: string; named: boolean; size: number }>(
    `SELECT p.id, p.name IS NOT NULL AS named,
            p.face_count + (SELECT count(*) FROM video_people v WHERE v.person_id = p.id)::int AS size
     FROM people p WHERE p.id = ANY ($1::uuid[])`,
    [[...candidateIds]],
  ))
    people.set(p.id, { named: p.named, size: Number(p.size) });

  const rejections = await q.query<{ face_id: string; person_id: string }>(
    'SELECT face_id, person_id FROM face_rejections WHERE face_id = ANY ($1::bigint[])',
    [faces.map((f) => f.id)],
  );

  const chosen = new Map<number, string>();
  const newGroups: string[] = [];
  const joins: [string, string][] = [];
  const placed: { face: VideoFace; person: string }[] = [];
  for (const face of faces) {
    // Two faces of one scene are two people; a rejected person never takes the face back.
    const excluded = new Set<string>(
      rejections.filter((r) => Number(r.face_id) === face.id).map((r) => r.person_id),
    );
    for (const p of placed) if (p.face.sceneIdx === face.sceneIdx) excluded.add(p.person);
    const list: Neighbour[] = [...(neighbours.get(face.id) ?? [])];
    for (const r of references)
      list.push({ person: r.person, distance: faceDistance(face.descriptor, r.descriptor) });
    // Faces of this video placed already: the same person seen in several of its scenes.
    for (const p of placed)
      list.push({ person: p.person, distance: faceDistance(face.descriptor, p.face.descriptor) });
    const decision = assignFace(list, people, excluded);
    let person: string | undefined;
    if (decision.kind === 'person') {
      person = decision.person;
      for (const other of decision.alsoClose) joins.push([person, other]);
    } else if (grouping) {
      person = crypto.randomUUID();
      newGroups.push(person);
      people.set(person, { named: false, size: 0 });
    }
    if (!person) continue;
    chosen.set(face.id, person);
    placed.push({ face, person });
    people.get(person)!.size++;
  }

  if (newGroups.length > 0) {
    await q.query('INSERT INTO people (id, team_id) SELECT unnest($1::uuid[]), $2', [
      newGroups,
      teamId,
    ]);
  }
  if (chosen.size > 0) {
    await q.query(
      `UPDATE scene_faces f SET person_id = t.person, person_name = p.name
       FROM unnest($1::bigint[], $2::uuid[]) AS t(face, person)
       JOIN people p ON p.id = t.person
       WHERE f.id = t.face`,
      [[...chosen.keys()], [...chosen.values()]],
    );
  }
  await refreshPeople(q, [...new Set(chosen.values())]);

  const joined = grouping ? await joinClose(q, joins, videoId, touched) : 0;
  return {
    assigned: chosen.size,
    created: newGroups.length,
    joined,
    renamedVideos: [...touched.keys()],
  };
}

/**
 * Joins the pairs of groups that are one person by shouldJoin (later pairs follow earlier joins);
 * other videos whose faces took a name are added to touched.
 */
async function joinClose(
  q: Queryable,
  pairs: readonly [string, string][],
  videoId: string,
  touched: Touched,
): Promise<number> {
  const movedTo = new Map<string, string>();
  const resolve = (id: string): string => {
    let at = id;
    while (movedTo.has(at)) at = movedTo.get(at)!;
    return at;
  };
  let joined = 0;
  const seen = new Set<string>();
  for (const [x, y] of pairs) {
    const a = resolve(x);
    const b = resolve(y);
    const key = a < b ? `${a} ${b}` : `${b} ${a}`;
    if (a === b || seen.has(key)) continue;
    seen.add(key);
    const sa = await samplesOf(q, a, SAMPLE);
    const sb = await samplesOf(q, b, SAMPLE);
    if (!sa || !sb || !shouldJoin(sa, sb, await groupsConflict(q, a, b))) continue;
    const [into, from] = joinTarget(sa, sb);
    for (const [v, scenes] of await mergeInto(q, from.id, into.id))
      if (v !== videoId) touched.set(v, new Set([...(touched.get(v) ?? []), ...scenes]));
    movedTo.set(from.id, into.id);
    joined++;
  }
  return joined;
}
