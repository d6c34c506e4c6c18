// What every screen relies on: the store and the language. Chakra is not here: the screens that
// use it bring it (ChakraScope, through the router), so the first screens load without it.
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { LocaleProvider, type LoadedLocale } from '../lib/locale-context';
import { SessionKeeper } from './SessionKeeper';
import type { AppStore } from './store';

export interface AppProvidersProps {
  store: AppStore;
  locale?: LoadedLocale;
  children: ReactNode;
}

export function AppProviders({ store, locale, children }: AppProvidersProps) {
  return (
    <Provider store={store}>
      <LocaleProvider initial={locale}>
        <SessionKeeper />
        {children}
      </LocaleProvider>
    </Provider>
  );
}
