// The media operations of the pipeline: each builds its arguments (args.ts) and runs the tool
// through runProcess (run.ts), the one place that spawns.
import {
  clipsArgs,
  type ClipCut,
  probeArgs,
  renditionArgs,
  speechAudioArgs,
  subtitleArgs,
  type VideoFormat,
} from './args.ts';
import { parseCaptionTrack, type CaptionTrack } from './captions.ts';
import { NotAVideoError, parseProbe, type ProbeResult } from './probe.ts';
import { ProcessError, runProcess } from './run.ts';
import type { MediaTools } from './tools.ts';
import { CAPTION_TRACK_READ_MAX_BYTES } from '../limits.ts';

/** Facts about a file; NotAVideoError when ffprobe cannot read it as a video. */
export async function probeFile(
  tools: MediaTools,
  file: string,
  signal?: AbortSignal,
): Promise<ProbeResult> {
  try {
    const { stdout } = await runProcess(tools.ffprobe, probeArgs(file), {
      signal,
      timeoutMs: 120_000,
    });
    return parseProbe(stdout.toString('utf8'));
  } catch (err) {
    if (err instanceof ProcessError && err.exitCode !== null) throw new NotAVideoError(err.message);
    throw err;
  }
}

/** Time allowed for a whole-file ffmpeg run: generous, scaled to the video's length. */
const budget = (durationMs: number): number => Math.max(10 * 60_000, durationMs * 6);

export async function makeRendition(
  tools: MediaTools,
  input: string,
  output: string,
  o: { hasAudio: boolean; durationMs: number; format: VideoFormat; signal?: AbortSignal },
): Promise<void> {
  await runProcess(
    tools.ffmpeg,
    renditionArgs(input, output, { hasAudio: o.hasAudio, maxHeight: 1080, format: o.format }),
    {
      signal: o.signal,
      timeoutMs: budget(o.durationMs),
    },
  );
}

/** The clips, cut by one ffmpeg run (see clipsArgs). */
export async function cutClips(
  tools: MediaTools,
  input: string,
  clips: readonly ClipCut[],
  o: { hasAudio: boolean; format: VideoFormat; signal?: AbortSignal },
): Promise<void> {
  if (clips.length === 0) return;
  const spanMs = clips.reduce((sum, c) => sum + c.endMs - c.startMs, 0);
  await runProcess(tools.ffmpeg, clipsArgs(input, clips, o), {
    signal: o.signal,
    timeoutMs: budget(spanMs),
  });
}

/** Stops reading a subtitle track at its cap: what was read is kept. */
class TrackCap extends Error {}

/** A subtitle track's cues; `cut` when the track or a cue was over its cap (not a failure). */
export async function readSubtitleCues(
  tools: MediaTools,
  input: string,
  streamIndex: number,
  format: VideoFormat,
  signal?: AbortSignal,
): Promise<CaptionTrack> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let capped = false;
  try {
    await runProcess(tools.ffmpeg, subtitleArgs(input, streamIndex, format), {
      signal,
      timeoutMs: 10 * 60_000,
      onStdout(chunk) {
        const room = CAPTION_TRACK_READ_MAX_BYTES - bytes;
        chunks.push(chunk.subarray(0, room));
        bytes += Math.min(room, chunk.length);
        if (chunk.length > room) throw new TrackCap();
      },
    });
  } catch (err) {
    if (!(err instanceof TrackCap)) throw err;
    capped = true;
  }
  const track = parseCaptionTrack(Buffer.concat(chunks).toString('utf8'));
  return { cues: track.cues, cut: track.cut || capped };
}

export async function extractSpeechAudio(
  tools: MediaTools,
  input: string,
  output: string,
  o: { durationMs: number; format: VideoFormat; signal?: AbortSignal },
): Promise<void> {
  await runProcess(tools.ffmpeg, speechAudioArgs(input, output, o.format), {
    signal: o.signal,
    timeoutMs: budget(o.durationMs),
  });
}
