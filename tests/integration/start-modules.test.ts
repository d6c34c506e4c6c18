// Issue 31 (memory at rest): a server started with `npm start` and the default local storage and
// provider loads neither the AWS SDK nor the OpenAI SDK (about 10-20 MB of resident memory); they
// are imported when STORAGE=s3 or AI_PROVIDER=openai first needs them. Nor nodemailer (about
// 15 MB, imported by the first message) nor tesseract.js (about 8 MB, by the first video read).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { npmStart, type NpmStart } from '../support/npm-start.ts';

const recorder = pathToFileURL(path.resolve(import.meta.dirname, '../support/record-modules.mjs'));
const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'va-modules-')), 'modules');
let started: NpmStart | undefined;

afterAll(() => {
  started?.cleanUp();
  fs.rmSync(path.dirname(record), { recursive: true, force: true });
});

describe('a server at rest', () => {
  it('has not loaded the S3 or OpenAI SDKs, nodemailer or tesseract.js', async () => {
    started = await npmStart({
      env: { NODE_OPTIONS: `--import ${recorder.href}`, RECORD_MODULES: record },
    });
    expect((await fetch(`${started.url}/api/health`)).status).toBe(200);
    const loaded = fs.readFileSync(record, 'utf8').split('\n');
    expect(loaded.some((url) => url.includes('/server/src/context.ts'))).toBe(true);
    const packages = (name: string): string[] =>
      loaded.filter((url) => url.includes(`/node_modules/${name}/`));
    expect(packages('@aws-sdk')).toEqual([]);
    expect(packages('openai')).toEqual([]);
    expect(packages('nodemailer')).toEqual([]);
    expect(packages('tesseract.js')).toEqual([]);
  }, 180_000);
});
