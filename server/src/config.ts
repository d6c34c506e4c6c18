// Every setting of OPERATIONS.md, read once from the environment.
import net from 'node:net';
import path from 'node:path';

export type StorageKind = 'local' | 's3';
export type WorkerMode = 'inline' | 'off';
export type AiProviderKind = 'local' | 'openai';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  databaseUrl: string | undefined;
  /**
   * Connections this process opens to DATABASE_URL at most (DATABASE_POOL_SIZE): its statements
   * queue in the process beyond them. Each process has its own pool, so PostgreSQL's
   * max_connections must hold the sum over the processes.
   */
  databasePoolSize: number;
  storage: StorageKind;
  s3: { bucket: string; region: string; endpoint: string | undefined };
  smtpUrl: string | undefined;
  worker: WorkerMode;
  ai: {
    provider: AiProviderKind;
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string | undefined;
    embeddingModel: string | undefined;
    transcribeModel: string | undefined;
  };
  ffmpegPath: string | undefined;
  ffprobePath: string | undefined;
  logLevel: string;
  /**
   * Seconds a job worker's models (faces, objects) and OCR engine stay loaded with no video to
   * look at; then their threads end and their memory goes back to the system.
   */
  modelsIdleUnloadS: number;
  /**
   * Which peers' X-Forwarded-For to believe (Fastify's trustProxy): false, true (any), a hop
   * count, or addresses and CIDR ranges. Throttles count the client address it gives.
   */
  trustProxy: TrustProxy;
  /** Where the built web app lives; the server serves it when present. */
  webRoot: string;
}

export type TrustProxy = boolean | number | string[];

export class ConfigError extends Error {}

/** DATABASE_POOL_SIZE unset: 10 connections a process. */
export const DEFAULT_DATABASE_POOL_SIZE = 10;

function wholeNumber(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${value}")`);
  }
  return n;
}

/** MODELS_IDLE_UNLOAD_S unset: a few minutes, so one video after another keeps them loaded. */
export const DEFAULT_MODELS_IDLE_UNLOAD_S = 180;

function seconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(n)) {
    throw new ConfigError(`${name} must be a number of seconds (got "${value}")`);
  }
  return n;
}

/** proxy-addr's names for the private ranges, which Fastify accepts beside addresses. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const version = net.isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (version === 4 ? 32 : 128);
}

/** TRUST_PROXY: unset or false, true, a hop count, or a comma-separated list of addresses/CIDRs. */
function trustProxyOf(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((e) => e.trim());
  const bad = entries.find((e) => !isAddressOrRange(e));
  if (bad !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be true, false, a hop count or a list of addresses and CIDR ranges (got "${bad}")`,
    );
  }
  return entries;
}

/** Pino's levels: an unknown one would stop the server with a stack trace instead. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT || 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a port number (got "${env.PORT}")`);
  }
  const host = env.HOST || '127.0.0.1';
  const dataDir = path.resolve(env.DATA_DIR || './data');
  return {
    port,
    host,
    dataDir,
    publicUrl: (env.PUBLIC_URL || `http://${host}:${port}`).replace(/\/+$/, ''),
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: wholeNumber(
      'DATABASE_POOL_SIZE',
      env.DATABASE_POOL_SIZE,
      DEFAULT_DATABASE_POOL_SIZE,
      1,
      1000,
    ),
    storage: oneOf('STORAGE', env.STORAGE || 'local', ['local', 's3'] as const),
    s3: {
      bucket: env.S3_BUCKET || '',
      region: env.S3_REGION || 'us-east-1',
      endpoint: env.S3_ENDPOINT || undefined,
    },
    smtpUrl: env.SMTP_URL || undefined,
    worker: oneOf('WORKER', env.WORKER || 'inline', ['inline', 'off'] as const),
    ai: {
      provider: oneOf('AI_PROVIDER', env.AI_PROVIDER || 'local', ['local', 'openai'] as const),
      baseUrl: env.AI_BASE_URL || undefined,
      apiKey: env.AI_API_KEY || undefined,
      model: env.AI_MODEL || undefined,
      embeddingModel: env.AI_EMBEDDING_MODEL || undefined,
      transcribeModel: env.AI_TRANSCRIBE_MODEL || undefined,
    },
    ffmpegPath: env.FFMPEG_PATH || undefined,
    ffprobePath: env.FFPROBE_PATH || undefined,
    logLevel: oneOf('LOG_LEVEL', env.LOG_LEVEL || 'info', LOG_LEVELS),
    modelsIdleUnloadS: seconds(
      'MODELS_IDLE_UNLOAD_S',
      env.MODELS_IDLE_UNLOAD_S,
      DEFAULT_MODELS_IDLE_UNLOAD_S,
    ),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    webRoot: path.resolve(env.WEB_ROOT || 'dist'),
  };
}
