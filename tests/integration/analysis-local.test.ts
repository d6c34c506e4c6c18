// The local provider: words only from what was measured or written, in the output language;
// deterministic lexical vectors where related texts lie closer than unrelated ones.
import { describe, expect, it } from 'vitest';
import { createProvider } from '../../server/src/analysis/create.ts';
import { LocalProvider } from '../../server/src/analysis/local/local-provider.ts';
import type { VideoEvidence } from '../../server/src/analysis/provider.ts';
import { loadConfig } from '../../server/src/config.ts';

function evidence(over: Partial<VideoEvidence> = {}): VideoEvidence {
  return {
    filename: 'harbour_fireworks-2024.mp4',
    outputLanguage: 'en',
    aboutThisVideo: 'Fireworks at the summer festival in Yokohama harbour. Filmed from the pier.',
    people: [{ name: 'Maria Lopez', imagePath: '/nowhere.jpg' }],
    durationSec: 83.4,
    width: 1280,
    height: 720,
    creationDate: '2024-07-20T19:30:00Z',
    captions: [
      { startMs: 0, endMs: 2000, text: 'The fireworks start at eight.' },
      { startMs: 2000, endMs: 4000, text: 'Red fireworks over the water!' },
    ],
    scenes: [
      {
        index: 0,
        startMs: 0,
        endMs: 4000,
        framePaths: [],
        captions: 'The fireworks start at eight.',
        visual: { brightness: 0.1, motion: 0.3, dominantColors: ['black', 'red'] },
      },
      {
        index: 1,
        startMs: 4000,
        endMs: 83400,
        framePaths: [],
        captions: '',
        onScreenText: 'YOKOHAMA 2024',
        visual: { brightness: 0.7, motion: 0.01, dominantColors: ['blue'] },
      },
    ],
    ...over,
  };
}

const provider = new LocalProvider();
const cos = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('local provider', () => {
  it('is the default provider', () => {
    expect(createProvider(loadConfig({})).name).toBe('local');
  });

  it('writes English from the measurements and the uploader text', async () => {
    const u = await provider.understand(evidence());
    // The uploader's key phrases and words, not their first sentence copied.
    expect(u.title).toBe('Summer festival, Yokohama harbour and Fireworks');
    expect(u.summary).toContain('1 min 23 s 1280×720 video recorded on 2024-07-20');
    expect(u.summary).toContain('People named by the uploader: Maria Lopez.');
    expect(u.summary).toContain('On-screen text reads “YOKOHAMA 2024”');
    expect(u.tags).toEqual(
      expect.arrayContaining(['Maria Lopez', 'summer festival', 'fireworks', '#fireworks']),
    );
    expect(u.sceneDescriptions[0]).toBe(
      'Scene 0, 00:00:00.000–00:00:04.000 (4 s): dark picture, mostly black and red, a lot of movement. Captions: “The fireworks start at eight.”',
    );
    expect(u.sceneDescriptions[1]).toContain('bright picture, mostly blue, almost no movement');
  });

  it('writes Japanese when the output language is ja', async () => {
    const u = await provider.understand(
      evidence({
        outputLanguage: 'ja',
        aboutThisVideo: '横浜港の夏祭りで打ち上げられた花火です。桟橋から撮影しました。',
        captions: [{ startMs: 0, endMs: 1000, text: '花火が始まります。赤い花火がきれいですね。' }],
      }),
    );
    expect(u.title).toBe('打ち上げ、横浜、祭り');
    expect(u.summary).toContain('2024年7月20日に撮影された、長さ1分23秒・1280×720の動画です。');
    expect(u.summary).toContain('投稿者が指定した登場人物：Maria Lopez。');
    expect(u.tags).toEqual(expect.arrayContaining(['花火', '横浜', '#花火']));
    expect(u.sceneDescriptions[0]).toBe(
      'シーン0（00:00:00.000〜00:00:04.000、4秒）：暗めの映像で、主な色は黒、赤です。動きが多くあります。字幕：「The fireworks start at eight.」',
    );
  });

  it('says nothing it did not measure', async () => {
    const u = await provider.understand(
      evidence({
        aboutThisVideo: '',
        people: [],
        captions: [],
        scenes: [],
        creationDate: undefined,
        width: undefined,
        height: undefined,
      }),
    );
    expect(u.title).toBe('harbour fireworks 2024');
    expect(u.summary).toBe(
      'A 1 min 23 s video, in 1 scene (average shot 83.4 s). No captions or speech text were available.',
    );
    expect(u.tags).toEqual([]);
  });

  it('embeds deterministically into unit vectors where related texts are closer', async () => {
    const [a, b, c, a2] = await provider.embed([
      'fireworks over the harbour at night',
      'night fireworks above a harbor',
      'cooking ramen noodles in pork broth',
      'fireworks over the harbour at night',
    ]);
    expect(a).toHaveLength(384);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 9);
    expect(a2).toEqual(a);
    expect(cos(a!, b!)).toBeGreaterThan(cos(a!, c!) + 0.2);
    const [ja1, ja2, ja3] = await provider.embed([
      '東京タワーの夜景',
      '夜の東京タワー',
      'ラーメンを作る',
    ]);
    expect(cos(ja1!, ja2!)).toBeGreaterThan(cos(ja1!, ja3!) + 0.2);
    const [empty] = await provider.embed(['']);
    expect(empty!.every((x) => x === 0)).toBe(true);
  });

  it('names the video by a title card shown on screen, else by the words shown', async () => {
    const scenes = evidence().scenes;
    const shown = (lines: { text: string; size: number }[]): VideoEvidence =>
      evidence({
        aboutThisVideo: '',
        captions: [],
        people: [],
        scenes: [
          { ...scenes[0]!, captions: '' },
          {
            ...scenes[1]!,
            onScreenLines: lines,
            onScreenText: lines.map((l) => l.text).join(' / '),
          },
        ],
      });
    const card = await provider.understand(
      shown([
        { text: 'Gates open at seven', size: 0.04 },
        { text: 'HARBOUR FESTIVAL', size: 0.09 },
      ]),
    );
    expect(card.title).toBe('HARBOUR FESTIVAL');
    expect(card.sceneDescriptions[1]).toContain(
      'On-screen text reads “Gates open at seven / HARBOUR FESTIVAL”.',
    );
    // Tags are case folded, the recurring phrase before its words.
    expect(card.tags).toEqual(expect.arrayContaining(['harbour festival', 'gates open']));
    expect(card.tags).not.toContain('harbour');
    expect(card.tags).not.toContain('gates');
    // Of lines about as large, the earliest: titles come first.
    const later = shown([{ text: 'HARBOUR FESTIVAL', size: 0.09 }]);
    later.scenes[0]!.onScreenLines = [{ text: 'Opening night', size: 0.08 }];
    later.scenes[0]!.onScreenText = 'Opening night';
    expect((await provider.understand(later)).title).toBe('Opening night');
    // Subtitle-sized text is no title card: the words shown name the video.
    const small = await provider.understand(shown([{ text: 'Gates open at seven', size: 0.04 }]));
    expect(small.title).toBe('Video showing “Gates”, “seven” and “open”');
    const ja = await provider.understand({
      ...shown([{ text: '花火大会の会場', size: 0.04 }]),
      outputLanguage: 'ja',
    });
    expect(ja.title).toBe('「花火」「大会」「会場」が映る動画');
    expect(ja.sceneDescriptions[1]).toContain('画面上の文字：「花火大会の会場」。');
  });
});
