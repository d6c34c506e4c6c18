// The whole app for one store and language: what the browser mounts (src/main.tsx) and what the
// build prerenders for the first screens (src/app/prerender.tsx), the same tree so that the
// browser can hydrate the prerendered HTML.
import { StrictMode } from 'react';
import type { LoadedLocale } from '../lib/locale-context';
import { AppProviders } from './app-providers';
import { AppRouter } from './router';
import type { AppStore } from './store';

export function App({ store, locale }: { store: AppStore; locale: LoadedLocale }) {
  return (
    <StrictMode>
      <AppProviders store={store} locale={locale}>
        <AppRouter />
      </AppProviders>
    </StrictMode>
  );
}
