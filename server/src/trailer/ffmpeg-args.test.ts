import { describe, expect, it } from 'vitest';
import {
  fadeLength,
  fitSize,
  parseFilterNames,
  trailerArgs,
  trailerFps,
  trailerGraph,
  trailerLength,
  type TrailerFormat,
} from './ffmpeg-args.ts';

const format: TrailerFormat = {
  width: 320,
  height: 180,
  fps: 25,
  hasAudio: true,
  fadeMs: 500,
  xfade: true,
  container: 'mov',
};
const segments = [
  { idx: 1, startMs: 2000, endMs: 6000 },
  { idx: 4, startMs: 10_000, endMs: 13_000 },
  { idx: 6, startMs: 20_000, endMs: 22_000 },
];

describe('trailer ffmpeg arguments', () => {
  it('seeks each piece as its own input', () => {
    const args = trailerArgs('/in.mp4', '/out.mp4', segments, format);
    const open =
      '-protocol_whitelist file -format_whitelist mov,matroska -max_pixels 67108864 -f mov -i /in.mp4';
    expect(args.join(' ')).toContain(`-ss 2.000 -t 4.000 ${open} -ss 10.000 -t 3.000 ${open}`);
    expect(args.slice(-1)).toEqual(['/out.mp4']);
    expect(args).toEqual(expect.arrayContaining(['libx264', 'aac', '+faststart']));
  });

  it('chains xfade and acrossfade with offsets that account for the overlaps', () => {
    const graph = trailerGraph(segments, format);
    expect(graph).toContain('[v0][v1]xfade=transition=fade:duration=0.500:offset=3.500[vx1]');
    expect(graph).toContain('[vx1][v2]xfade=transition=fade:duration=0.500:offset=6.000[vout]');
    expect(graph).toContain('[ax1][a2]acrossfade=d=0.500:c1=tri:c2=tri[aout]');
    expect(trailerLength(segments, format)).toBe(9000 - 1000);
  });

  it('fades every piece and concatenates when xfade is missing (ffmpeg 4.1)', () => {
    const graph = trailerGraph(segments, { ...format, xfade: false });
    expect(graph).not.toContain('xfade');
    expect(graph).not.toContain('tpad');
    expect(graph).toContain('fade=t=out:st=2.500:d=0.500[v1]');
    expect(graph).toContain('[v0][a0][v1][a1][v2][a2]concat=n=3:v=1:a=1[vout][aout]');
    expect(trailerLength(segments, { ...format, xfade: false })).toBe(9000);
  });

  it('makes a silent track when the source has no audio', () => {
    const graph = trailerGraph(segments, { ...format, hasAudio: false });
    expect(graph).not.toContain(':a:0]');
    expect(graph).toContain('anullsrc=r=48000:cl=stereo,atrim=duration=4.000');
  });

  it('passes a single piece through', () => {
    const graph = trailerGraph([segments[0]!], format);
    expect(graph).toContain('[v0]null[vout]');
    expect(graph).toContain('[a0]anull[aout]');
  });

  it('shortens the fade for short pieces', () => {
    expect(fadeLength([{ idx: 0, startMs: 0, endMs: 1000 }], 500)).toBe(250);
  });

  it('keeps sizes even and within the height bound', () => {
    expect(fitSize(1920, 1080, 720)).toEqual({ width: 1280, height: 720 });
    expect(fitSize(321, 241, 720)).toEqual({ width: 322, height: 242 });
    expect(fitSize(undefined, undefined, 720)).toEqual({ width: 640, height: 360 });
    expect(trailerFps(29.97)).toBe(29.97);
    expect(trailerFps(240)).toBe(60);
    expect(trailerFps(undefined)).toBe(25);
  });

  it('reads filter names from the ffmpeg -filters listing', () => {
    const names = parseFilterNames(
      'Filters:\n  T.. = Timeline support\n ... acrossfade        AA->A      Cross fade\n' +
        ' .S. xfade             VV->V      Cross fade one video\n TSC tpad   V->V  Pad\n',
    );
    expect([...names].sort()).toEqual(['acrossfade', 'tpad', 'xfade']);
  });
});
