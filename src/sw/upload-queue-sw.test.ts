// The worker's side of long uploads (issue 3): at the end of a bounded run with work left, it
// tells its open pages when that work is due, so a page can wake it then with a new event.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openJobStore } from '../upload-queue/job-store.ts';
import type { RunResult } from '../upload-queue/runner.ts';

describe('the worker at the end of a run', () => {
  const wake = vi.fn<() => Promise<RunResult | undefined>>();
  const pagePost = vi.fn();

  beforeEach(async () => {
    vi.resetModules();
    wake.mockReset();
    pagePost.mockReset();
    vi.doMock('../upload-queue/queue-host.ts', () => ({
      createQueueHost: () => ({ wake, store: () => openJobStore() }),
    }));
    vi.stubGlobal('self', {
      addEventListener: vi.fn(),
      clients: { matchAll: vi.fn(async () => [{ postMessage: pagePost }]) },
    });
  });

  afterEach(() => {
    vi.doUnmock('../upload-queue/queue-host.ts');
    vi.unstubAllGlobals();
  });

  async function startWorker(): Promise<void> {
    const { installUploadQueue } = await import('./upload-queue-sw.ts');
    installUploadQueue(); // a worker start runs the queue once
    await vi.waitFor(() => expect(wake).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 0));
  }

  it('tells the open pages when the work it left is due', async () => {
    wake.mockResolvedValue({ transitions: 40, workLeft: true, nextWakeAt: 1_234 });
    await startWorker();
    expect(pagePost).toHaveBeenCalledWith({ type: 'UPLOAD_QUEUE_CONTINUE', at: 1_234 });
  });

  it('says nothing when no work is left, or when another context runs the queue', async () => {
    wake.mockResolvedValueOnce({ transitions: 3, workLeft: false });
    await startWorker();
    wake.mockResolvedValueOnce(undefined);
    await startWorker();
    expect(pagePost).not.toHaveBeenCalled();
  });
});
