// The video list with the upload feature composed in (issue 3, spec sections 2 and 4): queuing an
// upload resets and closes the dialog and refreshes the list; Cancel closes it; and when an upload
// reaches its last step its queue row goes and the server's row shows the video in progress. The
// screens and the queue client are the real ones; the probe worker and the runner are left out.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobStore } from '../upload-queue/job-store';
import { emptySignedInStore, wake } from '../upload-queue/testing/idle-queue-host';
import { uploadJob } from '../upload-queue/testing/upload-jobs';
import { renderApp } from '../testing/render-app';
import { runnerSays } from '../testing/runner-messages';
import { stubSignedIn, useStoredSession } from '../testing/signed-in';
import { listPageFixture as page, listVideoFixture as video } from '../testing/video-fixtures';

vi.mock('../upload-queue/queue-host', () => import('../upload-queue/testing/idle-queue-host'));
vi.mock('../upload-queue/probe-bridge', () => ({
  probeVideo: async () => ({ durationSeconds: 75.5, videoDate: '2024-05-01T10:20:30.000' }),
}));

useStoredSession();

const FIRST = { timeout: 15_000 };
const LANGUAGES = [{ code: 'en', name: 'English' }];

function serve(list: () => unknown[]) {
  const stub = stubSignedIn({
    'GET /api/videos': () => ({ status: 200, body: page(list()) }),
    'GET /api/supported-videos-languages': () => ({ status: 200, body: LANGUAGES }),
  });
  const listCalls = () => stub.sent.filter((r) => r.url.pathname === '/api/videos').length;
  return { ...stub, listCalls };
}

let store: JobStore;

beforeEach(async () => {
  store = await emptySignedInStore();
  // jsdom has no StorageManager; the queue asks it for persistence and room.
  Object.defineProperty(navigator, 'storage', {
    configurable: true,
    value: { persist: async () => false, persisted: async () => false },
  });
});
afterEach(() => {
  store.close();
  Reflect.deleteProperty(navigator, 'storage');
});

/**
 * A picked file as the queue can store it: jsdom's File does not survive fake-indexeddb's
 * structured clone, Node's Blob (with a name and a date, as a File has) does.
 */
async function nodeFile(bytes: string, name: string, type: string): Promise<File> {
  const NodeBlob = (await new Response('').blob()).constructor as typeof Blob;
  return Object.assign(new NodeBlob([bytes], { type }), { name, lastModified: 1_700_000 }) as File;
}

async function openDialog(user: ReturnType<typeof renderApp>['user']): Promise<HTMLElement> {
  // The list's Upload button (the dialog's own is not there while it is closed).
  const [button] = await screen.findAllByRole('button', { name: 'Upload' }, FIRST);
  await user.click(button!);
  return screen.findByRole('dialog', {}, FIRST);
}

describe('Video list and upload dialog', { timeout: 60_000 }, () => {
  it('after queuing, the dialog resets and closes, and the list asks the server again', async () => {
    const { listCalls } = serve(() => []);
    const { user } = renderApp('/video');
    await screen.findByText('Currently, there are no videos.', {}, FIRST);
    let dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText('About the video'), 'Harbour festival');
    await user.type(within(dialog).getByLabelText('Name'), 'Aiko');
    await user.upload(
      within(dialog).getByLabelText('Image of person 1'),
      await nodeFile('png', 'aiko.png', 'image/png'),
    );
    await user.click(within(dialog).getByLabelText('Make a trailer'));
    await user.type(within(dialog).getByLabelText('Trailer instruction'), 'Only the fireworks');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await user.upload(
      await within(dialog).findByLabelText('Choose a video file'),
      await nodeFile('video', 'fest.mp4', 'video/mp4'),
    );
    const upload = within(dialog).getByRole('button', { name: 'Upload' });
    await waitFor(() => expect(upload).toHaveProperty('disabled', false));
    const before = listCalls();
    await user.click(upload);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [job] = await store.list();
    expect(job?.payload).toMatchObject({
      filename: 'fest.mp4',
      about_this_video: 'Harbour festival',
      trailer_instruction: 'Only the fireworks',
    });
    expect(job?.peopleNames).toEqual(['Aiko']);
    expect(wake).toHaveBeenCalled();
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
    // The queued upload is listed above the videos.
    const pending = await screen.findByRole('list', { name: 'Uploads' });
    expect(await within(pending).findByText('Waiting to upload', {}, FIRST)).toBeTruthy();
    expect(within(pending).getByText('fest.mp4')).toBeTruthy();
    expect(screen.queryByText('Something went wrong. Please try again!')).toBeNull();

    // Opened again, it starts over: step 1, nothing filled in, no file.
    dialog = await openDialog(user);
    expect(within(dialog).getByText('Step 1 of 2: Details')).toBeTruthy();
    expect(within(dialog).getByLabelText<HTMLTextAreaElement>('About the video').value).toBe('');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Name').value).toBe('');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Make a trailer').checked).toBe(false);
    expect(within(dialog).queryByLabelText('Trailer instruction')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(await within(dialog).findByTestId('video-drop-zone')).toBeTruthy();
    expect(within(dialog).queryByTestId('chosen-video-name')).toBeNull();
  });

  it('Cancel closes the dialog without queuing anything', async () => {
    serve(() => []);
    const { user } = renderApp('/video');
    const dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText('About the video'), 'Harbour festival');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await store.list()).toEqual([]);
  });

  it('when an upload finishes, its row goes and the server row shows it in progress', async () => {
    await store.put({
      ...uploadJob('j1', { phase: 'status-sent', hold: 'active' }),
      file: { name: 'fest.mp4', size: 1000, lastModified: 0, type: 'video/mp4', edgeHash: '' },
      bytesDone: 1000,
      videoId: 'a',
    });
    let status = 'uploading';
    const done = video({ id: 'c', filename: 'harbour.mp4', title: 'Harbour at dawn' });
    const { listCalls } = serve(() => [video({ id: 'a', filename: 'fest.mp4', status }), done]);
    renderApp('/video');
    expect(await screen.findByText('Harbour at dawn', {}, FIRST)).toBeTruthy();
    const pending = await screen.findByRole('list', { name: 'Uploads' });
    expect(await within(pending).findByText('Finishing the upload…', {}, FIRST)).toBeTruthy();
    // While the queue has it, the video is its upload row only.
    await waitFor(() =>
      expect(screen.getAllByTestId('video-row').map((row) => row.dataset.status)).toEqual([
        'completed',
      ]),
    );

    // The runner's last step: the server has the status, the job is removed, pages are told.
    status = 'in_progress';
    const before = listCalls();
    await store.remove('j1');
    await runnerSays({ jobId: 'j1', state: 'done', progress: 1, videoId: 'a' });
    // Asked again at once, not at the next poll (5 s while a video is in progress).
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before), { timeout: 2_500 });
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Uploads' })).toBeNull());
    const row = await waitFor(() => {
      const found = screen
        .getAllByTestId('video-row')
        .find((r) => within(r).queryByText('fest.mp4'));
      expect(found).toBeTruthy();
      return found!;
    });
    expect(row.dataset.status).toBe('in_progress');
    expect(within(row).getByText('In progress')).toBeTruthy();
    expect(screen.getAllByText('fest.mp4')).toHaveLength(1);
  });
});
