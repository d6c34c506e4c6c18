// Where things are, for the runner and the specs (kept free of server imports so the runner
// starts even while the server code is broken).
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
export const RESULTS_DIR = path.join(ROOT, 'test-results');

/**
 * E2E web builds live apart from dist/ (which any `npm start` in the shared tree rebuilds), one
 * folder per build, never rebuilt in place: a build empties its folder first, which would pull
 * files from under a spec that another run is serving from it.
 */
export const WEB_BUILDS_DIR = path.join(ROOT, '.tmp', 'e2e-builds');

/** Build folders, oldest first (names start with the build time). */
export function webBuilds(): string[] {
  if (!fs.existsSync(WEB_BUILDS_DIR)) return [];
  return fs
    .readdirSync(WEB_BUILDS_DIR)
    .filter((name) => /^\d+-\d+$/.test(name))
    .sort()
    .map((name) => path.join(WEB_BUILDS_DIR, name));
}

/** The build the specs serve: the one the runner chose (E2E_WEB_ROOT), else the newest. */
export const WEB_ROOT =
  process.env.E2E_WEB_ROOT || webBuilds().at(-1) || path.join(WEB_BUILDS_DIR, 'none');
