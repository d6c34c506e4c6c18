import { describe, expect, it } from 'vitest';
import { VIDEO_MAX_FPS, VIDEO_MAX_PIXEL_RATE, VIDEO_MAX_SIDE } from '../limits.ts';
import { NotAVideoError, parseProbe, VideoOverLimitError } from './probe.ts';

const probe = (width: number, height: number, rate: string): string =>
  JSON.stringify({
    format: { format_name: 'matroska,webm', duration: '172800' },
    streams: [
      { index: 0, codec_type: 'video', codec_name: 'h264', width, height, avg_frame_rate: rate },
    ],
  });

describe('video limits at the probe', () => {
  it('accepts 8K at 30 fps, 4K at 120 and 1080p at 240', () => {
    expect(parseProbe(probe(7680, 4320, '30/1')).width).toBe(7680);
    expect(parseProbe(probe(3840, 2160, '120/1')).frameRate).toBe(120);
    expect(parseProbe(probe(1920, 1080, '240/1')).frameRate).toBe(240);
  });

  it('refuses a 16,000 px picture, 1,000 fps and 8K at 60 as not a video, saying why', () => {
    const refused = (json: string): VideoOverLimitError => {
      try {
        parseProbe(json);
      } catch (err) {
        expect(err).toBeInstanceOf(NotAVideoError);
        expect(err).toBeInstanceOf(VideoOverLimitError);
        return err as VideoOverLimitError;
      }
      throw new Error('accepted');
    };
    expect(refused(probe(16000, 16000, '25/1')).message).toBe(
      `its picture is 16000 x 16000 pixels; at most ${VIDEO_MAX_SIDE} pixels a side are accepted`,
    );
    expect(refused(probe(320, 240, '1000/1')).message).toBe(
      `it has 1,000 frames a second; at most ${VIDEO_MAX_FPS} are accepted`,
    );
    expect(refused(probe(7680, 4320, '60/1')).message).toMatch(
      /^its 7680 x 4320 picture at 60 frames a second is more than 1,000 million pixels a second/,
    );
    expect(7680 * 4320 * 60).toBeGreaterThan(VIDEO_MAX_PIXEL_RATE);
  });
});
