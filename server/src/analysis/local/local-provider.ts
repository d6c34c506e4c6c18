// AI_PROVIDER=local: no network, deterministic. Words come only from what was measured, read on
// screen (OCR, pipeline/screen-text.ts, for every provider) or given by the uploader (see describe.ts); vectors from the lexical
// embedding.
import type { AnalysisProvider, VideoEvidence, VideoUnderstanding } from '../provider.ts';
import { describeVideo } from './describe.ts';
import { lexicalEmbedding } from './lexical-embedding.ts';

export class LocalProvider implements AnalysisProvider {
  readonly name = 'local' as const;

  understand(evidence: VideoEvidence): Promise<VideoUnderstanding> {
    return Promise.resolve(describeVideo(evidence));
  }

  embed(texts: string[]): Promise<number[][]> {
    return Promise.resolve(texts.map(lexicalEmbedding));
  }
}
