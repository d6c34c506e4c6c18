// How the embedded PGlite is created: by the server's database thread (pglite-thread-worker.ts),
// and by the benches that serve the same files over the wire protocol (bench/_pglite-server.ts).
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pageinspect } from '@electric-sql/pglite/contrib/pageinspect';
import { vector } from '@electric-sql/pglite-pgvector';

const MB = 2 ** 20;
/**
 * Holds a new or small archive's whole database (a new one is 7.5 MB; the load bench's 100 videos
 * 12 MB) with room to grow; PGlite's own default is 128 MB.
 */
const MIN_BUFFERS_MB = 16;
/**
 * The HNSW graph of a large archive stays in the buffers up to this (200k scenes: 391 MB): a
 * dense query visits ~1,000 of its pages, and each one missed is a file read through the
 * WebAssembly file system (docs/decisions/dense-search-prewarm.md).
 */
const MAX_BUFFERS_MB = 512;
/** Room for the archive to grow before the next start sizes the buffers again. */
const GROWTH = 1.25;

/**
 * The template databases' folders under base/ (template1 and template0, their OIDs fixed since
 * PostgreSQL 15): 7.2 MB each that the server never reads (it creates no database).
 */
const TEMPLATES = new Set(['1', '4']);

/** Bytes of the files under dir. */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** Bytes of the databases the server uses: base/ without the templates. */
function databaseBytes(dataDir: string): number {
  const base = path.join(dataDir, 'base');
  let total = 0;
  for (const entry of fs.readdirSync(base, { withFileTypes: true })) {
    if (entry.isDirectory() && !TEMPLATES.has(entry.name))
      total += bytesUnder(path.join(base, entry.name));
  }
  return total;
}

/**
 * Shared buffers as large as the database on disk (plus room to grow), between 16 and 512 MB;
 * the template databases, which the server never reads, are not counted (issue 31: they made
 * 14 of a small archive's 26 MB). PGlite's shared memory is WebAssembly memory that the C library
 * zero-fills when PostgreSQL maps it, so every megabyte of buffers is resident from the start
 * (512 MB cost a small archive 620 MB of RSS at rest, issue 31); buffers larger than the
 * database hold nothing more.
 */
export function sharedBuffersMb(dataDir: string): number {
  let bytes = 0;
  try {
    bytes = databaseBytes(dataDir);
  } catch {
    // A new database: initdb makes it now.
  }
  const wanted = Math.ceil((bytes * GROWTH) / MB);
  return Math.min(MAX_BUFFERS_MB, Math.max(MIN_BUFFERS_MB, wanted));
}

/** In memory when dataDir is undefined (tests), else on disk there. */
export function pgliteOptions(dataDir: string | undefined): PGliteOptions {
  const startParams = dataDir && [
    ...PGlite.defaultStartParams,
    ...['-c', `shared_buffers=${sharedBuffersMb(dataDir)}MB`],
  ];
  return {
    ...(dataDir && startParams ? { dataDir, startParams } : {}),
    // pageinspect reads pages into the buffers ahead of searches (search/prewarm.ts).
    extensions: { vector, pageinspect },
  };
}
