// Entry point: mounts the providers and the router, and registers the service worker.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from './app/providers';
import { AppRouter } from './app/router';
import { createStore } from './app/store';
import { registerServiceWorker, watchInstallPrompt } from './features/pwa/pwa-state';
import { loadInitialLocale } from './lib/locale-context';

async function start(): Promise<void> {
  watchInstallPrompt(); // the browser may offer installation before any screen has loaded
  const root = document.getElementById('root');
  if (!root) return;
  const store = createStore();
  const locale = await loadInitialLocale();
  createRoot(root).render(
    <StrictMode>
      <Providers store={store} locale={locale}>
        <AppRouter />
      </Providers>
    </StrictMode>,
  );
  registerServiceWorker().catch((error: unknown) =>
    console.warn('Service worker not registered', error),
  );
}

void start();
