// `npm run test:e2e [-- name-filter...]`: builds the web app when stale, then runs every
// tests/e2e/*.spec.ts with node's test runner, one file at a time (each file starts the real
// server in-process and a headless Debian Chromium). A missing browser fails; it never skips.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { webBuildIsStale } from '../../server/src/web-build.ts';
import { assertChromium } from './support/browser.ts';
import { RESULTS_DIR, ROOT, WEB_BUILDS_DIR, webBuilds } from './support/paths.ts';

/** Older builds than this are removed; a concurrent run may still serve a recent one. */
const KEEP_BUILDS_MS = 2 * 60 * 60 * 1000;

/** The newest build when it is up to date, else a new one; undefined when building failed. */
function freshWebBuild(): string | undefined {
  const newest = webBuilds().at(-1);
  if (newest && !webBuildIsStale(ROOT, newest)) return newest;
  const outDir = path.join(WEB_BUILDS_DIR, `${Date.now()}-${process.pid}`);
  console.log(`Building the web app for the end-to-end tests into ${path.relative(ROOT, outDir)}…`);
  const vite = path.join(ROOT, 'node_modules', '.bin', 'vite');
  const args = ['build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'];
  const built = spawnSync(vite, args, { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) return undefined;
  for (const old of webBuilds()) {
    const age = Date.now() - Number(path.basename(old).split('-')[0]);
    if (old !== outDir && age > KEEP_BUILDS_MS) fs.rmSync(old, { recursive: true, force: true });
  }
  return outDir;
}

function main(): number {
  try {
    assertChromium();
  } catch (err) {
    console.error(`\nEND-TO-END TESTS CANNOT RUN: ${(err as Error).message}\n`);
    return 1;
  }

  const webRoot = freshWebBuild();
  if (!webRoot) {
    console.error('\nBuilding the web app failed (see above).');
    return 1;
  }

  const filters = process.argv.slice(2);
  const dir = import.meta.dirname;
  const specs = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.spec.ts'))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort()
    .map((f) => path.join(dir, f));
  if (specs.length === 0) {
    console.error(`No end-to-end spec matches ${filters.join(', ') || '*.spec.ts'} in ${dir}`);
    return 1;
  }

  fs.rmSync(RESULTS_DIR, { recursive: true, force: true });
  const res = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      // Two shared cores: one server and one browser at a time.
      '--test-concurrency=1',
      '--test-force-exit',
      '--test-reporter=spec',
      ...specs.map((s) => path.relative(ROOT, s)),
    ],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, E2E_WEB_ROOT: webRoot } },
  );
  if (res.status !== 0) {
    console.error(
      `\nEnd-to-end tests failed; screenshots of failed journeys are in ${RESULTS_DIR}`,
    );
  }
  return res.status ?? 1;
}

process.exit(main());
