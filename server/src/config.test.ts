// The settings table of OPERATIONS.md: names, defaults and refusals, as the server reads them.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has the defaults of the settings table', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      publicUrl: 'http://127.0.0.1:8080',
      databaseUrl: undefined,
      storage: 'local',
      smtpUrl: undefined,
      worker: 'inline',
      ai: { provider: 'local' },
      ffmpegPath: undefined,
      ffprobePath: undefined,
      logLevel: 'info',
      trustProxy: false,
      modelsIdleUnloadS: 180,
    });
  });

  it('reads every setting from its variable', () => {
    const config = loadConfig({
      PORT: '9090',
      HOST: '0.0.0.0',
      DATA_DIR: '/srv/archive',
      DATABASE_URL: 'postgres://db/archive',
      DATABASE_POOL_SIZE: '4',
      STORAGE: 's3',
      S3_BUCKET: 'videos',
      S3_REGION: 'eu-central-1',
      S3_ENDPOINT: 'http://minio:9000',
      SMTP_URL: 'smtp://mail:25',
      WORKER: 'off',
      AI_PROVIDER: 'openai',
      AI_BASE_URL: 'http://ollama:11434/v1',
      AI_MODEL: 'm',
      AI_EMBEDDING_MODEL: 'e',
      AI_TRANSCRIBE_MODEL: 't',
      FFMPEG_PATH: '/opt/ffmpeg',
      FFPROBE_PATH: '/opt/ffprobe',
      LOG_LEVEL: 'debug',
      MODELS_IDLE_UNLOAD_S: '2.5',
    });
    expect(config).toMatchObject({
      port: 9090,
      host: '0.0.0.0',
      dataDir: '/srv/archive',
      publicUrl: 'http://0.0.0.0:9090',
      databaseUrl: 'postgres://db/archive',
      databasePoolSize: 4,
      storage: 's3',
      s3: { bucket: 'videos', region: 'eu-central-1', endpoint: 'http://minio:9000' },
      smtpUrl: 'smtp://mail:25',
      worker: 'off',
      ai: {
        provider: 'openai',
        baseUrl: 'http://ollama:11434/v1',
        model: 'm',
        embeddingModel: 'e',
        transcribeModel: 't',
      },
      ffmpegPath: '/opt/ffmpeg',
      ffprobePath: '/opt/ffprobe',
      logLevel: 'debug',
      modelsIdleUnloadS: 2.5,
    });
  });

  it('reads TRUST_PROXY as Fastify takes it: a switch, a hop count or addresses and ranges', () => {
    const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;
    expect(trust('')).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.1, 192.168.0.0/16,::1,fd00::/8,loopback')).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('takes PUBLIC_URL as given, without a trailing slash', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://archive.example.com/' }).publicUrl).toBe(
      'https://archive.example.com',
    );
  });

  it('treats an empty variable as unset', () => {
    const config = loadConfig({ PORT: '', HOST: '', LOG_LEVEL: '', STORAGE: '', WORKER: '' });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      logLevel: 'info',
      databasePoolSize: 10,
    });
  });

  it('refuses values it cannot use, naming the variable', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'eighty' }, /PORT/],
      [{ PORT: '70000' }, /PORT/],
      [{ STORAGE: 'ftp' }, /STORAGE must be one of local, s3/],
      [{ WORKER: 'yes' }, /WORKER must be one of inline, off/],
      [{ AI_PROVIDER: 'magic' }, /AI_PROVIDER must be one of local, openai/],
      [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
      [{ TRUST_PROXY: 'yes' }, /TRUST_PROXY must be/],
      [{ MODELS_IDLE_UNLOAD_S: '3 min' }, /MODELS_IDLE_UNLOAD_S must be a number of seconds/],
      [{ MODELS_IDLE_UNLOAD_S: '-1' }, /MODELS_IDLE_UNLOAD_S/],
      [{ DATABASE_POOL_SIZE: '0' }, /DATABASE_POOL_SIZE must be a whole number from 1 to 1000/],
      [{ DATABASE_POOL_SIZE: '2.5' }, /DATABASE_POOL_SIZE/],
      [{ DATABASE_POOL_SIZE: 'ten' }, /DATABASE_POOL_SIZE/],
      [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY must be .*"10.0.0.0\/33"/],
      [{ TRUST_PROXY: '10.0.0.1,,10.0.0.2' }, /TRUST_PROXY/],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
    }
  });
});
