// Issue 31 (memory at rest): the embedded database's shared buffers are sized to the database the
// server uses, the template databases (never read) not counted, with 16 MB at least: every
// megabyte of buffers is resident from the start (pglite-options.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedBuffersMb } from './pglite-options.ts';

const MB = 2 ** 20;
const made: string[] = [];

/** A data folder whose base/<oid>/ holds one (sparse) file of the given size per database. */
function dataDir(mbByOid: Record<string, number>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-buffers-'));
  made.push(dir);
  for (const [oid, mb] of Object.entries(mbByOid)) {
    fs.mkdirSync(path.join(dir, 'base', oid), { recursive: true });
    const file = path.join(dir, 'base', oid, '1259');
    fs.writeFileSync(file, '');
    fs.truncateSync(file, Math.round(mb * MB));
  }
  return dir;
}

afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('shared buffers', () => {
  it('are 16 MB for a new or small archive, the templates (OIDs 1 and 4) not counted', () => {
    expect(sharedBuffersMb(path.join(os.tmpdir(), 'va-no-such-folder'))).toBe(16);
    // The load bench's archive: 7.2 MB per template, 12 MB of the database in use.
    expect(sharedBuffersMb(dataDir({ 1: 7.2, 4: 7.2, 5: 12 }))).toBe(16);
  });

  it('hold the database in use with a quarter more, up to 512 MB', () => {
    expect(sharedBuffersMb(dataDir({ 1: 7.2, 4: 7.2, 5: 40 }))).toBe(50);
    expect(sharedBuffersMb(dataDir({ 1: 7.2, 4: 7.2, 5: 600 }))).toBe(512);
  });
});
