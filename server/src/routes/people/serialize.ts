// People as the API shows them (docs/api.md "People"): snake_case, asset paths signed like every
// other asset path, times HH:mm:ss.SSS like scenes.
import { signAssetPath } from '../../assets/signing.ts';
import type { AppContext } from '../../context.ts';
import type { PersonFaceRow, PersonRow, PersonSceneRow } from '../../people/read.ts';
import { formatTimestamp } from '../videos/serialize.ts';

type SignCtx = Pick<AppContext, 'secrets' | 'now'>;

export interface PersonSummary {
  id: string;
  name: string | null;
  face_url: string | null;
  faces: string[];
  face_count: number;
  scene_count: number;
  video_count: number;
}

export function serializePerson(ctx: SignCtx, row: PersonRow): PersonSummary {
  const sign = (key: string | null) => signAssetPath(ctx, key, row.team_id);
  return {
    id: row.id,
    name: row.name,
    face_url: sign(row.cover_key),
    faces: row.face_keys.map(sign).filter((p): p is string => p !== null),
    face_count: row.face_count,
    scene_count: row.scene_count,
    video_count: row.video_count,
  };
}

export function serializeScene(ctx: SignCtx, teamId: string, row: PersonSceneRow) {
  return {
    video_id: row.video_id,
    video_title: row.video_title,
    scene_index: row.scene_index,
    start_time: formatTimestamp(row.start_ms),
    end_time: formatTimestamp(row.end_ms),
    thumbnail: signAssetPath(ctx, row.thumbnail_key, teamId),
    face_id: String(row.face_id),
    face_url: signAssetPath(ctx, row.crop_key, teamId),
  };
}

export function serializeFace(ctx: SignCtx, teamId: string, row: PersonFaceRow) {
  return {
    id: String(row.id),
    face_url: signAssetPath(ctx, row.crop_key, teamId),
    video_id: row.video_id,
    video_title: row.video_title,
    scene_index: row.scene_index,
  };
}
