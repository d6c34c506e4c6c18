// The queued uploads above the video list (issue 3): each row's state and progress, Retry and
// Cancel on the real queue client (IndexedDB and BroadcastChannel), and choosing the file again
// when the queue lost it. Only the runner is left out: the host's wake is a spy.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../app/providers';
import { createStore } from '../../app/store';
import { englishMessages } from '../../lib/i18n';
import { runnerSays } from '../../testing/runner-messages';
import { describeFile } from '../../upload-queue/fingerprint';
import type { JobStore } from '../../upload-queue/job-store';
import type { ChannelMessage } from '../../upload-queue/queue-host';
import { openQueueChannel } from '../../upload-queue/progress-channel';
import { emptySignedInStore, wake } from '../../upload-queue/testing/idle-queue-host';
import { uploadJob } from '../../upload-queue/testing/upload-jobs';
import { PendingUploads } from './components/PendingUploads';

vi.mock(
  '../../upload-queue/queue-host',
  () => import('../../upload-queue/testing/idle-queue-host'),
);

const MIB = 1024 * 1024;
let store: JobStore;

beforeEach(async () => {
  store = await emptySignedInStore();
});
afterEach(() => {
  cleanup();
  store.close();
});

function renderRows() {
  render(
    <Providers store={createStore()} locale={{ locale: 'en', messages: englishMessages }}>
      <PendingUploads />
    </Providers>,
  );
  return userEvent.setup();
}

/** The row of a job once its Chakra code has loaded (its buttons are there). */
async function row(jobId: string): Promise<HTMLElement> {
  await screen.findAllByRole('button', { name: 'Cancel upload' }, { timeout: 15_000 });
  return document.querySelector<HTMLElement>(`[data-upload-job="${jobId}"]`)!;
}

describe('Pending upload rows', { timeout: 30_000 }, () => {
  it('shows the progress and the part being sent, and follows the runner', async () => {
    const size = 100 * MIB;
    await store.put({
      ...uploadJob('j1', { phase: 'transferring', hold: 'active' }),
      file: { name: 'pier.mp4', size, lastModified: 0, type: 'video/mp4', edgeHash: '' },
      bytesDone: Math.round(size * 0.42),
      videoId: 'v1',
      multipart: {
        uploadId: 'u1',
        partSize: 16 * MIB,
        key: 'k',
        completed: false,
        parts: [1, 2].map((partNumber) => ({ partNumber, etag: `e${partNumber}`, size: 16 * MIB })),
      },
    });
    renderRows();
    const item = await row('j1');
    expect(within(item).getByText('pier.mp4')).toBeTruthy();
    expect(within(item).getByText('Uploading 42% · part 3 of 7')).toBeTruthy();
    const bar = within(item).getByRole('progressbar', { name: 'Upload progress of pier.mp4' });
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
    expect(within(item).queryByRole('button', { name: 'Retry' })).toBeNull();

    await runnerSays({
      jobId: 'j1',
      state: 'transferring',
      progress: 0.5,
      part: { index: 4, count: 7 },
    });
    expect(within(item).getByText('Uploading 50% · part 4 of 7')).toBeTruthy();
    expect(bar.getAttribute('aria-valuenow')).toBe('50');

    await runnerSays({ jobId: 'j1', state: 'waiting-retry', progress: 0.5 });
    expect(
      within(item).getByText('Connection problem. Trying again shortly (50% uploaded).'),
    ).toBeTruthy();
    expect(within(item).getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('retries a failed upload: the queue runs it again and the row leaves the failed state', async () => {
    await store.put({
      ...uploadJob('j1', { phase: 'created', hold: 'failed' }),
      videoId: 'v1',
      attempts: 4,
      lastError: 'The server refused the file.',
    });
    const user = renderRows();
    const item = await row('j1');
    expect(item.dataset.uploadState).toBe('failed');
    expect(within(item).getByText('The upload failed.')).toBeTruthy();
    expect(within(item).getByText('The server refused the file.')).toBeTruthy();

    await user.click(within(item).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(item.dataset.uploadState).toBe('created'));
    expect(within(item).getByText('Preparing the upload…')).toBeTruthy();
    expect(within(item).queryByText('The server refused the file.')).toBeNull();
    expect(within(item).queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(await store.get('j1')).toMatchObject({ hold: 'active', attempts: 0, nextAttemptAt: 0 });
    expect(wake).toHaveBeenCalled();
  });

  it('cancels an upload: the row goes and the runner is told to abort it', async () => {
    await store.put({
      ...uploadJob('j1', { phase: 'transferring', hold: 'active' }),
      videoId: 'v1',
    });
    await store.put(uploadJob('j2', { phase: 'queued', hold: 'active' }));
    const control: ChannelMessage[] = [];
    const channel = openQueueChannel();
    channel.addEventListener('message', (e: MessageEvent<ChannelMessage>) => control.push(e.data));
    try {
      const user = renderRows();
      const item = await row('j1');
      await user.click(within(item).getByRole('button', { name: 'Cancel upload' }));
      await waitFor(() => expect(document.querySelector('[data-upload-job="j1"]')).toBeNull());
      // The other upload stays.
      expect(document.querySelector('[data-upload-job="j2"]')).not.toBeNull();
      expect(await store.get('j1')).toMatchObject({ hold: 'cancelled', cancelPending: true });
      await waitFor(() => expect(control).toContainEqual({ type: 'cancel', jobId: 'j1' }));
      expect(wake).toHaveBeenCalled();
    } finally {
      channel.close();
    }
  });

  it('asks for the file again, refuses a different one and continues with the same one', async () => {
    const bytes = new Uint8Array(3 * MIB).map((_, i) => i % 251);
    const original = new File([bytes], 'pier.mp4', { type: 'video/mp4', lastModified: 1_700_000 });
    await store.put({
      ...uploadJob('j1', { phase: 'transferring', hold: 'needs-file' }),
      file: await describeFile(original),
      fileKeep: 'none',
      videoId: 'v1',
    });
    const user = renderRows();
    const item = await row('j1');
    expect(within(item).getByText('Please choose the same file again to continue.')).toBeTruthy();
    expect(within(item).getByRole('button', { name: 'Choose the file again' })).toBeTruthy();
    const input = within(item).getByLabelText('Choose pier.mp4 again');

    // Same name, size and date, other bytes: only the fingerprint tells them apart.
    const changed = bytes.slice();
    changed[bytes.length - 1] = 7;
    const other = new File([changed], 'pier.mp4', { type: 'video/mp4', lastModified: 1_700_000 });
    await user.upload(input, other);
    expect(
      await within(item).findByText('This is not the same file. Please choose pier.mp4.'),
    ).toBeTruthy();
    expect(item.dataset.uploadState).toBe('needs-file');
    expect(wake).not.toHaveBeenCalled();

    const again = new File([bytes], 'pier.mp4', { type: 'video/mp4', lastModified: 1_700_000 });
    await user.upload(input, again);
    await waitFor(() => expect(item.dataset.uploadState).toBe('transferring'));
    expect(within(item).queryByText(/This is not the same file/)).toBeNull();
    expect(within(item).queryByRole('button', { name: 'Choose the file again' })).toBeNull();
    expect((await store.get('j1'))?.hold).toBe('active');
    expect(wake).toHaveBeenCalled();
  });
});
