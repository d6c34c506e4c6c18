// `npm start` builds the web app when it is missing or older than its sources.
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

/** Builds the web app into webRoot (the folder the server then serves). */
export function buildWebApp(root: string, webRoot: string): void {
  const vite = path.join(root, 'node_modules', '.bin', 'vite');
  if (!fs.existsSync(vite)) {
    throw new Error('The web app is not built and vite is not installed: run `npm install` first.');
  }
  const args = ['build', '--logLevel', 'warn', '--outDir', webRoot, '--emptyOutDir'];
  const res = spawnSync(vite, args, { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) throw new Error('Building the web app failed (see above).');
}
