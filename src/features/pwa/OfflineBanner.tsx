// Says plainly that the app is offline, in one line beside the sidebar (a bold headline, then what
// that means), and asks RTK Query to refresh what is on screen once the connection is back (the
// answers shown offline came from the service worker's cache).
import { useEffect, useRef } from 'react';
import { loadedApi } from '../../lib/api-registry';
import { useT } from '../../lib/locale-context';
import { useOnline } from '../../lib/offline';
import { useAppDispatch } from '../../lib/store-hooks';
import styles from './pwa.module.css';

/** Health probes after `online`: the first at once, then 0.5 s apart growing to 30 s, until one answers. */
const RECONNECT_FIRST_WAIT_MS = 500;
const RECONNECT_MAX_WAIT_MS = 30_000;
/** A probe that gets no answer in this time counts as failed (a half-open route hangs). */
const RECONNECT_PROBE_TIMEOUT_MS = 10_000;

export function OfflineBanner() {
  const t = useT();
  const online = useOnline();
  useRefreshOnReconnect(online);
  if (online) return null;
  return (
    <div role="status" data-testid="offline-banner" className={styles.offline}>
      <strong>{t('pwa.offline')}</strong> {t('pwa.offlineDetail')}
    </div>
  );
}

function useRefreshOnReconnect(online: boolean): void {
  const dispatch = useAppDispatch();
  const wasOffline = useRef(!online);
  useEffect(() => {
    if (!online) {
      wasOffline.current = true;
      return;
    }
    if (!wasOffline.current) return;
    wasOffline.current = false;
    const controller = new AbortController();
    void untilServerAnswers(controller.signal).then((reached) => {
      const api = loadedApi();
      // Refetches every query on screen (refetchOnReconnect in src/lib/api.ts).
      if (reached && api) dispatch(api.internalActions.onOnline());
    });
    return () => controller.abort();
  }, [online, dispatch]);
}

/**
 * `online` fires when a network interface is up, which is not yet a working route to the server
 * (captive portals, a radio still negotiating); refetching too early would only show the cached
 * answers again. The health check is never cached, so its answer means the server is reachable.
 */
async function untilServerAnswers(signal: AbortSignal): Promise<boolean> {
  for (let wait = RECONNECT_FIRST_WAIT_MS; !signal.aborted;) {
    const probe = new AbortController();
    const stop = (): void => probe.abort();
    signal.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(stop, RECONNECT_PROBE_TIMEOUT_MS);
    const ok = await fetch('/api/health', { cache: 'no-store', signal: probe.signal })
      .then(
        (res) => res.ok,
        () => false,
      )
      .finally(() => {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
      });
    if (ok) return true;
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(wait * 1.5, RECONNECT_MAX_WAIT_MS);
  }
  return false;
}
