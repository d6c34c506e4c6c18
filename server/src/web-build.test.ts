// `npm start` builds the web app "when needed": when it is missing or older than its sources.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webBuildIsStale } from './web-build.ts';

let root: string;
let webRoot: string;

function touch(file: string, secondsAgo: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, 'x');
  const at = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(file, at, at);
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'va-web-build-'));
  webRoot = path.join(root, 'dist');
  for (const source of ['src/main.tsx', 'src/lib/deep/module.ts', 'lang/en.json', 'index.html']) {
    touch(path.join(root, source), 600);
  }
  // Folders count by their contents; their own times are old too.
  for (const dir of ['src', 'src/lib', 'src/lib/deep', 'lang']) touch(path.join(root, dir), 600);
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('webBuildIsStale', () => {
  it('is stale when nothing was built yet', () => {
    expect(webBuildIsStale(root, webRoot)).toBe(true);
  });

  it('is fresh when the build is newer than every source', () => {
    touch(path.join(webRoot, 'index.html'), 60);
    expect(webBuildIsStale(root, webRoot)).toBe(false);
  });

  it('is stale when any source changed after the build, however deep', () => {
    touch(path.join(webRoot, 'index.html'), 60);
    touch(path.join(root, 'src/lib/deep/module.ts'), 1);
    expect(webBuildIsStale(root, webRoot)).toBe(true);
  });

  it('is stale after a change of the messages or the package list', () => {
    touch(path.join(webRoot, 'index.html'), 60);
    touch(path.join(root, 'lang/en.json'), 1);
    expect(webBuildIsStale(root, webRoot)).toBe(true);
    touch(path.join(root, 'lang/en.json'), 600);
    touch(path.join(root, 'package.json'), 1);
    expect(webBuildIsStale(root, webRoot)).toBe(true);
  });
});
