// The pure parts of the media layer (argument builders, probe parsing, captions, time codes,
// frame picking) and one real probe and one real scene detection through ffmpeg.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  analysisPassArgs,
  clipsArgs,
  probeArgs,
  renditionArgs,
  subtitleArgs,
} from '../../server/src/media/args.ts';
import { runAnalysisPass } from '../../server/src/media/analysis-pass.ts';
import { captionsBetween, parseWebVtt, toWebVtt } from '../../server/src/media/captions.ts';
import { cutClips, probeFile } from '../../server/src/media/operations.ts';
import { isBrowserPlayable, NotAVideoError, parseProbe } from '../../server/src/media/probe.ts';
import { runProcess } from '../../server/src/media/run.ts';
import { formatTimecode, parseTimecode } from '../../server/src/media/timecode.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';
import { colorIndex, COLOR_NAMES } from '../../server/src/media/visual.ts';
import { clipsPerRun } from '../../server/src/pipeline/media-steps.ts';
import { pickEvenly } from '../../server/src/pipeline/scenes-step.ts';
import { analyseMadeVideo } from '../support/analysis-pass.ts';
import { makeVideo, type MadeVideo } from '../support/media.ts';

const tools = resolveMediaTools({
  ffmpegPath: process.env.FFMPEG_PATH,
  ffprobePath: process.env.FFPROBE_PATH,
});

describe('argument builders', () => {
  it('cuts every clip of a batch by stream copy from its scene start, in one run', () => {
    const clips = [
      { startMs: 2500, endMs: 4000, output: 'a.mp4' },
      { startMs: 4000, endMs: 9000, output: 'b.mp4' },
    ];
    const args = clipsArgs('in.mp4', clips, { hasAudio: true, format: 'mov' });
    const opened = [
      '-protocol_whitelist',
      'file',
      '-format_whitelist',
      'mov,matroska',
      '-max_pixels',
      String(8192 * 8192),
      '-f',
      'mov',
    ];
    expect(args.slice(args.indexOf('-ss'), args.indexOf('-i') + 2)).toEqual([
      '-ss',
      '2.500',
      ...opened,
      '-i',
      'in.mp4',
    ]);
    expect(args.slice(args.lastIndexOf('-ss'), args.lastIndexOf('-i') + 2)).toEqual([
      '-ss',
      '4.000',
      ...opened,
      '-i',
      'in.mp4',
    ]);
    // Each output takes its own input's pictures and sound, for its own length.
    const b = args.indexOf('a.mp4') + 1;
    expect(args.slice(0, b)).toEqual(
      expect.arrayContaining(['-t', '1.500', '0:v:0', '0:a:0', 'copy', 'a.mp4']),
    );
    expect(args.slice(b)).toEqual(
      expect.arrayContaining(['-t', '5.000', '1:v:0', '1:a:0', 'copy', 'b.mp4']),
    );
    expect(args.slice(b)).not.toContain('0:v:0');
    expect(clipsArgs('in.mp4', clips, { hasAudio: false, format: 'mov' })).not.toContain('0:a:0');
  });

  it('bounds the video opened by one clip run: many clips of a short video, one of a long one', () => {
    expect(clipsPerRun(120_000)).toBe(16);
    expect(clipsPerRun(3_600_000)).toBe(4);
    expect(clipsPerRun(3 * 3_600_000)).toBe(1);
    expect(clipsPerRun(48 * 3_600_000)).toBe(1);
  });

  it('makes an H.264/AAC faststart rendition, audio only when there is some', () => {
    const args = renditionArgs('in.mov', 'out.mp4', {
      hasAudio: false,
      maxHeight: 1080,
      format: 'mov',
    });
    expect(args).toEqual(expect.arrayContaining(['libx264', '+faststart', 'out.mp4']));
    expect(args).not.toContain('aac');
    expect(
      renditionArgs('in.mov', 'o.mp4', { hasAudio: true, maxHeight: 720, format: 'mov' }),
    ).toContain('aac');
  });

  it('decodes once for measurement and candidate frames, without scdet', () => {
    const o = {
      statsFps: 10,
      gridFps: 4,
      frameMaxWidth: 640,
      framePattern: '/t/f%06d.jpg',
      format: 'mov' as const,
      referenceOnly: false,
      countFile: '/t/n.raw',
    };
    const args = analysisPassArgs('in.mp4', o);
    const graph = args[args.indexOf('-filter_complex') + 1]!;
    expect(graph).toContain('fps=10,scale=64:36');
    expect(graph).toContain('min(640,iw*sar)');
    expect(graph).not.toContain('scdet');
    expect(args).toContain('pipe:1');
    expect(args).toContain('/t/n.raw');
    expect(args.at(-1)).toBe('/t/f%06d.jpg');
    expect(args).not.toContain('noref');
    // Reference pictures only: a decoder option, so before the input.
    const skipping = analysisPassArgs('in.mp4', { ...o, referenceOnly: true });
    expect(skipping.indexOf('noref')).toBeGreaterThan(skipping.indexOf('-skip_frame'));
    expect(skipping.indexOf('noref')).toBeLessThan(skipping.indexOf('-i'));
  });

  it('reads one subtitle stream as WebVTT and probes as JSON', () => {
    expect(subtitleArgs('in.mp4', 2, 'mov')).toEqual(
      expect.arrayContaining(['-map', '0:2', 'webvtt', 'pipe:1']),
    );
    expect(probeArgs('x.mp4')).toEqual(
      expect.arrayContaining(['-show_streams', '-show_format', 'json']),
    );
  });
});

describe('probe parsing', () => {
  const probe = (streams: unknown[], format: Record<string, unknown> = {}): string =>
    JSON.stringify({
      format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '12.5', ...format },
      streams,
    });

  it('reads duration, size after rotation, codecs and creation date', () => {
    const p = parseProbe(
      probe(
        [
          {
            index: 0,
            codec_type: 'video',
            codec_name: 'h264',
            width: 1920,
            height: 1080,
            pix_fmt: 'yuv420p',
            avg_frame_rate: '30000/1001',
            side_data_list: [{ rotation: -90 }],
          },
          { index: 1, codec_type: 'audio', codec_name: 'aac' },
          { index: 2, codec_type: 'subtitle', codec_name: 'mov_text', tags: { language: 'eng' } },
        ],
        { tags: { creation_time: '2024-05-01T10:00:00.000000Z' } },
      ),
    );
    expect(p).toMatchObject({
      durationMs: 12500,
      width: 1080,
      height: 1920,
      rotation: 270,
      videoCodec: 'h264',
    });
    expect(p.creationDate).toBe('2024-05-01T10:00:00.000Z');
    expect(p.frameRate).toBeCloseTo(29.97, 2);
    expect(isBrowserPlayable(p)).toBe(true);
  });

  it('wants a rendition for HEVC, 10-bit or PCM audio', () => {
    const video = {
      index: 0,
      codec_type: 'video',
      codec_name: 'hevc',
      width: 10,
      height: 10,
      pix_fmt: 'yuv420p',
    };
    expect(isBrowserPlayable(parseProbe(probe([video])))).toBe(false);
    expect(
      isBrowserPlayable(
        parseProbe(probe([{ ...video, codec_name: 'h264', pix_fmt: 'yuv420p10le' }])),
      ),
    ).toBe(false);
    expect(
      isBrowserPlayable(
        parseProbe(
          probe([
            { ...video, codec_name: 'h264' },
            { index: 1, codec_type: 'audio', codec_name: 'pcm_s16le' },
          ]),
        ),
      ),
    ).toBe(false);
  });

  it('calls images, audio-only files and garbage not a video', () => {
    expect(() => parseProbe(probe([{ codec_type: 'audio', codec_name: 'mp3' }]))).toThrow(
      NotAVideoError,
    );
    expect(() =>
      parseProbe(probe([{ codec_type: 'video', codec_name: 'png' }], { format_name: 'png_pipe' })),
    ).toThrow(NotAVideoError);
    expect(() => parseProbe('not json')).toThrow(NotAVideoError);
  });
});

describe('captions and time codes', () => {
  it('formats and parses HH:mm:ss.SSS', () => {
    expect(formatTimecode(3_723_045)).toBe('01:02:03.045');
    expect(formatTimecode(0)).toBe('00:00:00.000');
    expect(parseTimecode('01:02:03.045')).toBe(3_723_045);
    expect(parseTimecode('02:03.500')).toBe(123_500);
    expect(parseTimecode('nope')).toBeUndefined();
  });

  it('round-trips WebVTT and picks the cues of a scene', () => {
    const cues = parseWebVtt(
      'WEBVTT\n\n1\n00:00:00.500 --> 00:00:01.500 align:start\n<i>Hello</i>\nthere\n\n00:03.000 --> 00:04.000\nBye\n',
    );
    expect(cues).toEqual([
      { startMs: 500, endMs: 1500, text: 'Hello\nthere' },
      { startMs: 3000, endMs: 4000, text: 'Bye' },
    ]);
    expect(parseWebVtt(toWebVtt(cues))).toEqual(cues);
    expect(captionsBetween(cues, 1000, 3500)).toBe('Hello\nthere\nBye');
    expect(captionsBetween(cues, 1500, 3000)).toBe('');
  });
});

describe('frames and colours', () => {
  it('picks at most the bounded count, evenly, or the nearest frame for a tiny scene', () => {
    expect(pickEvenly(0, 5, 12, 0)).toEqual([0, 1, 2, 3, 4]);
    const many = pickEvenly(10, 130, 12, 0);
    expect(many).toHaveLength(12);
    expect(many[0]).toBeGreaterThanOrEqual(10);
    expect(many.at(-1)).toBeLessThan(130);
    expect(pickEvenly(7, 7, 12, 6)).toEqual([6]);
  });

  it('names everyday colours', () => {
    const name = (r: number, g: number, b: number): string => COLOR_NAMES[colorIndex(r, g, b)]!;
    expect([name(0, 0, 0), name(255, 255, 255), name(128, 128, 128)]).toEqual([
      'black',
      'white',
      'grey',
    ]);
    expect([name(220, 20, 20), name(20, 200, 20), name(20, 20, 220), name(240, 220, 30)]).toEqual([
      'red',
      'green',
      'blue',
      'yellow',
    ]);
  });
});

describe('with ffmpeg', () => {
  it('probes a generated video and finds its cuts and fade', async () => {
    const made = await makeVideo({
      segments: [
        { source: 'smptebars', seconds: 2 },
        { source: 'testsrc', seconds: 2.5, transition: { kind: 'fade', seconds: 1 } },
        { source: 'color=c=orange', seconds: 2, transition: { kind: 'cut' } },
      ],
    });
    const p = await probeFile(tools, made.file);
    expect(p.durationMs).toBeGreaterThan(6000);
    expect([p.width, p.height, p.videoCodec]).toEqual([160, 120, 'h264']);
    const pass = await analyseMadeVideo(tools.ffmpeg, made, p);
    expect(pass.gridFrames.length).toBeGreaterThan(20);
    const orange = pass.visual.summarise(made.boundariesMs[1]! + 200, p.durationMs);
    expect(orange.dominantColors[0]).toBe('orange');
    expect(orange.motion).toBe(0);
  });

  const cutAndDissolve = [
    { source: 'smptebars', seconds: 3 },
    { source: 'testsrc2', seconds: 3, transition: { kind: 'dissolve' as const, seconds: 1 } },
    { source: 'color=c=orange', seconds: 3, transition: { kind: 'cut' as const } },
  ];

  /**
   * The analysis pass over a video with B-frames (x264 options `x264Params`) that cuts into a
   * dissolve and a cut: checks it finds both within half a second, and returns it with the count
   * of the video's pictures.
   */
  async function analyseCutAndDissolve(x264Params: string) {
    const made = await makeVideo({ segments: cutAndDissolve, x264Params });
    const pass = await analyseMadeVideo(tools.ffmpeg, made);
    return { pass, pictures: Math.round((made.durationMs / 1000) * 25), made };
  }

  it('decodes only the reference pictures of a video with B-frames, and cuts it the same', async () => {
    // B-frames two in three (x264's pyramid: the middle one of three is a reference).
    const { pass, pictures, made } = await analyseCutAndDissolve(
      'bframes=3:b-adapt=0:b-pyramid=normal',
    );
    expect(pass.decodedPictures).toBeLessThan(0.6 * pictures);
    expect(pass.gridFrames.length).toBe(Math.ceil((made.durationMs / 1000) * 4));
  });

  it('decodes every picture again when the references are too sparse to sample', async () => {
    // Sixteen B-frames that nothing refers to between P-frames: 1.5 references a second.
    const { pass, pictures } = await analyseCutAndDissolve('bframes=16:b-adapt=0:b-pyramid=none');
    expect(pass.decodedPictures).toBeGreaterThanOrEqual(pictures - 1);
  });

  /** Cuts a clip per scene of `made` (one run), then plays each: its sound, length and colours. */
  async function playClips(made: MadeVideo) {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-media-'));
    try {
      const spans = [0, ...made.boundariesMs, made.durationMs];
      const clips = spans.slice(1).map((endMs, i) => ({
        startMs: spans[i]!,
        endMs,
        output: path.join(workDir, `clip-${i}.mp4`),
      }));
      await cutClips(tools, made.file, clips, { hasAudio: true, format: 'mov' });
      const played = [];
      for (const clip of clips) {
        const pass = await runAnalysisPass({
          ffmpeg: tools.ffmpeg,
          input: clip.output,
          workDir,
          durationMs: clip.endMs,
          format: 'mov',
          minSceneMs: 1000,
        });
        const colour = (from: number, to: number) =>
          pass.visual.summarise(from, to).dominantColors[0];
        played.push({
          audio: (await probeFile(tools, clip.output)).audioCodec,
          seconds: Math.round(pass.decodedMs / 100) / 10,
          first: colour(0, 200),
          last: colour(pass.decodedMs - 800, pass.decodedMs),
        });
      }
      return played;
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  }

  it('cuts several scene clips in one run, each playing its own scene', async () => {
    const played = await playClips(
      await makeVideo({
        segments: [
          { source: 'smptebars', seconds: 2 },
          { source: 'testsrc', seconds: 3, transition: { kind: 'cut' } },
          { source: 'color=c=orange', seconds: 2, transition: { kind: 'cut' } },
        ],
        silentAudio: true,
      }),
    );
    expect(played.map((p) => p.audio)).toEqual(['aac', 'aac', 'aac']);
    // Each clip ends where its scene ends.
    expect(played.map((p) => p.seconds)).toEqual([2, 3, 2]);
    expect(played[2]!.last).toBe('orange');
    expect(played.slice(0, 2).map((p) => p.last)).not.toContain('orange');
  });

  it('starts each clip at its scene start, not at the keyframe before it', async () => {
    // One keyframe at 0 s only: the second and third scenes begin between keyframes.
    const played = await playClips(
      await makeVideo({
        segments: [
          { source: 'smptebars', seconds: 2 },
          { source: 'color=c=blue', seconds: 3, transition: { kind: 'cut' } },
          { source: 'color=c=orange', seconds: 2, transition: { kind: 'cut' } },
        ],
        silentAudio: true,
        keyframeSeconds: 10,
      }),
    );
    // A player shows the scene alone: it lasts as long, from its own first picture.
    expect(played.map((p) => p.seconds)).toEqual([2, 3, 2]);
    expect(played.slice(1).map((p) => p.first)).toEqual(['blue', 'orange']);
  });

  it('kills the process when aborted and reports a failed run with its stderr', async () => {
    const abort = new AbortController();
    const run = runProcess(
      tools.ffmpeg,
      ['-hide_banner', '-f', 'lavfi', '-i', 'testsrc=d=600', '-f', 'null', '-'],
      {
        signal: abort.signal,
      },
    );
    setTimeout(() => abort.abort(new Error('stop')), 200);
    await expect(run).rejects.toThrow('stop');
    await expect(runProcess(tools.ffprobe, ['/no/such/file.mp4'])).rejects.toThrow(/exited with 1/);
  });
});
