// The upload dialog needs the output languages to queue an upload, and offline it can only use
// the ones it remembered. Online, with the service worker in control, this fetches them a moment
// after the list shows (off the first load's path), so the dialog queues uploads offline after one
// online visit even if it was never opened online.
import { useEffect } from 'react';
import { LANGUAGES_PREFETCH_DELAY_MS } from '../../../config/offline';
import { useOnline } from '../../../lib/offline';
import { usePrefetchLanguages } from '../api';

/** Languages younger than this are not fetched again. */
const FRESH_SECONDS = 60 * 60;

export function useLanguagesForOffline(): void {
  const online = useOnline();
  const prefetchLanguages = usePrefetchLanguages();
  useEffect(() => {
    // Without a service worker the app does not open offline at all: nothing to prepare.
    if (!online || !navigator.serviceWorker?.controller) return;
    const timer = window.setTimeout(
      () => prefetchLanguages(undefined, { ifOlderThan: FRESH_SECONDS }),
      LANGUAGES_PREFETCH_DELAY_MS,
    );
    return () => window.clearTimeout(timer);
  }, [online, prefetchLanguages]);
}
