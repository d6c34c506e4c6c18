// Shared by the PWA benches (bundle, lighthouse, offline-start): a production build of their own
// (with Vite's manifest, in .tmp/bench-web so no running spec or `npm start` loses its files),
// served by the real server in-process, with a signed-in user and a few seeded videos.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { webBuildIsStale } from '../server/src/web-build.ts';
import { startApp, type E2eApp } from '../tests/e2e/support/app.ts';
import { logIn } from '../tests/e2e/support/ui.ts';
import { seedCompletedVideo, teamOf } from '../tests/support/seed.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const BENCH_WEB_ROOT = path.join(ROOT, '.tmp', 'bench-web');
export const BENCH_EMAIL = 'bench@example.com';
export const BENCH_PASSWORD = 'BenchPassword123';

/** Builds the web app into `outDir` when its sources are newer than the last build there. */
export function ensureBenchBuild(outDir = BENCH_WEB_ROOT): string {
  if (webBuildIsStale(ROOT, outDir)) {
    const vite = path.join(ROOT, 'node_modules', '.bin', 'vite');
    const args = ['build', '--logLevel', 'error', '--manifest', '--outDir', outDir];
    const built = spawnSync(vite, [...args, '--emptyOutDir'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('Building the web app for the benches failed.');
  }
  return outDir;
}

export interface BenchApp extends E2eApp {
  videoIds: string[];
}

/** The real server on the bench build (or `webRoot`), one user and `videos` completed videos. */
export async function startBenchApp(videos = 6, webRoot?: string): Promise<BenchApp> {
  const app = await startApp({ webRoot: webRoot ?? ensureBenchBuild() });
  const userId = await app.createUser({ email: BENCH_EMAIL, password: BENCH_PASSWORD });
  const teamId = await teamOf(app.running.ctx, userId);
  const videoIds: string[] = [];
  for (let i = 0; i < videos; i++) {
    const seeded = await seedCompletedVideo(app.running.ctx, {
      teamId,
      ownerId: userId,
      title: `Harbour walk ${i + 1}`,
      summary: 'Boats leave the harbour at dawn; gulls over the pier.',
      tags: ['harbour', 'boats'],
      scenes: [{ description: 'Boats at the pier' }, { description: 'Gulls over the water' }],
    });
    videoIds.push(seeded.id);
  }
  return Object.assign(app, { videoIds });
}

/** Signs in through the Login screen and waits for the video list. */
export async function signIn(page: Page, app: E2eApp): Promise<void> {
  await page.goto(`${app.url}/login`);
  await logIn(page, BENCH_EMAIL, BENCH_PASSWORD);
  await page.waitForURL((u) => u.pathname === '/video');
}

export const kB = (bytes: number): string => (bytes / 1000).toFixed(1);
