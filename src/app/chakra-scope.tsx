// Chakra for the screens that use it, loaded with them: the first screens (landing, sign-in
// pages) carry no Chakra at all (issue 8, first-screen budget and blocking time).
import { ChakraProvider } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { system } from './theme';

// Chakra's global CSS (reset, tokens, base styles, layer order) is written into a static
// stylesheet at build time (vite.config.ts, src/app/prerender.tsx), loaded by every page before
// any script. The provider would insert the same rules again through emotion on every page load,
// which cost about 100 ms of main thread in the video list's start; this system has none to add.
const runtimeSystem: typeof system = {
  ...system,
  _global: [],
  _config: { ...system._config, disableLayers: true },
};

export function ChakraScope({ children }: { children: ReactNode }) {
  return <ChakraProvider value={runtimeSystem}>{children}</ChakraProvider>;
}
