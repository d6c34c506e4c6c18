// The folder source says in words what is wrong with the folder it was given, before any
// request: an operator who mistypes a path reads which path and why, not a system call's code.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FolderSource } from './sources.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-import-sources-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('FolderSource', () => {
  it('names a missing folder in words', async () => {
    const missing = path.join(dir, 'no-such-folder');
    await expect(new FolderSource(missing).list([])).rejects.toThrow(
      `There is no folder at ${missing}.`,
    );
  });

  it('names a file given for a folder', async () => {
    const file = path.join(dir, 'clip.mp4');
    fs.writeFileSync(file, 'x');
    await expect(new FolderSource(file).list([])).rejects.toThrow(`${file} is not a folder.`);
  });
});
