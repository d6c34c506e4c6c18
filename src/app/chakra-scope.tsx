// Chakra for the screens that use it, loaded with them: the first screens (landing, sign-in
// pages) carry no Chakra at all (issue 8, first-screen budget and blocking time).
import { ChakraProvider } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { appSystem } from './theme';

type AppSystem = ReturnType<typeof appSystem>;

// Chakra's global CSS (reset, tokens, base styles, layer order) is written into a static
// stylesheet at build time (vite.config.ts, src/app/prerender.tsx), loaded by every page before
// any script, so the provider has no globals to insert; those two fields are all it reads. The
// system itself (tens of ms of token work) is built when a Chakra component first renders: the
// video list and the signed-in shell render none, so a start there never pays for it.
const runtimeSystem = new Proxy(
  { _global: [], _config: { disableLayers: true } },
  {
    get(own, key) {
      return key in own ? own[key as keyof typeof own] : appSystem()[key as keyof AppSystem];
    },
  },
) as unknown as AppSystem;

export function ChakraScope({ children }: { children: ReactNode }) {
  return <ChakraProvider value={runtimeSystem}>{children}</ChakraProvider>;
}
