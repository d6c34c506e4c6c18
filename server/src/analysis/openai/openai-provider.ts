// AI_PROVIDER=openai: placeholder until the client lands.
import type { Config } from '../../config.ts';
import type { AnalysisProvider, VideoEvidence, VideoUnderstanding } from '../provider.ts';

export class OpenAiProvider implements AnalysisProvider {
  readonly name = 'openai' as const;
  constructor(private readonly ai: Config['ai']) {}

  understand(_evidence: VideoEvidence): Promise<VideoUnderstanding> {
    return Promise.reject(new Error(`openai provider not ready (${this.ai.baseUrl ?? ''})`));
  }

  embed(_texts: string[]): Promise<number[][]> {
    return Promise.reject(new Error('openai provider not ready'));
  }
}
