// AI_PROVIDER=openai: any OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp, hosted).
// Scenes are described in batches by a vision chat model from sampled frames, captions and
// the uploader's context; then the video gets its title, summary and tags from the same
// evidence plus those descriptions. Embeddings and transcription use their own endpoints.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { answerSystemPrompt, readAnswer } from './answer-prompt.ts';
import type {
  AnalysisProvider,
  AnswerContext,
  CaptionCue,
  GroundedAnswer,
  SceneEvidence,
  VideoEvidence,
  VideoUnderstanding,
} from '../provider.ts';
import type OpenAI from 'openai';
import {
  AiProviderError,
  callEndpoint,
  createOpenAiClient,
  loadSdk,
  type ClientOptions,
} from './client.ts';
import { toEmbeddingDim } from './projection.ts';
import {
  imagePart,
  inputText,
  parseJsonObject,
  scenesSystemPrompt,
  stringList,
  videoSystemPrompt,
  type ChatMessage,
  type ContentPart,
} from './prompts.ts';
import { EMBEDDING_DIM } from '../provider.ts';

const SCENES_PER_CALL = 6;
const FRAMES_PER_SCENE = 2;
const VIDEO_FRAMES = 6;
const PEOPLE_IMAGES = 4;
const EMBED_BATCH = 64;
const MAX_CAPTION_CHARS = 4000;
const TIMEOUT = { chat: 180_000, embed: 60_000, transcribe: 600_000 };

export interface OpenAiTuning {
  /** Attempts after the first one (the SDK's backoff between them). */
  retries?: number;
  timeoutMs?: number;
}

function evenly<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor(((i + 0.5) * items.length) / n)]!);
}

export class OpenAiProvider implements AnalysisProvider {
  readonly name = 'openai' as const;
  /** The SDK's client, made at the first call (the SDK is not loaded before). */
  private sdkClient: Promise<OpenAI> | undefined;
  private readonly endpoint: ClientOptions;
  private readonly model: string;
  private readonly embeddingModel: string;
  private readonly transcribeModel: string;
  private readonly timeoutMs: number | undefined;
  private sendDimensions = true;

  constructor(ai: Config['ai'], tuning: OpenAiTuning = {}) {
    if (!ai.baseUrl) throw new AiProviderError('AI_PROVIDER=openai needs AI_BASE_URL');
    this.endpoint = { baseUrl: ai.baseUrl, apiKey: ai.apiKey, retries: tuning.retries ?? 3 };
    this.timeoutMs = tuning.timeoutMs;
    this.model = ai.model ?? 'gpt-4o-mini';
    this.embeddingModel = ai.embeddingModel ?? 'text-embedding-3-small';
    this.transcribeModel = ai.transcribeModel ?? 'whisper-1';
  }

  private client(): Promise<OpenAI> {
    return (this.sdkClient ??= createOpenAiClient(this.endpoint));
  }

  private async chat(messages: ChatMessage[]): Promise<Record<string, unknown>> {
    const answer = await callEndpoint(this.endpoint, async () =>
      (await this.client()).chat.completions.create(
        { model: this.model, messages, temperature: 0.2, response_format: { type: 'json_object' } },
        { timeout: this.timeoutMs ?? TIMEOUT.chat },
      ),
    );
    const content = answer.choices?.[0]?.message?.content;
    const parsed = typeof content === 'string' ? parseJsonObject(content) : undefined;
    if (!parsed) throw new AiProviderError(`model ${this.model} did not answer with a JSON object`);
    return parsed;
  }

  private async peopleParts(ev: VideoEvidence): Promise<ContentPart[]> {
    const parts: ContentPart[] = [];
    for (const person of ev.people.slice(0, PEOPLE_IMAGES)) {
      const img = await imagePart(person.imagePath);
      if (!img) continue;
      parts.push({ type: 'text', text: `Reference image of ${person.name}:` }, img);
    }
    return parts;
  }

  private async describeScenes(ev: VideoEvidence, people: ContentPart[]): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < ev.scenes.length; i += SCENES_PER_CALL) {
      const batch = ev.scenes.slice(i, i + SCENES_PER_CALL);
      const parts: ContentPart[] = [
        { type: 'text', text: inputText('Describe these scenes.', sceneInput(ev, batch)) },
        ...people,
      ];
      for (const scene of batch) {
        for (const frame of evenly(scene.framePaths, FRAMES_PER_SCENE)) {
          const img = await imagePart(frame);
          if (img) parts.push({ type: 'text', text: `Frame of scene ${scene.index}:` }, img);
        }
      }
      const answer = await this.chat([
        { role: 'system', content: scenesSystemPrompt(ev.outputLanguage) },
        { role: 'user', content: parts },
      ]);
      const byIndex = new Map<number, string>();
      if (Array.isArray(answer.scenes)) {
        for (const s of answer.scenes as unknown[]) {
          const rec = s as { index?: unknown; description?: unknown };
          if (typeof rec.index === 'number' && typeof rec.description === 'string') {
            byIndex.set(rec.index, rec.description.trim());
          }
        }
      }
      for (const scene of batch) {
        const text = byIndex.get(scene.index);
        if (!text) throw new AiProviderError(`model gave no description for scene ${scene.index}`);
        out.push(text);
      }
    }
    return out;
  }

  async understand(ev: VideoEvidence): Promise<VideoUnderstanding> {
    const people = await this.peopleParts(ev);
    const sceneDescriptions = await this.describeScenes(ev, people);
    const parts: ContentPart[] = [
      {
        type: 'text',
        text: inputText('Catalogue this video.', {
          ...videoFacts(ev),
          scenes: ev.scenes.map((s, i) => ({ index: s.index, description: sceneDescriptions[i] })),
        }),
      },
      ...people,
    ];
    for (const frame of evenly(
      ev.scenes.map((s) => s.framePaths[0]).filter(isString),
      VIDEO_FRAMES,
    )) {
      const img = await imagePart(frame);
      if (img) parts.push(img);
    }
    const answer = await this.chat([
      { role: 'system', content: videoSystemPrompt(ev.outputLanguage) },
      { role: 'user', content: parts },
    ]);
    const title = typeof answer.title === 'string' ? answer.title.trim() : '';
    const summary = typeof answer.summary === 'string' ? answer.summary.trim() : '';
    if (!title || !summary)
      throw new AiProviderError(`model ${this.model} gave no title or summary`);
    const social = stringList(answer.social_tags).map(
      (t) => '#' + t.replace(/^#+/, '').replace(/\s+/g, ''),
    );
    const tags = [...new Set([...stringList(answer.tags), ...social])];
    return { title: title.slice(0, 200), summary, tags, sceneDescriptions };
  }

  async answer(question: string, context: AnswerContext): Promise<GroundedAnswer> {
    const answer = await this.chat([
      { role: 'system', content: answerSystemPrompt(context.language) },
      { role: 'user', content: inputText('Answer this question.', { question, video: context }) },
    ]);
    const found = readAnswer(answer, new Set(context.scenes.map((s) => s.index)));
    if (!found) throw new AiProviderError(`model ${this.model} gave no answer`);
    return found;
  }

  async embed(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      const input = texts.slice(i, i + EMBED_BATCH).map((t) => t || ' ');
      const data = await this.embedBatch(input);
      out.push(...data.map(toEmbeddingDim));
    }
    return out;
  }

  private async embedBatch(input: string[]): Promise<number[][]> {
    type Answer = { data?: { index?: number; embedding?: unknown }[] };
    const ask = (withDims: boolean): Promise<Answer> =>
      callEndpoint(this.endpoint, async () =>
        (await this.client()).embeddings.create(
          {
            model: this.embeddingModel,
            input,
            // Plain numbers: not every compatible server speaks the SDK's default base64.
            encoding_format: 'float',
            ...(withDims ? { dimensions: EMBEDDING_DIM } : {}),
          },
          { timeout: this.timeoutMs ?? TIMEOUT.embed },
        ),
      );
    let answer: Answer;
    try {
      answer = await ask(this.sendDimensions);
    } catch (err) {
      // Some servers reject the `dimensions` field: ask again without it and project instead.
      if (!(err instanceof AiProviderError && err.status === 400 && this.sendDimensions)) throw err;
      this.sendDimensions = false;
      answer = await ask(false);
    }
    const rows = [...(answer.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    if (rows.length !== input.length) {
      throw new AiProviderError(
        `embeddings endpoint returned ${rows.length} vectors for ${input.length} texts`,
      );
    }
    return rows.map((r) => {
      if (!Array.isArray(r.embedding) || !r.embedding.every((x) => typeof x === 'number')) {
        throw new AiProviderError('embeddings endpoint returned a malformed vector');
      }
      return r.embedding as number[];
    });
  }

  async transcribe(audioPath: string, language: string): Promise<CaptionCue[]> {
    const data = await fs.readFile(audioPath);
    type Answer = {
      text?: string;
      duration?: number;
      segments?: { start: number; end: number; text: string }[];
    };
    const file = await (await loadSdk()).toFile(data, path.basename(audioPath));
    const answer: Answer = await callEndpoint(this.endpoint, async () =>
      (await this.client()).audio.transcriptions.create(
        {
          file,
          model: this.transcribeModel,
          response_format: 'verbose_json',
          ...(language ? { language: language.split(/[-_]/)[0]! } : {}),
        },
        { timeout: this.timeoutMs ?? TIMEOUT.transcribe },
      ),
    );
    if (Array.isArray(answer.segments)) {
      return answer.segments
        .filter((s) => typeof s.text === 'string' && s.text.trim())
        .map((s) => ({
          startMs: Math.round(s.start * 1000),
          endMs: Math.round(s.end * 1000),
          text: s.text.trim(),
        }));
    }
    const text = answer.text?.trim();
    return text ? [{ startMs: 0, endMs: Math.round((answer.duration ?? 0) * 1000), text }] : [];
  }
}

function isString(v: unknown): v is string {
  return typeof v === 'string';
}

function videoFacts(ev: VideoEvidence) {
  const captions = ev.captions.map((c) => c.text).join(' ');
  return {
    filename: ev.filename,
    duration_seconds: Math.round(ev.durationSec),
    resolution: ev.width && ev.height ? `${ev.width}x${ev.height}` : undefined,
    recorded: ev.creationDate,
    uploader_about_this_video: ev.aboutThisVideo || undefined,
    people: ev.people.map((p) => p.name),
    people_recognised_by_face: [...new Set(ev.scenes.flatMap((s) => s.people ?? []))],
    captions: captions.slice(0, MAX_CAPTION_CHARS) || undefined,
  };
}

function sceneInput(ev: VideoEvidence, batch: SceneEvidence[]) {
  return {
    uploader_about_this_video: ev.aboutThisVideo || undefined,
    people: ev.people.map((p) => p.name),
    scenes: batch.map((s) => ({
      index: s.index,
      start_seconds: s.startMs / 1000,
      end_seconds: s.endMs / 1000,
      captions: s.captions || undefined,
      on_screen_text: s.onScreenText || undefined,
      brightness: Math.round(s.visual.brightness * 100) / 100,
      motion: Math.round(s.visual.motion * 100) / 100,
      dominant_colors: s.visual.dominantColors,
      // Facts from the local face and object pass (issue 16): faces matched to the people
      // images, faces of others counted, COCO objects seen on several frames.
      people_recognised_by_face: s.people?.length ? s.people : undefined,
      other_people_seen: s.unnamedPeople || undefined,
      objects_seen: s.objects?.length ? s.objects : undefined,
    })),
  };
}
