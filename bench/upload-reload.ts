// Reloads mid-upload (issue 43), as figures: runs the reload journeys of
// tests/e2e/upload-reload.spec.ts (the production build in Debian's Chromium, the page's link at
// 120 KB/s until the reload, a proxy that counts each request) and prints each journey's result
// and time. Every journey asserts one video, one create, no request for the file and the next
// request within 15 s of the reload; the bar is that all of them pass.
//   npm run bench -- upload-reload
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

export function main(): { ok: boolean } {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'tests/e2e/run.ts', 'upload-reload'],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const lines = `${run.stdout}\n${run.stderr}`.split('\n');
  const results = lines
    .map((line) => /^(✔|✖) (.*) \((\d+(?:\.\d+)?)ms\)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null);
  for (const [, mark, name, ms] of results) {
    const seconds = (Number(ms) / 1000).toFixed(1).padStart(6);
    console.log(`${mark === '✔' ? 'ok  ' : 'FAIL'} ${seconds} s  ${name}`);
  }
  const passed = results.filter(([, mark]) => mark === '✔').length;
  console.log(`\n${passed} of ${results.length} reload journeys complete exactly once`);
  return { ok: run.status === 0 && results.length > 0 && passed === results.length };
}
