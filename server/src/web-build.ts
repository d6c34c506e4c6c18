// `npm start` builds the web app when it is missing or older than its sources, where the build
// tools are installed. A release installed with `npm ci --omit=dev` has no vite: it serves the
// build it ships (`npm run build` makes it in dist/), and says clearly when there is none.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const SOURCES = ['src', 'lang', 'public', 'index.html', 'vite.config.ts', 'package.json'];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const e of fs.readdirSync(p)) max = Math.max(max, newestMtime(path.join(p, e)));
  return max;
}

export function webBuildIsStale(root: string, webRoot: string): boolean {
  const stamp = path.join(webRoot, 'index.html');
  if (!fs.existsSync(stamp)) return true;
  const built = fs.statSync(stamp).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > built);
}

export class WebBuildMissingError extends Error {}

const viteBin = (root: string): string => path.join(root, 'node_modules', '.bin', 'vite');

/** Before `npm start` serves: builds when stale and vite is there, else serves what was built. */
export function prepareWebApp(root: string, webRoot: string, say: (msg: string) => void): void {
  if (!webBuildIsStale(root, webRoot)) return;
  if (fs.existsSync(viteBin(root))) {
    say('Building the web app…');
    buildWebApp(root, webRoot);
    return;
  }
  if (fs.existsSync(path.join(webRoot, 'index.html'))) {
    say(
      `Serving the web app built in ${webRoot}: its sources are newer, but the build tools are ` +
        'not installed (npm ci --omit=dev), so it is not rebuilt.',
    );
    return;
  }
  throw new WebBuildMissingError(
    `The web app is not built (no ${path.join(webRoot, 'index.html')}) and the build tools are ` +
      'not installed (npm ci --omit=dev leaves them out). Build it where they are installed ' +
      '(`npm ci && npm run build`, into dist/) and ship that folder with the release, or set ' +
      'WEB_ROOT to a built copy; or run `npm install` here and start again.',
  );
}

/** Builds the web app into webRoot (the folder the server then serves). */
export function buildWebApp(root: string, webRoot: string): void {
  const vite = viteBin(root);
  const args = ['build', '--logLevel', 'warn', '--outDir', webRoot, '--emptyOutDir'];
  const res = spawnSync(vite, args, { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) throw new Error('Building the web app failed (see above).');
}
