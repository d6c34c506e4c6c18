// Where things are, for the runner and the specs (kept free of server imports so the runner
// starts even while the server code is broken).
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
export const WEB_ROOT = path.join(ROOT, 'dist');
export const RESULTS_DIR = path.join(ROOT, 'test-results');
