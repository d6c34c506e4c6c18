// Caption cues from WebVTT (what ffmpeg makes of mov_text/subrip tracks) and back to WebVTT.
import type { CaptionCue } from '../analysis/provider.ts';
import { formatTimecode, parseTimecode } from './timecode.ts';

const TAGS = /<[^>]+>/g;

export function parseWebVtt(text: string): CaptionCue[] {
  const cues: CaptionCue[] = [];
  const blocks = text.replace(/\r\n?/g, '\n').split(/\n{2,}/);
  for (const block of blocks) {
    const lines = block.split('\n');
    const at = lines.findIndex((l) => l.includes('-->'));
    if (at < 0) continue;
    const [from, rest] = lines[at]!.split('-->');
    const startMs = parseTimecode(from ?? '');
    const endMs = parseTimecode((rest ?? '').trim().split(/\s+/)[0] ?? '');
    const body = lines
      .slice(at + 1)
      .map((l) => l.replace(TAGS, '').trim())
      .filter(Boolean)
      .join('\n');
    if (startMs === undefined || endMs === undefined || !body) continue;
    cues.push({ startMs, endMs: Math.max(startMs, endMs), text: body });
  }
  return cues.sort((a, b) => a.startMs - b.startMs);
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
