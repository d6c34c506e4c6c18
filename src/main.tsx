// Entry point: mounts the app (hydrating the prerendered first screen when the page has one) and
// registers the service worker.
import 'virtual:chakra-global.css';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadSignedInPage } from './app/router';
import { createStore } from './app/store';
import { registerServiceWorker, watchInstallPrompt } from './features/pwa/pwa-state';
import { loadInitialLocale } from './lib/locale-context';
import { restoreSession } from './lib/session';
import { initialSessionState } from './lib/session-slice';
import { hasStoredUser } from './lib/session-storage';

async function start(): Promise<void> {
  watchInstallPrompt(); // the browser may offer installation before any screen has loaded
  const root = document.getElementById('root');
  if (!root) return;
  const storedUser = hasStoredUser();
  // Without a stored user there is nothing to restore: the visitor is signed out from the first
  // render, as the prerendered sign-in page assumes.
  const store = createStore({
    session: { ...initialSessionState, status: storedUser ? 'restoring' : 'signedOut' },
  });
  // A returning user's page starts complete: session restored, locale, and the page's code
  // loaded and run before the first render (issue 8, nothing blocks the main thread after the
  // first paint but the page itself). SessionKeeper verifies the restored session as before.
  const [locale] = await Promise.all([
    loadInitialLocale(),
    storedUser ? store.dispatch(restoreSession()) : null,
    // A failed load shows up where the lazy part renders, as before.
    storedUser ? preloadSignedInPage(window.location.pathname).catch(() => undefined) : null,
  ]);
  const app = <App store={store} locale={locale} />;
  // A transition renders (and hydrates) in slices that yield to the browser: no long task on
  // start. Hydrated at once, the prerendered page was one 45 ms task of CPU after its first paint,
  // four times that on Lighthouse's phone (issue 29). Input on the page meanwhile is not lost:
  // React hydrates at once what a click or key lands on, and the fields keep typed text.
  startTransition(() => {
    if (root.firstChild) {
      // index.html put the prerendered landing or login page here (vite-plugins/first-screens.ts).
      hydrateRoot(root, app);
    } else {
      createRoot(root).render(app);
    }
  });
  afterFirstScreen(() => {
    registerServiceWorker().catch((error: unknown) =>
      console.warn('Service worker not registered', error),
    );
  });
}

/**
 * How long after the page's load event (and an idle moment) the service worker is registered.
 * Its install precaches the whole app (92 files, 3.8 MB with the media probe's wasm): in
 * Lighthouse's traces of /login its thread took 390-640 ms of CPU and the page's main thread
 * 20-25 ms more, right while the first screen hydrated, on a phone's two cores and slow 4G link
 * (issue 29, docs/decisions/first-screens-prerendered.md).
 */
const SERVICE_WORKER_DELAY_MS = 8000;

function afterFirstScreen(run: () => void): void {
  const later = (): void => {
    window.setTimeout(() => {
      if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2000 });
      else run();
    }, SERVICE_WORKER_DELAY_MS);
  };
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

void start();
