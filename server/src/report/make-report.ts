// The 'make-report' work: gather the video's facts, scenes and captions, answer the instruction
// (the local provider quotes the matching scenes; a provider with answer() writes an answer
// citing scenes), render one HTML file and store it under a new name.
import { createProvider } from '../analysis/create.ts';
import type { AppContext } from '../context.ts';
import { PermanentJobError, throwIfAborted } from '../jobs/errors.ts';
import { REPORT_CAPTIONS_MAX, REPORT_MATCHES_MAX } from '../limits.ts';
import { formatTimecode } from '../media/timecode.ts';
import { resolveMediaTools } from '../media/tools.ts';
import { scenesOf } from '../pipeline/video-store.ts';
import { finishCreating, outputVideo, type OutputVideo } from '../repositories/outputs.ts';
import { normalizeTags } from '../routes/videos/serialize.ts';
import { isMatch } from '../trailer/plan.ts';
import { rankScenes } from '../trailer/scene-ranking.ts';
import { renderReport, type ReportAnswer, type ReportModel, type ReportScene } from './html.ts';
import { thumbnailDataUri } from './thumbnail.ts';

const pad = (n: number): string => String(n).padStart(2, '0');

function ymd(d: Date): string {
  return `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}`;
}

function ymdhm(d: Date): string {
  return `${ymd(d)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

function hms(seconds: number): string {
  const s = Math.round(seconds);
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

function resolution(data: Record<string, unknown>): string | null {
  const probe = data.probe as { width?: unknown; height?: unknown } | undefined;
  return typeof probe?.width === 'number' && typeof probe.height === 'number'
    ? `${probe.width} × ${probe.height}`
    : null;
}

/** Captions as the pipeline stores them ({start_time, end_time, text}); anything else skipped. */
function storedCaptions(data: Record<string, unknown>): ReportModel['captions'] {
  if (!Array.isArray(data.captions)) return [];
  return data.captions.flatMap((c: unknown) => {
    const cue = c as { start_time?: unknown; end_time?: unknown; text?: unknown };
    return typeof cue?.text === 'string' && typeof cue.start_time === 'string'
      ? [{ startTime: cue.start_time, endTime: String(cue.end_time ?? ''), text: cue.text }]
      : [];
  });
}

async function answerInstruction(
  ctx: AppContext,
  video: OutputVideo,
  instruction: string,
  scenes: ReportScene[],
): Promise<ReportAnswer> {
  const provider = createProvider(ctx.config);
  if (provider.answer) {
    const written = await provider.answer(instruction, {
      language: video.output_language,
      title: video.title ?? video.filename,
      summary: video.summary ?? '',
      scenes: scenes.map(({ index, startTime, endTime, description, captions }) => ({
        index,
        startTime,
        endTime,
        description,
        captions,
      })),
    });
    return { kind: 'written', text: written.text, scenes: written.sceneIndexes };
  }
  const ranked = await rankScenes(ctx, {
    teamId: video.team_id,
    videoId: video.id,
    text: instruction,
    sceneCount: scenes.length,
  });
  const matches = ranked.filter((r) => isMatch(r.score)).slice(0, REPORT_MATCHES_MAX);
  return { kind: 'quotes', scenes: matches.map((r) => r.idx) };
}

export async function buildReportModel(
  ctx: AppContext,
  video: OutputVideo,
  instruction: string,
  signal: AbortSignal,
): Promise<ReportModel> {
  const tools = resolveMediaTools(ctx.config);
  const scenes: ReportScene[] = [];
  for (const s of await scenesOf(ctx.db, video.id)) {
    throwIfAborted(signal);
    scenes.push({
      index: s.idx,
      startTime: formatTimecode(s.start_ms),
      endTime: formatTimecode(s.end_ms),
      description: s.description,
      captions: s.captions,
      image: await thumbnailDataUri(ctx.storage, tools, s.thumbnail_key, signal),
    });
  }
  const data = video.output_data;
  const captions = storedCaptions(data);
  const recorded = video.video_date ? video.video_date.slice(0, 10).replaceAll('-', '/') : null;
  return {
    language: video.output_language,
    title: video.title ?? video.filename,
    filename: video.filename,
    recorded,
    uploaded: ymdhm(video.created_at),
    length: video.video_length === null ? null : hms(video.video_length),
    resolution: resolution(data),
    summary: video.summary ?? '',
    tags: normalizeTags(video.tags).map((t) => t.name),
    instruction,
    answer: await answerInstruction(ctx, video, instruction, scenes),
    scenes,
    captions: captions.slice(0, REPORT_CAPTIONS_MAX),
    captionsTotal: captions.length,
    generated: ymdhm(new Date(ctx.now())),
  };
}

export async function makeReport(
  ctx: AppContext,
  videoId: string,
  signal: AbortSignal,
): Promise<void> {
  const video = await outputVideo(ctx.db, videoId);
  if (!video) return; // Deleted meanwhile.
  const raw = video.output_data.report_instruction;
  const instruction = typeof raw === 'string' ? raw.trim() : '';
  if (!instruction) throw new PermanentJobError('there is no report instruction');
  const model = await buildReportModel(ctx, video, instruction, signal);
  throwIfAborted(signal);

  // A new name each time: an open tab or a cache never mixes an old report with a new link.
  const key = `output/${videoId}/report-${ctx.now()}.html`;
  await ctx.storage.put(key, Buffer.from(renderReport(model), 'utf8'), 'text/html; charset=utf-8');
  const record = {
    instruction,
    answer: model.answer.kind,
    scenes: model.answer.scenes,
    made_at: new Date(ctx.now()).toISOString(),
  };
  const done = await ctx.db.tx((q) => finishCreating(q, 'report', videoId, key, record));
  if (!done) {
    await ctx.storage.delete(key);
    return;
  }
  if (done.previousKey && done.previousKey !== key) {
    await ctx.storage.delete(done.previousKey).catch(() => undefined);
  }
}
