// Picks the understanding provider named by AI_PROVIDER. One instance per config, so the
// pipeline and the search share caches (e.g. the random projection of the openai provider).
import type { Config } from '../config.ts';
import { LocalProvider } from './local/local-provider.ts';
import { OpenAiProvider } from './openai/openai-provider.ts';
import type { AnalysisProvider } from './provider.ts';

const cache = new WeakMap<Config['ai'], AnalysisProvider>();

export function createProvider(config: Pick<Config, 'ai'>): AnalysisProvider {
  const found = cache.get(config.ai);
  if (found) return found;
  const provider =
    config.ai.provider === 'openai' ? new OpenAiProvider(config.ai) : new LocalProvider();
  cache.set(config.ai, provider);
  return provider;
}
