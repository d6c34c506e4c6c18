// The captions as files: WebVTT (the same writer as the stored track) and SubRip, from the cues
// the detail carries (HH:mm:ss.SSS times).
import type { CaptionCue } from '../analysis/provider.ts';
import { toWebVtt } from '../media/captions.ts';
import { parseTimecode } from '../media/timecode.ts';

export interface TimedText {
  start_time: string;
  end_time: string;
  text: string;
}

/** Cues with times in ms; a cue whose times do not parse is left out. */
export function toCues(captions: readonly TimedText[]): CaptionCue[] {
  return captions.flatMap((c) => {
    const startMs = parseTimecode(c.start_time);
    const endMs = parseTimecode(c.end_time);
    return startMs === undefined || endMs === undefined ? [] : [{ startMs, endMs, text: c.text }];
  });
}

export function captionsVtt(captions: readonly TimedText[]): string {
  return toWebVtt(toCues(captions));
}

/** HH:MM:SS,mmm, as SubRip writes times. */
export function srtTime(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)},${pad(total % 1000, 3)}`;
}

/** SubRip: numbered cues from 1, CRLF line ends as Windows players expect, blank line between. */
export function captionsSrt(captions: readonly TimedText[]): string {
  return toCues(captions)
    .map((c, i) => {
      // A blank line ends a cue in SubRip: blank lines inside the text would split it.
      const text = c.text
        .replace(/\r\n?/g, '\n')
        .replace(/\n{2,}/g, '\n')
        .split('\n');
      return [String(i + 1), `${srtTime(c.startMs)} --> ${srtTime(c.endMs)}`, ...text].join('\r\n');
    })
    .map((cue) => `${cue}\r\n\r\n`)
    .join('');
}
