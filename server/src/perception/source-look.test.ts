import { describe, expect, it } from 'vitest';
import { aroundFace, overlap, sourceRegionArgs, union } from './source-look.ts';

describe('small faces looked at in the video', () => {
  it('looks in a square three times the face, inside the picture', () => {
    expect(aroundFace([300, 100, 40, 50], 640, 360)).toEqual({ x: 245, y: 50, w: 150, h: 150 });
    expect(aroundFace([600, 0, 40, 40], 640, 360)).toEqual({ x: 560, y: 0, w: 80, h: 80 });
  });

  it('decodes the part holding every small face once', () => {
    expect(
      union([
        { x: 10, y: 20, w: 30, h: 30 },
        { x: 100, y: 0, w: 10, h: 10 },
      ]),
    ).toEqual({ x: 10, y: 0, w: 100, h: 50 });
  });

  it('takes the face found again by the overlap of the boxes', () => {
    expect(overlap([0, 0, 10, 10], [0, 0, 10, 10])).toBe(1);
    expect(overlap([0, 0, 10, 10], [5, 0, 10, 10])).toBeCloseTo(1 / 3);
    expect(overlap([0, 0, 10, 10], [20, 20, 5, 5])).toBe(0);
  });

  it('seeks to the frame and crops by fractions before squaring the pixels', () => {
    const args = sourceRegionArgs(
      { ffmpeg: 'ffmpeg', file: '/v.mov', format: 'mov', width: 1920 },
      2250,
      { x: 0.5, y: 0.25, w: 0.125, h: 0.2 },
    );
    expect(args.slice(args.indexOf('-ss'), args.indexOf('-ss') + 2)).toEqual(['-ss', '2.250']);
    expect(args.indexOf('-ss')).toBeLessThan(args.indexOf('-i'));
    expect(args[args.indexOf('-vf') + 1]).toBe(
      "crop=w='iw*0.125000':h='ih*0.200000':x='iw*0.500000':y='ih*0.250000'," +
        "scale=w='max(2,trunc(iw*sar))':h=ih,setsar=1,format=rgb24",
    );
    expect(args).toContain('-frames:v');
  });
});
