import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as OfflineConfig from '../../config/offline';
import { LocaleProvider } from '../../lib/locale-context';
import { openJobStore } from '../../upload-queue/job-store';
import { uploadJob } from '../../upload-queue/testing/upload-jobs';
import { setPwaState, skipWaitingNow } from './pwa-state';
import { UpdatePrompt } from './UpdatePrompt';

// Reload hands over to the new worker only once no upload is moving: a reload would cut it.
vi.mock('../../config/offline', async (importOriginal) => ({
  ...(await importOriginal<typeof OfflineConfig>()),
  UPDATE_IDLE_POLL_MS: 10,
}));
vi.mock(import('./pwa-state'), async (importOriginal) => ({
  ...(await importOriginal()),
  skipWaitingNow: vi.fn(),
}));

const AVAILABLE = 'A new version is available.';
const AFTER_UPLOAD = 'The new version will load when the running upload has finished.';
const container = new EventTarget();

beforeEach(async () => {
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: container });
  const store = await openJobStore();
  for (const job of await store.list()) await store.remove(job.id);
  act(() => setPwaState({ updateWaiting: true, updateDeferred: false }));
});

afterEach(() => {
  cleanup();
  vi.mocked(skipWaitingNow).mockClear();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

function renderPrompt() {
  render(
    <LocaleProvider>
      <UpdatePrompt />
    </LocaleProvider>,
  );
  return screen.getByRole('button', { name: 'Reload' });
}

describe('update prompt', { timeout: 30_000 }, () => {
  it('is shown only when a new version waits', () => {
    act(() => setPwaState({ updateWaiting: false }));
    render(
      <LocaleProvider>
        <UpdatePrompt />
      </LocaleProvider>,
    );
    expect(screen.queryByTestId('update-prompt')).toBeNull();
  });

  it('with no upload running, Reload lets the new worker take over at once', async () => {
    const store = await openJobStore();
    await store.put(uploadJob('failed', { phase: 'transferring', hold: 'failed' }));
    await store.put(uploadJob('finished', { phase: 'done', hold: 'active' }));
    const reload = renderPrompt();
    expect(screen.getByText(AVAILABLE)).toBeTruthy();
    const listening = vi.spyOn(container, 'addEventListener');

    await userEvent.click(reload);
    await waitFor(() => expect(skipWaitingNow).toHaveBeenCalledTimes(1));
    // The page reloads once the new worker controls it.
    expect(listening).toHaveBeenCalledWith('controllerchange', expect.any(Function), {
      once: true,
    });
    expect(screen.queryByText(AFTER_UPLOAD)).toBeNull();
  });

  it('with an upload running, Reload waits for it and says so', async () => {
    const store = await openJobStore();
    await store.put(uploadJob('running', { phase: 'transferring', hold: 'active' }));
    const reload = renderPrompt();

    await userEvent.click(reload);
    await screen.findByText(AFTER_UPLOAD);
    expect(reload).toHaveProperty('disabled', true);
    // Many looks at the queue later, the upload still runs: no hand-over.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(skipWaitingNow).not.toHaveBeenCalled();

    await store.update('running', (job) => ({ ...job, phase: 'done' }));
    await waitFor(() => expect(skipWaitingNow).toHaveBeenCalledTimes(1));
  });
});
