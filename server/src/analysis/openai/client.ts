// The OpenAI SDK pointed at any OpenAI-compatible endpoint (AI_BASE_URL, AI_API_KEY). The SDK
// retries 408, 409, 429, 5xx and network failures with backoff (honouring Retry-After) and times
// each attempt out; what is left here is to say in our words which endpoint failed and how.
// The SDK is loaded at the first call (loadSdk): a server with the local provider never loads
// its modules (issue 31, memory at rest).
import type OpenAI from 'openai';
import type { APIConnectionError } from 'openai';
import type * as OpenAiSdk from 'openai';

type Sdk = typeof OpenAiSdk;

/** The OpenAI SDK's module, imported once when first needed. */
export const loadSdk = (): Promise<Sdk> => import('openai');

export class AiProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AiProviderError';
  }
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string | undefined;
  /** Attempts after the first one. */
  retries: number;
}

export async function createOpenAiClient(o: ClientOptions): Promise<OpenAI> {
  const { default: OpenAI } = await loadSdk();
  return new OpenAI({
    baseURL: o.baseUrl.replace(/\/+$/, ''),
    // The SDK insists on a key; local servers (Ollama, vLLM) need none, so none is sent then.
    apiKey: o.apiKey ?? 'none',
    ...(o.apiKey ? {} : { defaultHeaders: { authorization: null } }),
    maxRetries: o.retries,
  });
}

function connectionProblem(sdk: Sdk, err: APIConnectionError): string {
  if (err instanceof sdk.APIConnectionTimeoutError) return 'timed out';
  const cause = (err as Error & { cause?: { code?: string; cause?: { code?: string } } }).cause;
  return cause?.code ?? cause?.cause?.code ?? err.message;
}

function retried(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Runs one SDK call; its failures become an AiProviderError that names the endpoint. */
export async function callEndpoint<T>(o: ClientOptions, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const sdk = await loadSdk();
    const attempts = o.retries + 1;
    if (err instanceof sdk.APIConnectionError) {
      throw new AiProviderError(
        `AI endpoint ${o.baseUrl} is unavailable after ${attempts} attempts (${connectionProblem(sdk, err)})`,
      );
    }
    if (err instanceof sdk.APIError && err.status !== undefined) {
      const detail = `HTTP ${err.status}${err.message ? `: ${err.message.slice(0, 300)}` : ''}`;
      throw new AiProviderError(
        retried(err.status)
          ? `AI endpoint ${o.baseUrl} is unavailable after ${attempts} attempts (${detail})`
          : `AI endpoint ${o.baseUrl} refused the request (${detail})`,
        err.status,
      );
    }
    throw err;
  }
}
