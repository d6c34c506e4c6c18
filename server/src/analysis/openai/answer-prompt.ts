// The report's written answer: a question about one video, answered only from its scene
// descriptions and captions, citing scene numbers.
import { languageName } from './prompts.ts';
import type { GroundedAnswer } from '../provider.ts';

export function answerSystemPrompt(language: string): string {
  return (
    'You answer questions about one video for a written report, using only the scene ' +
    'descriptions and captions given; never invent names, places or events, and say plainly ' +
    `when the video does not show the answer. Write in ${languageName(language)}. Cite the ` +
    'scenes you rely on as "scene N" in the text. Answer with one JSON object and nothing else: ' +
    '{"answer":"<1 to 4 short paragraphs separated by blank lines>","scenes":[<scene indexes>]}.'
  );
}

/** The answer and its cited scenes (only indexes that exist); undefined when there is none. */
export function readAnswer(
  json: Record<string, unknown>,
  known: ReadonlySet<number>,
): GroundedAnswer | undefined {
  const text = typeof json.answer === 'string' ? json.answer.trim() : '';
  if (!text) return undefined;
  const cited = Array.isArray(json.scenes) ? json.scenes : [];
  const sceneIndexes = [
    ...new Set(cited.filter((n): n is number => Number.isInteger(n) && known.has(n as number))),
  ];
  return { text, sceneIndexes };
}
