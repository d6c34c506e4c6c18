// How the embedded PGlite is created: by the server's database thread (pglite-thread-worker.ts),
// and by the benches that serve the same files over the wire protocol (bench/_pglite-server.ts).
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pageinspect } from '@electric-sql/pglite/contrib/pageinspect';
import { vector } from '@electric-sql/pglite-pgvector';

/**
 * On disk, 512 MB of shared buffers instead of 128, so that the HNSW graph of a large archive
 * stays in them (200k scenes: 391 MB): a dense query visits ~1,000 of its pages, and each one
 * missed is a file read through the WebAssembly file system (docs/decisions.md, "Dense search in
 * the buffers"). Buffers take memory only once used: a small archive's process stays as small.
 */
const ON_DISK_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=512MB'];

/** In memory when dataDir is undefined (tests), else on disk there. */
export function pgliteOptions(dataDir: string | undefined): PGliteOptions {
  return {
    ...(dataDir ? { dataDir, startParams: ON_DISK_PARAMS } : {}),
    // pageinspect reads pages into the buffers ahead of searches (search/prewarm.ts).
    extensions: { vector, pageinspect },
  };
}
