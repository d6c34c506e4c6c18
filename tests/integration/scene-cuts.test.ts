// The transitions issue 31 found missed or invented, each on a short generated video cut by the
// real analysis pass. The videos carry B-frames in a pyramid, so the pass decodes only their
// reference pictures, as it does for most uploads. Each of these failed on the detector before
// (found in brackets); the large set is bench/scene-detection.ts.
import { describe, it } from 'vitest';
import { resolveMediaTools } from '../../server/src/media/tools.ts';
import { analyseMadeVideo } from '../support/analysis-pass.ts';
import { makeVideo, type Segment } from '../support/media.ts';
import { cardVideo } from '../support/title-cards.ts';

const tools = resolveMediaTools({
  ffmpegPath: process.env.FFMPEG_PATH,
  ffprobePath: process.env.FFPROBE_PATH,
});

/** Each boundary found once within half a second, nothing else (analyseMadeVideo checks). */
async function cutsRight(segments: Segment[]): Promise<void> {
  const made = await makeVideo({
    segments,
    width: 160,
    height: 120,
    fps: 25,
    x264Params: 'bframes=3:b-pyramid=normal',
  });
  await analyseMadeVideo(tools.ffmpeg, made);
}

/** A flash of `seconds` from `at`: the picture bursts towards white, then is the same shot. */
const flash = (at: number, seconds: number): string =>
  `lutyuv=y='min(255,val*1.6+100)':enable='between(t,${at},${at + seconds})'`;

describe('scene cuts', () => {
  it('finds wipes from the side and from the top, also into a flat colour', async () => {
    // [one of three, 1.7 s after the first wipe]
    await cutsRight([
      { source: 'smptebars', seconds: 3 },
      {
        source: 'yuvtestsrc',
        seconds: 3.5,
        transition: { kind: 'wipe', seconds: 1, from: 'left' },
      },
      { source: 'testsrc', seconds: 4, transition: { kind: 'wipe', seconds: 1.5, from: 'top' } },
      {
        source: 'color=c=navy',
        seconds: 3,
        transition: { kind: 'wipe', seconds: 0.8, from: 'right' },
      },
    ]);
  });

  it('finds fades through white as well as through black', async () => {
    // [the 1 s fade through white missed]
    await cutsRight([
      { source: 'testsrc', seconds: 3 },
      { source: 'smptebars', seconds: 3, transition: { kind: 'fade', seconds: 1, color: 'white' } },
      {
        source: 'rgbtestsrc',
        seconds: 3,
        transition: { kind: 'fade', seconds: 0.6, color: 'white' },
      },
      { source: 'color=c=navy', seconds: 3, transition: { kind: 'fade', seconds: 1.4 } },
    ]);
  });

  it('does not cut at flashes of one to five frames, in still, animated and panning shots', async () => {
    // [three flashes cut: 2.7 s, 5.5 s, 9.3 s]
    await cutsRight([
      { source: 'testsrc2', seconds: 4, extra: `${flash(1.3, 0.07)},${flash(2.7, 0.19)}` },
      {
        source: 'smptebars',
        seconds: 4,
        extra:
          "scale=2*iw:2*ih,crop=iw/2:ih/2:x='(iw-ow)*(0.5+0.5*sin(t))':y=0," + flash(1.5, 0.19),
      },
      { source: 'rgbtestsrc', seconds: 3, extra: flash(1.2, 0.07) },
    ]);
  });

  it('cuts title cards whose hue and title change at the same brightness', async () => {
    // Seed 3: lavender, sage, pink, lavender, mint, all of one brightness [one cut of four].
    const video = cardVideo(3, { count: 5, height: 120, sameBrightness: 1, cutShare: 1 });
    await cutsRight(video.segments);
  });
});
