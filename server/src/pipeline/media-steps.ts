// Steps that only need ffmpeg: probe, the browser-playable file, scene clips and captions.
import fs from 'node:fs';
import path from 'node:path';
import { VideoFailure } from './failure.ts';
import { captionsBetween, toWebVtt } from '../media/captions.ts';
import {
  cutClips,
  extractSpeechAudio,
  makeRendition,
  probeFile,
  readSubtitleCues,
} from '../media/operations.ts';
import {
  isBrowserPlayable,
  NotAVideoError,
  subtitleStreams,
  VideoOverLimitError,
  videoFormat,
  type ProbeResult,
} from '../media/probe.ts';
import { VIDEO_LENGTH_MAX_S } from '../limits.ts';
import { formatTimecode } from '../media/timecode.ts';
import type { ClipCut, VideoFormat } from '../media/args.ts';
import { mapLimit } from '../lib/map-limit.ts';
import { createProvider } from '../analysis/create.ts';
import type { CaptionCue } from '../analysis/provider.ts';
import { outputKey, resultOf, type Step, type StepContext } from './step-context.ts';
import { scenesOf, updateScene, updateVideo } from './video-store.ts';

/** Shown to the user on the failed video: plain words. */
export const NOT_A_VIDEO = 'not a video file';
export const TOO_LONG = `the video is longer than ${VIDEO_LENGTH_MAX_S / 3600} hours`;

/**
 * The probe of this run or an earlier one. Records made before the container whitelist carry no
 * format: it is read from their format name, and a container off the list is not a video.
 */
export function probeOf(s: StepContext): ProbeResult {
  // A record from before the whitelist has no format: the type says what it may hold.
  const probe = resultOf(s, probeStep) as Omit<ProbeResult, 'format'> & { format?: VideoFormat };
  const format = probe.format ?? videoFormat(probe.formatName);
  if (!format) throw new VideoFailure('not-a-video', NOT_A_VIDEO);
  return { ...probe, format };
}

export const probeStep: Step<ProbeResult> = {
  name: 'probe',
  async run(s) {
    if (!s.video.source_key || !(await s.ctx.storage.stat(s.video.source_key))) {
      throw new VideoFailure('file-missing', 'the uploaded file is missing');
    }
    let probe: ProbeResult;
    try {
      probe = await probeFile(s.tools, await s.localFile(s.video.source_key), s.signal);
    } catch (err) {
      if (err instanceof VideoOverLimitError) {
        throw new VideoFailure('not-a-video', `${NOT_A_VIDEO}: ${err.message}`, { cause: err });
      }
      if (err instanceof NotAVideoError)
        throw new VideoFailure('not-a-video', NOT_A_VIDEO, { cause: err });
      throw err;
    }
    // Work and time budgets scale with the length, so a forged duration must not buy days.
    if (probe.durationMs > VIDEO_LENGTH_MAX_S * 1000) throw new VideoFailure('too-long', TOO_LONG);
    await updateVideo(
      s.ctx.db,
      s.video.id,
      { video_length: probe.durationMs / 1000 },
      {
        probe: {
          duration_ms: probe.durationMs,
          width: probe.width ?? null,
          height: probe.height ?? null,
          rotation: probe.rotation,
          video_codec: probe.videoCodec ?? null,
          audio_codec: probe.audioCodec ?? null,
          frame_rate: probe.frameRate ?? null,
          creation_date: probe.creationDate ?? null,
          streams: probe.streams,
        },
      },
    );
    return probe;
  },
};

export interface RenditionResult {
  playableKey: string;
  /** True when the original plays in browsers as it is. */
  original: boolean;
  /** The playable file's container (absent in records made before the container whitelist). */
  format?: VideoFormat;
}

export const renditionStep: Step<RenditionResult> = {
  name: 'rendition',
  async run(s) {
    const probe = probeOf(s);
    const source = s.video.source_key!;
    let result: RenditionResult = { playableKey: source, original: true, format: probe.format };
    if (!isBrowserPlayable(probe)) {
      const file = path.join(s.workDir, 'playable.mp4');
      await makeRendition(s.tools, await s.localFile(source), file, {
        hasAudio: probe.audioCodec !== undefined,
        durationMs: probe.durationMs,
        format: probe.format,
        signal: s.signal,
      });
      const key = outputKey(s.video.id, 'playable.mp4');
      await s.ctx.storage.put(key, fs.createReadStream(file), 'video/mp4');
      await fs.promises.rm(file, { force: true });
      result = { playableKey: key, original: false, format: 'mov' };
    }
    await updateVideo(s.ctx.db, s.video.id, { playable_key: result.playableKey });
    return result;
  },
};

/**
 * Clips cut by one ffmpeg run. Each run opens the video once per clip, and each input holds the
 * container's index: about 12 MB an hour of video in ffmpeg here (16 inputs on a one-hour file
 * peaked at 235 MB). So a run opens at most four hours of video in all (16 clips of a short
 * video, 4 of a one-hour one, one at a time from three hours on, as before), which also bounds
 * the clips waiting on the temp disk; CLIP_RUNS_AT_ONCE runs go on together.
 */
export function clipsPerRun(durationMs: number): number {
  const hours = Math.max(durationMs, 1) / 3_600_000;
  return Math.min(16, Math.max(1, Math.floor(4 / hours)));
}

/**
 * ffmpeg runs cutting clips at once. A run is one thread, mostly busy opening the video's index
 * (about 0.07 CPU-s a clip for an hour of video): one at a time, a long video's clips left the
 * second core idle for a minute once the OCR was done.
 */
const CLIP_RUNS_AT_ONCE = 2;

/**
 * A stream-copied MP4 per scene cut from the playable file: no decode, so it costs about one copy
 * of the video in total, and each scene plays on its own in the detail page.
 */
export const clipsStep: Step<{ clips: number }> = {
  name: 'clips',
  // No later step reads the clips: they are cut while the models and the OCR work.
  joinBefore: 'index',
  async run(s) {
    const probe = probeOf(s);
    const { playableKey, original, format } = resultOf(s, renditionStep);
    const input = await s.localFile(playableKey);
    const scenes = await scenesOf(s.ctx.db, s.video.id);
    const perRun = clipsPerRun(probe.durationMs);
    const batches: (ClipCut & { idx: number })[][] = [];
    for (let from = 0; from < scenes.length; from += perRun) {
      batches.push(
        scenes.slice(from, from + perRun).map((scene) => ({
          idx: scene.idx,
          startMs: scene.start_ms,
          endMs: scene.end_ms,
          output: path.join(s.workDir, `clip-${scene.idx}.mp4`),
        })),
      );
    }
    await mapLimit(batches, CLIP_RUNS_AT_ONCE, async (batch) => {
      await cutClips(s.tools, input, batch, {
        hasAudio: probe.audioCodec !== undefined,
        format: format ?? (original ? probe.format : 'mov'),
        signal: s.signal,
      });
      for (const clip of batch) {
        const key = outputKey(s.video.id, 'scenes', String(clip.idx), 'clip.mp4');
        await s.ctx.storage.put(key, fs.createReadStream(clip.output), 'video/mp4');
        await fs.promises.rm(clip.output, { force: true });
        await updateScene(s.ctx.db, s.video.id, clip.idx, { clip_key: key });
      }
    });
    return { clips: scenes.length };
  },
};

export interface CaptionsResult {
  source: 'subtitles' | 'speech' | 'none';
  cues: CaptionCue[];
  /** The subtitle track's language tag as the file has it ('eng', 'ja'), when it has one. */
  language?: string;
}

async function findCues(s: StepContext, probe: ProbeResult): Promise<CaptionsResult> {
  const source = await s.localFile(s.video.source_key!);
  const tracks = subtitleStreams(probe);
  // Prefer a track in the output language, else the first text track.
  const track = tracks.find((t) => t.language?.startsWith(s.video.output_language)) ?? tracks[0];
  if (track) {
    const read = await readSubtitleCues(s.tools, source, track.index, probe.format, s.signal);
    // An over-long track is cut, not failed: the video's log says so.
    if (read.cut) {
      s.ctx.log
        .child({ component: 'analysis' })
        .warn({ videoId: s.video.id, stream: track.index }, 'subtitle track cut at its size cap');
    }
    if (read.cues.length > 0) {
      return {
        source: 'subtitles',
        cues: read.cues,
        ...(track.language ? { language: track.language } : {}),
      };
    }
  }
  const provider = createProvider(s.ctx.config);
  if (provider.transcribe && probe.audioCodec !== undefined) {
    const audio = path.join(s.workDir, 'speech.mp3');
    await extractSpeechAudio(s.tools, source, audio, {
      durationMs: probe.durationMs,
      format: probe.format,
      signal: s.signal,
    });
    const cues = await provider.transcribe(audio, s.video.output_language);
    await fs.promises.rm(audio, { force: true });
    if (cues.length > 0) return { source: 'speech', cues };
  }
  return { source: 'none', cues: [] };
}

export const captionsStep: Step<CaptionsResult> = {
  name: 'captions',
  async run(s) {
    const probe = probeOf(s);
    const found = await findCues(s, probe);
    let vttKey: string | null = null;
    if (found.cues.length > 0) {
      vttKey = outputKey(s.video.id, 'captions.vtt');
      await s.ctx.storage.put(vttKey, Buffer.from(toWebVtt(found.cues), 'utf8'), 'text/vtt');
    }
    for (const scene of await scenesOf(s.ctx.db, s.video.id)) {
      const text = captionsBetween(found.cues, scene.start_ms, scene.end_ms);
      await updateScene(s.ctx.db, s.video.id, scene.idx, { captions: text });
    }
    await updateVideo(
      s.ctx.db,
      s.video.id,
      {},
      {
        captions: found.cues.map((c) => ({
          start_time: formatTimecode(c.startMs),
          end_time: formatTimecode(c.endMs),
          text: c.text,
        })),
        captions_source: found.source,
        captions_key: vttKey,
        // For the detail's captions track and its reason when there are none (issue 29).
        captions_language: found.language ?? s.video.output_language,
        captions_transcription: createProvider(s.ctx.config).transcribe !== undefined,
      },
    );
    return found;
  },
};
