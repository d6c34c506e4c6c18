// Title cards of one layout cut to each other (issue 16): a light card with dark text to a dark
// card with light text, the reverse, the same hue at another lightness. The whole picture
// darkens or brightens at once, which the detector used to take for the first step of a fade.
// A fade through black and a dissolve between cards in the same video stay one boundary each.
// Real ffmpeg (drawtext) and the real analysis pass; the large set is bench/scene-detection.ts.
import { describe, expect, it } from 'vitest';
import { resolveMediaTools } from '../../server/src/media/tools.ts';
import { analyseMadeVideo } from '../support/analysis-pass.ts';
import { makeVideo } from '../support/media.ts';
import { cardVideo } from '../support/title-cards.ts';

const tools = resolveMediaTools({
  ffmpegPath: process.env.FFMPEG_PATH,
  ffprobePath: process.env.FFPROBE_PATH,
});

describe('title card cuts', () => {
  it('cuts every card change once, fades and dissolves included', async () => {
    // Seven cards: cuts of each kind, one fade through black, one dissolve.
    const video = cardVideo(SEED, { count: 7, height: 120 });
    expect(video.kinds.map((k) => k.replace(/[\d.]+$/, '')).sort()).toEqual(KINDS);
    const made = await makeVideo({ segments: video.segments, width: 160, height: 120, fps: 25 });
    // One found boundary per true one, each within half a second.
    await analyseMadeVideo(tools.ffmpeg, made);
  });
});

const SEED = 41;
const KINDS = [
  'cut:dark-to-light',
  'cut:light-to-dark',
  'cut:same-hue',
  'cut:same-hue',
  'dissolve',
  'fade',
];
