import { describe, expect, it } from 'vitest';
import { imageCacheKey, isCachedCaptions, isCachedImage } from './image-cache-rules.ts';

const origin = 'https://app.example';

describe('image cache rules', () => {
  it('keys an image by its path, without the signed query string', () => {
    const a = `${origin}/assets/data/output/7/thumb.jpg?exp=1700000000&sig=abc`;
    const b = `${origin}/assets/data/output/7/thumb.jpg?exp=1700009999&sig=def#x`;
    expect(imageCacheKey(a)).toBe(`${origin}/assets/data/output/7/thumb.jpg`);
    expect(imageCacheKey(a)).toBe(imageCacheKey(b));
    expect(imageCacheKey(`${origin}/assets/data/output/8/thumb.jpg?sig=abc`)).not.toBe(
      imageCacheKey(a),
    );
  });

  it('caches thumbnails and frames of this origin only, not videos, reports or API answers', () => {
    const yes = [
      '/assets/data/output/7/scenes/1/frame-3.png?sig=x',
      '/assets/data/input/7/thumb.JPEG',
    ];
    const no = [
      '/assets/data/output/7/video.mp4?sig=x',
      '/assets/data/output/7/report/report.html',
      '/api/videos',
    ];
    for (const path of yes) expect(isCachedImage(new URL(path, origin), origin)).toBe(true);
    for (const path of no) expect(isCachedImage(new URL(path, origin), origin)).toBe(false);
    expect(isCachedImage(new URL('https://cdn.example/assets/data/output/1/a.jpg'), origin)).toBe(
      false,
    );
  });

  it('keeps the captions track of a video, and no other text file', () => {
    const url = (path: string) => new URL(path, origin);
    expect(isCachedCaptions(url('/assets/data/output/7/captions.vtt?sig=x'), origin)).toBe(true);
    expect(isCachedCaptions(url('/assets/data/output/7/captions.srt?sig=x'), origin)).toBe(false);
    expect(isCachedCaptions(url('/assets/data/output/7/scenes.csv'), origin)).toBe(false);
    expect(
      isCachedCaptions(new URL('https://cdn.example/assets/data/output/7/c.vtt'), origin),
    ).toBe(false);
  });
});
