// The user's side of bench/upload-chaos.ts: one signed-in browser context whose tabs queue
// uploads through the dialog, get reloaded, closed and reopened, and do what a user does with the
// queued-upload rows (pick the file again when asked, press Retry on a failed upload, close the
// error popup). It also counts every time a tab lands on the sign-in page.
import type { BrowserContext, Page } from 'playwright-core';
import { messages } from '../tests/e2e/support/ui.ts';

const m = messages('en');

export interface ChaosTabs {
  /** The tab the user works in (the newest one after a close and reopen). */
  main: Page;
  /** A second tab, while one is open. */
  second?: Page;
  /** Times any tab arrived on the sign-in page, with where it was. */
  signOuts: string[];
  /** Rows seen waiting for a sign-in (the queue lost its token). */
  waitingAuth: number;
  reload(): Promise<void>;
  closeAndReopen(): Promise<void>;
  openSecond(): Promise<Page>;
  closeSecond(): Promise<void>;
  /**
   * One look at every open tab's rows, as a user would: the file picked again where the queue asks
   * for it, Retry pressed on a failed upload, the error popup closed. Answers the jobs retried.
   */
  tend(
    fileFor: (filename: string) => string | undefined,
  ): Promise<{ retried: string[]; picked: string[] }>;
}

async function onList(page: Page): Promise<void> {
  await page.waitForURL((u) => u.pathname === '/video');
  await page.getByRole('button', { name: 'Upload', exact: true }).waitFor();
}

export function chaosTabs(context: BrowserContext, first: Page): ChaosTabs {
  const signOuts: string[] = [];
  const watch = (page: Page): void => {
    page.setDefaultTimeout(60_000);
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && new URL(frame.url()).pathname.startsWith('/login'))
        signOuts.push(frame.url());
    });
  };
  watch(first);
  const open = async (): Promise<Page> => {
    const page = await context.newPage();
    watch(page);
    await page.goto('/video');
    await onList(page);
    return page;
  };

  const tabs: ChaosTabs = {
    main: first,
    signOuts,
    waitingAuth: 0,
    async reload() {
      await tabs.main.reload();
      await onList(tabs.main);
    },
    async closeAndReopen() {
      await tabs.main.close();
      tabs.main = await open();
    },
    async openSecond() {
      tabs.second = await open();
      return tabs.second;
    },
    async closeSecond() {
      await tabs.second?.close();
      tabs.second = undefined;
    },
    async tend(fileFor) {
      const retried: string[] = [];
      const picked: string[] = [];
      for (const page of [tabs.main, tabs.second]) {
        if (!page || page.isClosed()) continue;
        const popup = page.getByRole('dialog').filter({ hasText: m['common.genericError']! });
        if (await popup.count()) await page.keyboard.press('Escape');
        const rows = await page.locator('[data-upload-job]').evaluateAll((els) =>
          els.map((el) => ({
            state: el.getAttribute('data-upload-state'),
            text: el.textContent,
          })),
        );
        for (const { state, text } of rows) {
          const name = /chaos-[\w-]+\.mp4/.exec(text ?? '')?.[0];
          if (!name) continue;
          const row = page.locator(`[data-upload-state="${state}"]`, { hasText: name });
          if (state === 'waiting-auth') tabs.waitingAuth += 1;
          const file = fileFor(name);
          if (state === 'needs-file' && file) {
            const chosen = await row
              .locator('input[type=file]')
              .setInputFiles(file, { timeout: 5_000 })
              .then(
                () => true,
                () => false, // the row moved on meanwhile
              );
            if (chosen) picked.push(name);
          }
          if (state === 'failed') {
            const retry = row.getByRole('button', { name: m['upload.retry']!, exact: true });
            if (
              await retry.click({ timeout: 5_000 }).then(
                () => true,
                () => false,
              )
            )
              retried.push(name);
          }
        }
      }
      return { retried, picked };
    },
  };
  return tabs;
}
