import type { Plugin } from 'vite';

/**
 * Chakra's createSystem computes its global CSS (reset, base, about 1,000 token variables) on
 * every page load, about half of its time, for ChakraProvider to insert. The build already has
 * that CSS as a static stylesheet (firstScreens) and ChakraScope inserts nothing, so in the
 * browser build the list stays empty. Fails the build if Chakra changes that line.
 */
export function skipChakraRuntimeGlobals(): Plugin {
  const line = 'const _global = [getPreflightCss(), getGlobalCss(), getTokenCss()];';
  return {
    name: 'skip-chakra-runtime-globals',
    apply: 'build',
    transform(code, id) {
      if (!/@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]styled-system[\\/]system\.js$/.test(id))
        return null;
      if (!code.includes(line)) throw new Error(`Chakra's system.js no longer has: ${line}`);
      return { code: code.replace(line, 'const _global = [];'), map: null };
    },
  };
}
