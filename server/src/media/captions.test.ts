import { describe, expect, it } from 'vitest';
import { CAPTION_CUE_MAX_CHARS, CAPTION_TRACK_MAX_CHARS } from '../limits.ts';
import { parseCaptionTrack, parseWebVtt, stripTags } from './captions.ts';

const cue = (i: number, text: string): string =>
  `00:00:${String(i % 60).padStart(2, '0')}.000 --> 00:00:${String(i % 60).padStart(2, '0')}.500\n${text}`;

describe('caption parsing of hostile tracks', () => {
  it('strips tags as before, keeping text that only looks like markup', () => {
    expect(stripTags('<i>Hello</i> <c.yellow>there</c>')).toBe('Hello there');
    expect(stripTags('a <> b < c')).toBe('a <> b < c');
    expect(stripTags('<<b>x')).toBe('x');
    expect(stripTags('1 < 2 and 3 > 2')).toBe('1  2');
  });

  // The old /<[^>]+>/g took about 25 s a line here (quadratic): the server froze meanwhile.
  it('reads three lines of 150,000 "<" in one pass, each cue cut to its cap', () => {
    const flood = '<'.repeat(150_000);
    const track = parseCaptionTrack(
      `WEBVTT\n\n${cue(1, flood)}\n\n${cue(2, `${flood}\n${flood}`)}\n`,
    );
    expect(track.cut).toBe(true);
    expect(track.cues.map((c) => c.text.length)).toEqual([
      CAPTION_CUE_MAX_CHARS,
      CAPTION_CUE_MAX_CHARS,
    ]);
    expect(track.cues[0]!.text).toBe('<'.repeat(CAPTION_CUE_MAX_CHARS));
  }, 5_000);

  it('cuts a track over its cap, keeping the cues before it, and says so', () => {
    const text = 'x'.repeat(CAPTION_CUE_MAX_CHARS);
    const count = Math.ceil(CAPTION_TRACK_MAX_CHARS / text.length) + 50;
    const vtt = `WEBVTT\n\n${Array.from({ length: count }, (_, i) => cue(i, text)).join('\n\n')}\n`;
    const track = parseCaptionTrack(vtt);
    expect(track.cut).toBe(true);
    expect(track.cues.length).toBe(CAPTION_TRACK_MAX_CHARS / CAPTION_CUE_MAX_CHARS);
    const small = parseCaptionTrack(`WEBVTT\n\n${cue(1, 'Hi')}\n`);
    expect(small).toEqual({ cues: [{ startMs: 1000, endMs: 1500, text: 'Hi' }], cut: false });
    expect(parseWebVtt(`WEBVTT\n\n${cue(1, 'Hi')}\n`)).toEqual(small.cues);
  });
});
