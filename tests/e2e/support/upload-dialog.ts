// The upload dialog as a user goes through it, and large test videos: shared by the upload
// journeys (tests/e2e/upload.spec.ts) and the upload bench (bench/upload.ts).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const MIB = 1024 * 1024;

/**
 * A copy of the clip with a `free` box appended up to `bytes` (players and probes skip it),
 * filled with random bytes so nothing on the way can compress or skip it.
 */
export function paddedVideo(source: string, target: string, bytes: number): string {
  fs.copyFileSync(source, target);
  const pad = bytes - fs.statSync(source).size;
  const header = Buffer.alloc(8);
  header.writeUInt32BE(pad, 0);
  header.write('free', 4, 'ascii');
  const fd = fs.openSync(target, 'a');
  fs.writeSync(fd, header);
  const block = crypto.randomBytes(MIB);
  for (let left = pad - 8; left > 0; left -= block.length)
    fs.writeSync(fd, block, 0, Math.min(left, block.length));
  fs.closeSync(fd);
  return target;
}

/**
 * A copy of the clip that is not the same file: a small `free` box of random bytes at the end.
 * The archive refuses the same bytes twice (issue 42), and journeys upload one clip many times.
 */
export function distinctCopy(source: string, target: string): string {
  return paddedVideo(source, target, fs.statSync(source).size + 64);
}

export interface DialogInput {
  about?: string;
  /** A person's name and image file (step 1). */
  person?: { name: string; image: string };
  /** The duration the dialog shows once it has read the file, e.g. 00:00:03. */
  duration: string;
}

/** Goes through both steps of the dialog and presses Upload; answers once the dialog closed. */
export async function uploadThroughDialog(
  page: Page,
  file: string,
  input: DialogInput,
): Promise<void> {
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('About the video', { exact: true }).fill(input.about ?? 'Test upload');
  if (input.person) {
    await dialog.getByLabel('Name', { exact: true }).fill(input.person.name);
    await dialog.getByLabel('Image of person 1', { exact: true }).setInputFiles(input.person.image);
  }
  await dialog.getByRole('button', { name: 'Next', exact: true }).click();
  await dialog.getByLabel('Choose a video file', { exact: true }).setInputFiles(file);
  await dialog.getByText(path.basename(file), { exact: true }).waitFor();
  await dialog.getByText(`Duration: ${input.duration}`, { exact: true }).waitFor();
  await waitForUploadEnabled(page, 15_000);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Waits until the dialog's Upload button can be pressed (every chosen file read and checked). */
export async function waitForUploadEnabled(page: Page, timeout: number): Promise<void> {
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[role=dialog] button')].some(
        (b) => b.textContent === 'Upload' && !(b as HTMLButtonElement).disabled,
      ),
    undefined,
    { timeout },
  );
}

/** Opens the dialog, fills step 1's about text and chooses a folder in step 2 (issue 42). */
export async function chooseFolderInDialog(
  page: Page,
  folder: string,
  about: string,
): Promise<void> {
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('About the video', { exact: true }).fill(about);
  await dialog.getByRole('button', { name: 'Next', exact: true }).click();
  await dialog.getByLabel('Choose a folder of videos', { exact: true }).setInputFiles(folder);
}
