// Secrets (OPERATIONS.md): generated on first start into DATA_DIR with mode 600, the same ones on
// every later start, unless the environment gives them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSecrets } from './secrets.ts';

const dirs: string[] = [];
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-secrets-'));
  dirs.push(dir);
  return path.join(dir, 'data'); // not there yet, as on a first start
}

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('loadSecrets', () => {
  it('generates random keys on first start into DATA_DIR, readable by the owner only', () => {
    const dir = dataDir();
    const first = loadSecrets(dir, {});
    const file = path.join(dir, 'secrets.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first.assetKey.length).toBe(32);
    expect(first.uploadKey.length).toBe(32);
    expect(first.assetKey.equals(first.uploadKey)).toBe(false);
    // Another installation gets other keys.
    expect(loadSecrets(dataDir(), {}).assetKey.equals(first.assetKey)).toBe(false);
  });

  it('keeps the same keys on every later start', () => {
    const dir = dataDir();
    const first = loadSecrets(dir, {});
    const before = fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8');
    const again = loadSecrets(dir, {});
    expect(again.assetKey.equals(first.assetKey)).toBe(true);
    expect(again.uploadKey.equals(first.uploadKey)).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8')).toBe(before);
  });

  it('takes keys given in the environment and writes nothing for them', () => {
    const dir = dataDir();
    const env = { ASSET_SIGNING_KEY: 'asset-key-from-env', UPLOAD_SIGNING_KEY: 'upload-key-env' };
    const secrets = loadSecrets(dir, env);
    expect(secrets.assetKey.toString('utf8')).toBe('asset-key-from-env');
    expect(secrets.uploadKey.toString('utf8')).toBe('upload-key-env');
    expect(fs.existsSync(path.join(dir, 'secrets.json'))).toBe(false);
  });
});
