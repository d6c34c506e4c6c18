// The video as the API shows it (product-spec section 3, snake_case). Shared by the list, the
// detail, search results and the trailer/report routes, so every answer carries the same fields
// and the same signed asset paths.
import { signAssetPath } from '../../assets/signing.ts';
import type { AppContext } from '../../context.ts';
import type { SceneRow, VideoDetailRow, VideoRow } from '../../repositories/videos.ts';

type SignCtx = Pick<AppContext, 'secrets' | 'now'>;

export interface ApiVideo {
  id: string;
  filename: string;
  title: string | null;
  summary: string | null;
  tags: { name: string }[];
  status: string;
  created_at: string;
  video_date: string | null;
  video_length: number | null;
  video_thumbnail_path: string | null;
  video_path: string | null;
  trailer_path: string | null;
  report_path: string | null;
  is_trailer_creating: boolean;
  is_report_creating: boolean;
}

export interface ApiScene {
  index: number;
  start_time: string;
  end_time: string;
  thumbnail: string | null;
  description: string;
  video_path: string | null;
  frames: { path: string }[];
}

/**
 * A person of the video: an uploaded people image (face_found says whether it shows exactly one
 * face: 'one', 'none', 'several', or null before the analysis looked) or someone of the team
 * recognised here; scenes lists the scene indexes where their face was recognised.
 */
export interface ApiPerson {
  name: string;
  scenes: number[];
  face_found: 'one' | 'none' | 'several' | null;
}

export interface ApiVideoDetail extends ApiVideo {
  output_data: { scenes: ApiScene[]; captions: unknown };
  people: ApiPerson[];
}

const faceFound = (n: number | null): ApiPerson['face_found'] =>
  n === null ? null : n === 0 ? 'none' : n === 1 ? 'one' : 'several';

/** The video's people images in order, then anyone else of the team recognised in it. */
export function serializePeople(
  images: readonly { name: string; faces_found: number | null }[],
  recognised: readonly { name: string; scenes: number[] }[],
): ApiPerson[] {
  const scenesOf = new Map(recognised.map((r) => [r.name, r.scenes]));
  const people: ApiPerson[] = images.map((p) => ({
    name: p.name,
    scenes: scenesOf.get(p.name) ?? [],
    face_found: faceFound(p.faces_found),
  }));
  const listed = new Set(images.map((p) => p.name));
  for (const r of recognised) {
    if (!listed.has(r.name)) people.push({ name: r.name, scenes: r.scenes, face_found: 'one' });
  }
  return people;
}

/** Tags are stored as [{name}]; anything else in the column is dropped rather than shown. */
export function normalizeTags(value: unknown): { name: string }[] {
  if (!Array.isArray(value)) return [];
  const tags: { name: string }[] = [];
  for (const t of value) {
    const name =
      typeof t === 'string'
        ? t
        : t && typeof t === 'object' && typeof (t as { name?: unknown }).name === 'string'
          ? (t as { name: string }).name
          : undefined;
    if (name && name.trim()) tags.push({ name: name.trim() });
  }
  return tags;
}

/** Milliseconds as HH:mm:ss.SSS (hours may exceed 24 for very long videos). */
export function formatTimestamp(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(total % 1000, 3)}`;
}

export function serializeVideo(ctx: SignCtx, row: VideoRow): ApiVideo {
  const sign = (key: string | null) => signAssetPath(ctx, key, row.team_id);
  return {
    id: row.id,
    filename: row.filename,
    title: row.title,
    summary: row.summary,
    tags: normalizeTags(row.tags),
    status: row.status,
    created_at: row.created_at.toISOString(),
    video_date: row.video_date,
    video_length: row.video_length,
    video_thumbnail_path: sign(row.thumbnail_key),
    video_path: sign(row.playable_key ?? row.source_key),
    trailer_path: sign(row.trailer_key),
    report_path: sign(row.report_key),
    is_trailer_creating: row.is_trailer_creating,
    is_report_creating: row.is_report_creating,
  };
}

function frameKeys(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((k): k is string => typeof k === 'string') : [];
}

export function serializeScene(ctx: SignCtx, teamId: string, scene: SceneRow): ApiScene {
  return {
    index: scene.idx,
    start_time: formatTimestamp(scene.start_ms),
    end_time: formatTimestamp(scene.end_ms),
    thumbnail: signAssetPath(ctx, scene.thumbnail_key, teamId),
    description: scene.description,
    video_path: signAssetPath(ctx, scene.clip_key, teamId),
    frames: frameKeys(scene.frames).flatMap((key) => {
      const path = signAssetPath(ctx, key, teamId);
      return path ? [{ path }] : [];
    }),
  };
}

export function serializeVideoDetail(
  ctx: SignCtx,
  row: VideoDetailRow,
  scenes: SceneRow[],
  people: ApiPerson[] = [],
): ApiVideoDetail {
  const data = (row.output_data ?? {}) as { captions?: unknown };
  return {
    ...serializeVideo(ctx, row),
    output_data: {
      scenes: scenes.map((s) => serializeScene(ctx, row.team_id, s)),
      captions: data.captions ?? [],
    },
    people,
  };
}
