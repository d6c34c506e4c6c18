// Everything the screens rely on: the store, the language, the design system.
import { ChakraProvider } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { LocaleProvider, type LoadedLocale } from '../lib/locale-context';
import { SessionKeeper } from './SessionKeeper';
import type { AppStore } from './store';
import { system } from './theme';

interface ProvidersProps {
  store: AppStore;
  locale?: LoadedLocale;
  children: ReactNode;
}

export function Providers({ store, locale, children }: ProvidersProps) {
  return (
    <Provider store={store}>
      <LocaleProvider initial={locale}>
        <ChakraProvider value={system}>
          <SessionKeeper />
          {children}
        </ChakraProvider>
      </LocaleProvider>
    </Provider>
  );
}
