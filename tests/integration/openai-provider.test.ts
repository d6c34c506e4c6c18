// The openai provider against a real local HTTP server speaking the protocol.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../server/src/analysis/create.ts';
import { AiProviderError } from '../../server/src/analysis/openai/client.ts';
import { OpenAiProvider } from '../../server/src/analysis/openai/openai-provider.ts';
import { EMBEDDING_DIM, type VideoEvidence } from '../../server/src/analysis/provider.ts';
import { loadConfig } from '../../server/src/config.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../support/openai-server.ts';

let fake: FakeOpenAi;
let dir: string;
const fast = { retries: 2, timeoutMs: 5000 };

function provider(baseUrl = fake.url): OpenAiProvider {
  return new OpenAiProvider(
    loadConfig({
      AI_PROVIDER: 'openai',
      AI_BASE_URL: baseUrl,
      AI_API_KEY: 'sk-test',
      AI_MODEL: 'vision-1',
    }).ai,
    fast,
  );
}

function evidence(): VideoEvidence {
  const frame = (name: string): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    return file;
  };
  const scene = (index: number, captions: string) => ({
    index,
    startMs: index * 4000,
    endMs: (index + 1) * 4000,
    framePaths: [frame(`s${index}a.jpg`), frame(`s${index}b.jpg`), frame(`s${index}c.jpg`)],
    captions,
    visual: { brightness: 0.2, motion: 0.4, dominantColors: ['black', 'red'] },
  });
  return {
    filename: 'harbour.mp4',
    outputLanguage: 'ja',
    aboutThisVideo: 'Summer festival',
    people: [{ name: 'Maria', imagePath: frame('maria.png') }],
    durationSec: 8,
    width: 1280,
    height: 720,
    creationDate: undefined,
    captions: [{ startMs: 0, endMs: 4000, text: 'fireworks start' }],
    scenes: [scene(0, 'fireworks start'), scene(1, '')],
  };
}

beforeAll(async () => {
  fake = await startFakeOpenAi();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-openai-'));
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.failNext(0, 500);
  fake.embeddingDim = 384;
  fake.dimensionsHonoured = true;
});

describe('openai provider', () => {
  it('is what createProvider gives for AI_PROVIDER=openai', () => {
    const config = loadConfig({ AI_PROVIDER: 'openai', AI_BASE_URL: fake.url });
    expect(createProvider(config)).toBeInstanceOf(OpenAiProvider);
    expect(() => createProvider(loadConfig({ AI_PROVIDER: 'openai' }))).toThrow(/AI_BASE_URL/);
  });

  it('describes scenes from frames and the video from everything, in the output language', async () => {
    const result = await provider().understand(evidence());
    expect(result.sceneDescriptions).toEqual([
      // 1 person image + 2 of 3 frames for each of 2 scenes
      'Model view of scene 0 (5 images): fireworks start',
      'Model view of scene 1 (5 images)',
    ]);
    expect(result.title).toBe('Model title for harbour.mp4');
    expect(result.summary).toContain('About: Summer festival');
    expect(result.tags).toEqual(['harbour', 'fireworks', '#festival', '#summernight']);
    const chats = fake.requests.filter((r) => r.path === '/chat/completions');
    expect(chats).toHaveLength(2);
    expect(chats[0]!.body.model).toBe('vision-1');
    expect(chats[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(JSON.stringify(chats[0]!.body.messages)).toContain('Write in Japanese');
    expect(JSON.stringify(chats[0]!.body.messages)).toContain('data:image/png;base64,');
  });

  it('asks for 384 dimensions and returns unit vectors', async () => {
    const [a, b] = await provider().embed(['harbour fireworks', 'ramen']);
    expect(fake.requests[0]!.body.dimensions).toBe(EMBEDDING_DIM);
    for (const v of [a!, b!]) {
      expect(v).toHaveLength(EMBEDDING_DIM);
      expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    }
  });

  it('projects other dimensions to 384 the same way every time', async () => {
    fake.dimensionsHonoured = false;
    fake.embeddingDim = 1536;
    const [first] = await provider().embed(['harbour fireworks']);
    const [again] = await provider().embed(['harbour fireworks']);
    expect(first).toHaveLength(EMBEDDING_DIM);
    expect(Math.hypot(...first!)).toBeCloseTo(1, 6);
    expect(again).toEqual(first);
  });

  it('turns transcription segments into caption cues', async () => {
    const audio = path.join(dir, 'audio.m4a');
    fs.writeFileSync(audio, Buffer.alloc(2048, 1));
    const cues = await provider().transcribe(audio, 'en-US');
    expect(cues).toEqual([
      { startMs: 0, endMs: 1500, text: 'hello harbour.' },
      { startMs: 1500, endMs: 4000, text: 'fireworks tonight.' },
    ]);
    const req = fake.requests[0]!;
    expect(req.body).toMatchObject({ response_format: 'verbose_json', language: 'en', file: 2048 });
  });

  it('retries a 500 and then succeeds', async () => {
    fake.failNext(1, 500);
    const vectors = await provider().embed(['x']);
    expect(vectors).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
  });

  it('does not retry a refused request', async () => {
    fake.failNext(1, 401);
    await expect(provider().embed(['x'])).rejects.toThrow(/refused the request \(HTTP 401/);
    expect(fake.requests).toHaveLength(1);
  });

  it('fails clearly when the endpoint is down', async () => {
    const down = await startFakeOpenAi();
    await down.close();
    const err = await provider(down.url)
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AiProviderError);
    expect((err as Error).message).toMatch(/is unavailable after 3 attempts \(ECONNREFUSED\)/);
  });
});
