// Every ffmpeg/ffprobe run opens its inputs with local files only and the container whitelist,
// and every run after the probe forces the container the probe found.
import { describe, expect, it } from 'vitest';
import { thumbnailArgs } from '../report/thumbnail.ts';
import { trailerArgs } from '../trailer/ffmpeg-args.ts';
import {
  analysisPassArgs,
  clipsArgs,
  decodeArgs,
  imageInputArgs,
  pictureArgs,
  probeArgs,
  renditionArgs,
  speechAudioArgs,
  subtitleArgs,
  videoInputArgs,
  type VideoFormat,
} from './args.ts';
import { NotAVideoError, parseProbe } from './probe.ts';

/** The options given before each -i (since the previous input), by input. */
function inputOptions(args: string[]): { input: string; options: string[] }[] {
  const found: { input: string; options: string[] }[] = [];
  let since = 0;
  args.forEach((a, i) => {
    if (a !== '-i') return;
    found.push({ input: args[i + 1]!, options: args.slice(since, i) });
    since = i + 2;
  });
  return found;
}

function expectOpened(args: string[], format: VideoFormat | undefined): void {
  const inputs = inputOptions(args);
  expect(inputs.length).toBeGreaterThan(0);
  for (const { options } of inputs) {
    const at = options.indexOf('-protocol_whitelist');
    expect(options[at + 1]).toBe('file');
    expect(options[options.indexOf('-format_whitelist') + 1]).toBe('mov,matroska');
    if (format) expect(options[options.indexOf('-f') + 1]).toBe(format);
    if (format) expect(options[options.indexOf('-max_pixels') + 1]).toBe(String(8192 * 8192));
    else expect(options).not.toContain('-f');
  }
}

describe('how runs open their inputs', () => {
  it('probes with the whitelists and guesses nothing else', () => {
    expectOpened(probeArgs('/in/x.mp4'), undefined);
    expect(videoInputArgs('/x', 'matroska')).toEqual([
      '-protocol_whitelist',
      'file',
      '-format_whitelist',
      'mov,matroska',
      '-max_pixels',
      String(8192 * 8192),
      '-f',
      'matroska',
      '-i',
      '/x',
    ]);
    expect(probeArgs('/x')).not.toContain('-max_pixels');
  });

  it('forces the probed container on every later run', () => {
    const format: VideoFormat = 'matroska';
    const pass = {
      statsFps: 10,
      gridFps: 4,
      frameMaxWidth: 640,
      framePattern: '/t/f%06d.jpg',
      referenceOnly: true,
      countFile: '/t/n.raw',
    };
    expectOpened(analysisPassArgs('/in', { ...pass, format }), format);
    expectOpened(renditionArgs('/in', '/out', { hasAudio: true, maxHeight: 720, format }), format);
    const clips = [0, 1000].map((startMs) => ({ startMs, endMs: startMs + 1000, output: '/o' }));
    expectOpened(clipsArgs('/in', clips, { hasAudio: false, format }), format);
    expectOpened(subtitleArgs('/in', 2, format), format);
    expectOpened(speechAudioArgs('/in', '/out', format), format);
    expectOpened(decodeArgs('/in', format), format);
    const trailer = trailerArgs(
      '/in',
      '/out',
      [
        { idx: 0, startMs: 0, endMs: 2000 },
        { idx: 3, startMs: 5000, endMs: 7000 },
      ],
      {
        width: 320,
        height: 180,
        fps: 25,
        hasAudio: true,
        fadeMs: 500,
        xfade: false,
        container: format,
      },
    );
    expect(inputOptions(trailer)).toHaveLength(2);
    expectOpened(trailer, format);
  });

  it('opens a still image as one file, never as a numbered sequence', () => {
    expect(imageInputArgs('/f%06d.jpg')).toEqual([
      '-protocol_whitelist',
      'file',
      '-f',
      'image2',
      '-pattern_type',
      'none',
      '-i',
      '/f%06d.jpg',
    ]);
    const opts = inputOptions(thumbnailArgs('/a.jpg', 240))[0]!.options;
    expect(opts).toEqual(expect.arrayContaining(['-protocol_whitelist', 'file', 'image2']));
  });

  it('opens a people picture as the kind its magic bytes say, local files only, upright', () => {
    const demuxers = { jpg: 'jpeg_pipe', png: 'png_pipe', svg: 'svg_pipe' } as const;
    for (const kind of ['jpg', 'png', 'svg'] as const) {
      const args = pictureArgs('/p/1', { kind, maxSide: 1024 });
      const [opened] = inputOptions(args);
      expect(opened).toEqual({
        input: '/p/1',
        options: expect.arrayContaining(['-noautorotate', '-protocol_whitelist', 'file']),
      });
      const options = opened!.options;
      expect(options[options.indexOf('-f') + 1]).toBe(demuxers[kind]);
      expect(options[options.indexOf('-format_whitelist') + 1]).toBe(demuxers[kind]);
      expect(options[options.indexOf('-protocol_whitelist') + 1]).toBe('file');
    }
    const turned = pictureArgs('/p/1', { kind: 'jpg', maxSide: 1024, orientation: 6 });
    expect(turned[turned.indexOf('-vf') + 1]).toMatch(/^transpose=1,scale=.*1024/);
  });
});

describe('the container whitelist in the probe result', () => {
  const probe = (format_name: string): string =>
    JSON.stringify({
      format: { format_name, duration: '3' },
      streams: [{ index: 0, codec_type: 'video', codec_name: 'h264', width: 2, height: 2 }],
    });

  it('keeps the demuxer of MP4/QuickTime and Matroska/WebM files', () => {
    expect(parseProbe(probe('mov,mp4,m4a,3gp,3g2,mj2')).format).toBe('mov');
    expect(parseProbe(probe('matroska,webm')).format).toBe('matroska');
  });

  it('calls playlists, concat scripts and image sequences not a video', () => {
    for (const name of ['hls', 'concat', 'image2', 'jpeg_pipe', 'mjpeg', 'gif', 'mpegts', '']) {
      expect(() => parseProbe(probe(name))).toThrow(NotAVideoError);
    }
  });
});
