// Step 2 with a folder (issue 42): files of other types and an unreadable video are listed as left
// out and do not block the others; the archive is asked by size, then by hash for a file whose
// size matched; a duplicate is left out unless the user asks to upload it anyway; Upload queues
// one batch with step 1's details for every file.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../../app/providers';
import { createStore } from '../../../app/store';
import { englishMessages } from '../../../lib/i18n';
import { stubFetch, type SentRequest } from '../../../testing/fetch-stub';
import type { BatchInput } from '../../../upload-queue/batch-client';
import { UploadDialog } from '../components/UploadDialog';

const LANGUAGES = [{ code: 'en', name: 'English' }];

function inFolder(path: string, size: number): File {
  const file = new File(['x'], path.split('/').at(-1)!, { lastModified: 1_700_000_000_000 });
  Object.defineProperty(file, 'size', { value: size });
  Object.defineProperty(file, 'webkitRelativePath', { value: path });
  return file;
}

interface CheckBody {
  files: { key: string; size: number; sha256?: string }[];
}

function renderDialog(queued: (input: BatchInput) => Promise<string> = async () => 'batch-1') {
  const { sent } = stubFetch({
    'GET /api/supported-videos-languages': () => ({ status: 200, body: LANGUAGES }),
    // A video of 3000 bytes is in the archive; its digest is "abc…" (the hash stub's answer).
    'POST /api/videos/check-files': (request: SentRequest) => ({
      status: 200,
      body: {
        items: (request.body as CheckBody).files.map((f) =>
          f.size !== 3000
            ? { key: f.key, state: 'new' }
            : f.sha256
              ? {
                  key: f.key,
                  state: 'in-archive',
                  video: { id: 'v1', title: 'Harbour at dawn', filename: 'harbour.mp4' },
                }
              : { key: f.key, state: 'needs-hash' },
        ),
      },
    }),
  });
  const enqueueBatch = vi.fn(queued);
  const probe = vi.fn(async (file: File) => {
    if (file.name === 'broken.mov') throw new Error('no moov');
    return { durationSeconds: 30, videoDate: '2024-05-01T10:20:30.000' };
  });
  const hash = vi.fn(async () => 'abc'.padEnd(64, '0'));
  const user = userEvent.setup();
  render(
    <Providers store={createStore()} locale={{ locale: 'en', messages: englishMessages }}>
      <UploadDialog open onClose={vi.fn()} probe={probe} hash={hash} enqueueBatch={enqueueBatch} />
    </Providers>,
  );
  return { user, enqueueBatch, hash, sent };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Upload dialog with a folder', { timeout: 30_000 }, () => {
  it('lists what is left out, finds the duplicate by hash, and queues the rest as one batch', async () => {
    const { user, enqueueBatch, hash, sent } = renderDialog();
    await user.type(await screen.findByLabelText('About the video'), 'Summer archive');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.upload(screen.getByLabelText('Choose a folder of videos'), [
      inFolder('summer/a.mp4', 1000),
      inFolder('summer/b.m4v', 2000),
      inFolder('summer/again.mp4', 3000),
      inFolder('summer/broken.mov', 4000),
      inFolder('summer/notes.txt', 10),
    ]);

    const summary = await screen.findByText('5 files chosen: 2 to upload, 3 left out');
    expect(summary).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Chosen files' });
    const row = (path: string) => list.querySelector(`[data-chosen-file="${path}"]`) as HTMLElement;
    expect(
      within(row('summer/notes.txt')).getByText('Left out: not an MP4, M4V or MOV video.'),
    ).toBeTruthy();
    expect(
      within(row('summer/broken.mov')).getByText('Left out: this file could not be read.'),
    ).toBeTruthy();
    expect(
      await within(row('summer/again.mp4')).findByText('Already in the archive as Harbour at dawn'),
    ).toBeTruthy();
    // Only the file whose size matched was read whole.
    expect(hash).toHaveBeenCalledTimes(1);
    const checks = sent.filter((r) => r.url.pathname === '/api/videos/check-files');
    expect((checks[0]!.body as CheckBody).files.map((f) => f.size)).toEqual([
      1000, 2000, 3000, 4000,
    ]);

    const upload = screen.getByRole('button', { name: 'Upload' });
    await waitFor(() => expect(upload).toHaveProperty('disabled', false));
    await user.click(upload);
    await waitFor(() => expect(enqueueBatch).toHaveBeenCalledTimes(1));
    const input = enqueueBatch.mock.calls[0]![0];
    expect(input.details).toEqual({ output_language: 'en', about_this_video: 'Summer archive' });
    expect(input.files.map((f) => f.path)).toEqual(['summer/a.mp4', 'summer/b.m4v']);
    expect(input.skipped.map((s) => [s.path, s.skipped])).toEqual([
      ['summer/notes.txt', 'not-a-video'],
      ['summer/again.mp4', 'in-archive'],
      ['summer/broken.mov', 'unreadable'],
    ]);
  });

  it('uploads the duplicate too when asked, saying so to the server', async () => {
    const { user, enqueueBatch } = renderDialog();
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await user.upload(screen.getByLabelText('Choose a folder of videos'), [
      inFolder('summer/a.mp4', 1000),
      inFolder('summer/again.mp4', 3000),
    ]);
    await user.click(await screen.findByLabelText('Upload it anyway'));
    await screen.findByText('2 files chosen: 2 to upload, 0 left out');
    const upload = screen.getByRole('button', { name: 'Upload' });
    await waitFor(() => expect(upload).toHaveProperty('disabled', false));
    await user.click(upload);
    await waitFor(() => expect(enqueueBatch).toHaveBeenCalledTimes(1));
    const again = enqueueBatch.mock.calls[0]![0].files.find((f) => f.path === 'summer/again.mp4');
    expect(again).toMatchObject({ allowDuplicate: true, contentSha256: 'abc'.padEnd(64, '0') });
  });

  it('says in words when the browser has no room left to queue the batch', async () => {
    const { user } = renderDialog(() =>
      Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')),
    );
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await user.upload(screen.getByLabelText('Choose a folder of videos'), [
      inFolder('summer/a.mp4', 1000),
      inFolder('summer/b.mp4', 2000),
    ]);
    const upload = screen.getByRole('button', { name: 'Upload' });
    await waitFor(() => expect(upload).toHaveProperty('disabled', false));
    await user.click(upload);
    expect(
      await screen.findByText(
        'Your browser has no room left to queue these uploads. Free some disk space, or choose fewer files, and try again.',
      ),
    ).toBeTruthy();
    // The dialog stays, with the choice kept, so the user can act on it.
    expect(screen.getByText('2 files chosen: 2 to upload, 0 left out')).toBeTruthy();
  });
});
