// Regenerates the store screenshots the manifest declares (public/screenshots/), from a
// production build served by the real server with four seeded videos, at exactly the sizes in
// public/manifest.webmanifest. Not a bench (the runner skips "_" files); run it after a change to
// the list's look: node --import tsx bench/_manifest-screenshots.ts
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, ensureBenchBuild, signIn, startBenchApp } from './_pwa.ts';

interface Screenshot {
  src: string;
  sizes: string;
  form_factor: 'narrow' | 'wide';
}

export async function takeManifestScreenshots(): Promise<string[]> {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'public', 'manifest.webmanifest'), 'utf8'),
  ) as { screenshots: Screenshot[] };
  // A build of its own: rebuilding the benches' folder could pull files from under a running bench.
  const app = await startBenchApp(4, ensureBenchBuild(path.join(ROOT, '.tmp', 'screenshots-web')));
  const written: string[] = [];
  try {
    for (const shot of manifest.screenshots) {
      const [width, height] = shot.sizes.split('x').map(Number) as [number, number];
      const narrow = shot.form_factor === 'narrow';
      const context = await app.browser.newContext({
        baseURL: app.url,
        locale: 'en-US',
        viewport: { width, height },
        deviceScaleFactor: 1,
        isMobile: narrow,
        hasTouch: narrow,
      });
      try {
        const page = await context.newPage();
        await signIn(page, app);
        await page.getByTestId('video-row').nth(3).waitFor();
        await page.waitForFunction(
          `document.fonts.status === 'loaded' && [...document.querySelectorAll('main img')]
            .every((i) => i.complete && i.naturalWidth > 0)`,
        );
        await page.mouse.move(0, height - 1); // no hover highlight on a row
        await page.waitForTimeout(500); // the last batch of rows and any transition settle
        const file = path.join(ROOT, 'public', shot.src);
        await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
        written.push(path.relative(ROOT, file));
      } finally {
        await context.close();
      }
    }
  } finally {
    await app.close();
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  takeManifestScreenshots().then(
    (files) => console.log(`Wrote ${files.join(', ')}`),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
