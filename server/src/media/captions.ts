// Caption cues from WebVTT (what ffmpeg makes of mov_text/subrip/ASS tracks) and back to WebVTT.
// The text comes from an uploaded file: parsing is linear in its length (no backtracking regular
// expression over a cue's text), and each cue and the whole track are capped.
import type { CaptionCue } from '../analysis/provider.ts';
import { CAPTION_CUE_MAX_CHARS, CAPTION_TRACK_MAX_CHARS } from '../limits.ts';
import { formatTimecode, parseTimecode } from './timecode.ts';

export interface CaptionTrack {
  cues: CaptionCue[];
  /** True when a cue or the track was over its cap and was cut. */
  cut: boolean;
}

/**
 * Drops `<...>` markup (WebVTT's <i>, <c.x>, <00:01.000>). One scan: after a `<` without a later
 * `>`, nothing further can be a tag, so a flood of `<` costs one pass (`/<[^>]+>/g` was quadratic).
 */
export function stripTags(line: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = line.indexOf('<', from);
    if (open < 0) break;
    const close = line.indexOf('>', open + 1);
    if (close < 0) break;
    if (close === open + 1) {
      // "<>" is text, as it was: keep it and look on after it.
      out += line.slice(from, close + 1);
    } else out += line.slice(from, open);
    from = close + 1;
  }
  return out + line.slice(from);
}

/** Cues of a WebVTT text, cut to CAPTION_CUE_MAX_CHARS each and CAPTION_TRACK_MAX_CHARS in all. */
export function parseCaptionTrack(text: string): CaptionTrack {
  const cues: CaptionCue[] = [];
  let cut = false;
  let total = 0;
  const blocks = text.replace(/\r\n?/g, '\n').split(/\n{2,}/);
  for (const block of blocks) {
    const lines = block.split('\n');
    const at = lines.findIndex((l) => l.includes('-->'));
    if (at < 0) continue;
    const [from, rest] = lines[at]!.split('-->');
    const startMs = parseTimecode(from ?? '');
    const endMs = parseTimecode((rest ?? '').trim().split(/\s+/)[0] ?? '');
    let body = lines
      .slice(at + 1)
      .map((l) => stripTags(l).trim())
      .filter(Boolean)
      .join('\n');
    if (startMs === undefined || endMs === undefined || !body) continue;
    if (body.length > CAPTION_CUE_MAX_CHARS) {
      body = body.slice(0, CAPTION_CUE_MAX_CHARS);
      cut = true;
    }
    if (total + body.length > CAPTION_TRACK_MAX_CHARS) {
      cut = true;
      break;
    }
    total += body.length;
    cues.push({ startMs, endMs: Math.max(startMs, endMs), text: body });
  }
  return { cues: cues.sort((a, b) => a.startMs - b.startMs), cut };
}

export function parseWebVtt(text: string): CaptionCue[] {
  return parseCaptionTrack(text).cues;
}

export function toWebVtt(cues: readonly CaptionCue[]): string {
  const body = cues
    .map((c) => `${formatTimecode(c.startMs)} --> ${formatTimecode(c.endMs)}\n${c.text}`)
    .join('\n\n');
  return `WEBVTT\n\n${body}\n`;
}

/** The caption text shown while a scene plays (cues overlapping its time range). */
export function captionsBetween(
  cues: readonly CaptionCue[],
  startMs: number,
  endMs: number,
): string {
  return cues
    .filter((c) => c.startMs < endMs && c.endMs > startMs)
    .map((c) => c.text)
    .join('\n');
}
