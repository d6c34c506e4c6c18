// Chat messages for the vision model and the checks on its JSON answers. The evidence goes in
// as a JSON block after "INPUT JSON:" so the model (and the test server) read it unambiguously.
import fs from 'node:fs/promises';
import path from 'node:path';
import type {
  ChatCompletionContentPart,
  ChatCompletionSystemMessageParam,
  ChatCompletionUserMessageParam,
} from 'openai/resources/chat/completions';

export type ContentPart = ChatCompletionContentPart;
export type ChatMessage = ChatCompletionSystemMessageParam | ChatCompletionUserMessageParam;

const MIME: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
};

export async function imagePart(file: string): Promise<ContentPart | undefined> {
  try {
    const data = await fs.readFile(file);
    const mime = MIME[path.extname(file).toLowerCase()] ?? 'image/jpeg';
    return {
      type: 'image_url',
      image_url: { url: `data:${mime};base64,${data.toString('base64')}`, detail: 'low' },
    };
  } catch {
    return undefined; // A missing frame leaves the model with fewer pictures, not a failure.
  }
}

const RULES =
  "Describe only what the images, captions and the uploader's text show; never invent names, " +
  'places or events. Answer with one JSON object and nothing else.';

export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function scenesSystemPrompt(language: string): string {
  return (
    `You describe scenes of a video for a searchable archive. ${RULES} ` +
    `Write in ${languageName(language)}. For each scene write one or two sentences about what ` +
    'is visible and said, naming a listed person only when their reference image matches. ' +
    'people_recognised_by_face, other_people_seen and objects_seen are facts measured on the ' +
    'frames: name those people and count the others as given. ' +
    'Answer as {"scenes":[{"index":<scene index>,"description":"..."}]}.'
  );
}

export function videoSystemPrompt(language: string): string {
  return (
    `You catalogue videos for a searchable archive. ${RULES} Write in ${languageName(language)}. ` +
    'Answer as {"title":"<at most 80 characters>","summary":"<2 to 5 sentences>",' +
    '"tags":["<3 to 8 topic keywords>"],"social_tags":["#<2 to 5 hashtags>"]}.'
  );
}

export function inputText(intro: string, input: unknown): string {
  return `${intro}\nINPUT JSON:\n${JSON.stringify(input)}`;
}

/** The JSON object in a model answer, tolerating code fences and text around it. */
export function parseJsonObject(content: string): Record<string, unknown> | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  const text = fenced ? fenced[1]! : content;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    const value: unknown = JSON.parse(text.slice(start, end + 1));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value)
    ? value
        .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
        .map((v) => v.trim())
    : [];
}
