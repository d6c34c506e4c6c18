// Signing keys: from the environment when given, else generated once into DATA_DIR (mode 600).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Secrets {
  /** Signs asset URLs and other short-lived links. */
  assetKey: Buffer;
  /** Signs the local upload form (the S3-style POST policy). */
  uploadKey: Buffer;
}

const FILE = 'secrets.json';

export function loadSecrets(dataDir: string, env: NodeJS.ProcessEnv = process.env): Secrets {
  const file = path.join(dataDir, FILE);
  let stored: Record<string, string> = {};
  if (fs.existsSync(file))
    stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  let changed = false;
  const pick = (envName: string, key: string): Buffer => {
    const fromEnv = env[envName];
    if (fromEnv) return Buffer.from(fromEnv, 'utf8');
    if (!stored[key]) {
      stored[key] = crypto.randomBytes(32).toString('base64');
      changed = true;
    }
    return Buffer.from(stored[key], 'base64');
  };
  const secrets = {
    assetKey: pick('ASSET_SIGNING_KEY', 'assetKey'),
    uploadKey: pick('UPLOAD_SIGNING_KEY', 'uploadKey'),
  };
  if (changed) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    fs.chmodSync(file, 0o600);
  }
  return secrets;
}
