// AI_PROVIDER=local: no network, deterministic. Words come only from what was measured, read on
// screen (OCR, see ocr.ts) or given by the uploader (see describe.ts); vectors from the lexical
// embedding.
import type {
  AnalysisProvider,
  SceneEvidence,
  ScreenTextReading,
  VideoEvidence,
  VideoUnderstanding,
} from '../provider.ts';
import { describeVideo } from './describe.ts';
import { lexicalEmbedding } from './lexical-embedding.ts';
import { readScreenText } from './ocr.ts';

export class LocalProvider implements AnalysisProvider {
  readonly name = 'local' as const;

  understand(evidence: VideoEvidence): Promise<VideoUnderstanding> {
    return Promise.resolve(describeVideo(evidence));
  }

  readScreenText(
    scenes: Pick<SceneEvidence, 'startMs' | 'endMs' | 'framePaths'>[],
    language: string,
    tools: { signal?: AbortSignal },
  ): Promise<ScreenTextReading> {
    return readScreenText(scenes, { signal: tools.signal, language });
  }

  embed(texts: string[]): Promise<number[][]> {
    return Promise.resolve(texts.map(lexicalEmbedding));
  }
}
