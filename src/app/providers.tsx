// Everything a component may rely on, Chakra included: for tests that render screens or parts
// directly. The app itself starts with AppProviders (src/main.tsx) and loads Chakra per screen.
import { AppProviders, type AppProvidersProps } from './app-providers';
import { ChakraScope } from './chakra-scope';

export function Providers({ store, locale, children }: AppProvidersProps) {
  return (
    <AppProviders store={store} locale={locale}>
      <ChakraScope>{children}</ChakraScope>
    </AppProviders>
  );
}
