// The video as the API shows it (product-spec section 3, snake_case). Shared by the list, the
// detail, search results and the trailer/report routes, so every answer carries the same fields
// and the same signed asset paths.
import { signAssetPath } from '../../assets/signing.ts';
import { createProvider } from '../../analysis/create.ts';
import type { AppContext } from '../../context.ts';
import { downloadKey, type DownloadKind } from '../../downloads/files.ts';
import type { FailureCode } from '../../pipeline/failure.ts';
import type { SceneRow, VideoDetail, VideoRow } from '../../repositories/videos.ts';

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
  /** Why a failed video failed, as a code the app words (null unless failed; issue 43). */
  failure_code: FailureCode | null;
  /** The original file's size in bytes and SHA-256 (hex), null until known (issue 42). */
  file_size: number | null;
  content_sha256: string | null;
  /** The team's video with the same bytes; null unless failure_code is 'duplicate'. */
  duplicate_of: { id: string; title: string | null; filename: string } | null;
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

/** A person recognised in a scene, with their reference picture (or the scene's thumbnail). */
export interface ApiScenePerson {
  name: string;
  face_thumbnail: string | null;
}

/** A scene of the detail: what the analysis knows of who and what is in it (issue 29). */
export interface ApiDetailScene extends ApiScene {
  people: ApiScenePerson[];
  /** COCO keys in English ("cell phone"); the client words them. */
  objects: string[];
  /** The lines read on screen, one per line; '' when none. */
  screen_text: string;
}

export interface ApiCue {
  start_time: string;
  end_time: string;
  text: string;
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
  output_data: { scenes: ApiDetailScene[]; captions: ApiCue[] };
  people: ApiPerson[];
  /** The WebVTT for a <track>, and its BCP 47 language; null without captions. */
  captions_track: { path: string; language: string } | null;
  /**
   * Why there are no captions: none_embedded (no subtitle track, no transcription provider),
   * none_spoken (a provider transcribed and heard no speech); null when there are captions or
   * the analysis has not looked yet.
   */
  captions_note: 'none_embedded' | 'none_spoken' | null;
  downloads: Record<DownloadKind, string | null>;
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
    failure_code: row.status === 'failed' ? (row.failure_code ?? 'not-finished') : null,
    file_size: row.file_size === null ? null : Number(row.file_size),
    content_sha256: row.content_sha256,
    duplicate_of:
      row.status === 'failed' && row.failure_code === 'duplicate' && row.duplicate_video
        ? {
            id: row.duplicate_video.id,
            title: row.duplicate_video.title,
            filename: row.duplicate_video.filename,
          }
        : null,
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

/** Whether the configured provider transcribes speech (for records made before they said). */
export function canTranscribe(ctx: Pick<AppContext, 'config'>): boolean {
  return createProvider(ctx.config).transcribe !== undefined;
}

/** What the captions step records in output_data (older records lack the last two). */
interface CaptionsData {
  captions?: unknown;
  captions_key?: string | null;
  captions_source?: 'subtitles' | 'speech' | 'none';
  captions_language?: string | null;
  /** Whether a transcription provider was configured when the captions were looked for. */
  captions_transcription?: boolean;
}

function cues(value: unknown): ApiCue[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((c: unknown) => {
    const cue = c as Partial<ApiCue> | null;
    return cue &&
      typeof cue.start_time === 'string' &&
      typeof cue.end_time === 'string' &&
      typeof cue.text === 'string'
      ? [{ start_time: cue.start_time, end_time: cue.end_time, text: cue.text }]
      : [];
  });
}

/** A language tag as BCP 47 ('jpn' from a subtitle track becomes 'ja'); the fallback if odd. */
export function bcp47(tag: string | null | undefined, fallback: string): string {
  if (!tag || tag === 'und') return fallback;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? fallback;
  } catch {
    return fallback;
  }
}

const stringList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The recorded lines of a scene (ScreenLine[]) as text, one line each. */
function screenText(value: unknown): string {
  if (!Array.isArray(value)) return '';
  return value
    .map((l: unknown) => (l as { text?: unknown } | null)?.text)
    .filter((t): t is string => typeof t === 'string' && t.trim() !== '')
    .join('\n');
}

export function serializeVideoDetail(
  ctx: SignCtx,
  detail: VideoDetail,
  o: { transcribes: boolean },
): ApiVideoDetail {
  const row = detail.video;
  const sign = (key: string | null | undefined) => signAssetPath(ctx, key, row.team_id);
  const data = (row.output_data ?? {}) as CaptionsData;
  const captions = cues(data.captions);
  const people = serializePeople(detail.people, detail.recognised);
  const faces = new Map(detail.faces.map((f) => [f.name, f.image_key]));
  const inScene = new Map<number, string[]>();
  for (const r of detail.recognised) {
    for (const idx of r.scenes) inScene.set(idx, [...(inScene.get(idx) ?? []), r.name]);
  }
  const perceived = Array.isArray(detail.perceived?.scenes) ? detail.perceived.scenes : [];
  const lines = Array.isArray(detail.perceived?.screen_text) ? detail.perceived.screen_text : [];
  // The perceive step records its scenes in the stored order (by index).
  const scenes = detail.scenes.map((scene, i): ApiDetailScene => {
    const base = serializeScene(ctx, row.team_id, scene);
    return {
      ...base,
      people: (inScene.get(scene.idx) ?? []).map((name) => ({
        name,
        face_thumbnail: sign(faces.get(name)) ?? base.thumbnail,
      })),
      objects: stringList((perceived[i] as { objects?: unknown } | null)?.objects),
      screen_text: screenText(lines[i]),
    };
  });
  const hasCaptions = captions.length > 0 && !!data.captions_key;
  const track = hasCaptions ? sign(data.captions_key) : null;
  const transcribed = data.captions_transcription ?? o.transcribes;
  const download = (kind: DownloadKind) => sign(downloadKey(row.id, kind));
  return {
    ...serializeVideo(ctx, row),
    output_data: { scenes, captions },
    people,
    captions_track: track
      ? { path: track, language: bcp47(data.captions_language, row.output_language) }
      : null,
    captions_note:
      hasCaptions || data.captions_source === undefined
        ? null
        : transcribed
          ? 'none_spoken'
          : 'none_embedded',
    downloads: {
      captions_vtt: hasCaptions ? download('captions_vtt') : null,
      captions_srt: hasCaptions ? download('captions_srt') : null,
      scenes_csv: download('scenes_csv'),
      analysis_json: download('analysis_json'),
    },
  };
}
