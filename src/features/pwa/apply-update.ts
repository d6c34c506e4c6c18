// The update prompt's Reload, loaded with the signed-in area (not the entry).
import { UPDATE_IDLE_POLL_MS } from '../../config/offline';
import { setPwaState, skipWaitingNow } from './pwa-state';

/**
 * The update prompt's Reload: waits until no upload is moving (the page may be the one running
 * the queue, and a reload would cut it), then lets the new worker take over and reloads once it
 * controls the page.
 */
export async function applyUpdate(): Promise<void> {
  const [{ openJobStore }, { uploadsInFlight, whenUploadsIdle }] = await Promise.all([
    import('../../upload-queue/job-store'),
    import('../../upload-queue/upload-activity'),
  ]);
  const store = await openJobStore();
  const jobs = () => store.list();
  if (uploadsInFlight(await jobs())) {
    setPwaState({ updateDeferred: true });
    await whenUploadsIdle(jobs, UPDATE_IDLE_POLL_MS);
  }
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
    once: true,
  });
  skipWaitingNow();
}
