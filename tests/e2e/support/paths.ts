// Where things are, for the runner and the specs (kept free of server imports so the runner
// starts even while the server code is broken).
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/**
 * The e2e build has its own folder: dist/ is rebuilt by any `npm start` in the shared tree, and a
 * build empties its folder first, which would pull files from under a running spec.
 */
export const WEB_ROOT = path.join(ROOT, '.tmp', 'e2e-web');
export const RESULTS_DIR = path.join(ROOT, 'test-results');
