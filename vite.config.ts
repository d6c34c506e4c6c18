// The build of the web app. Each plugin of our own is in vite-plugins/, one file each.
import { VitePWA } from 'vite-plugin-pwa';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { ALIASES } from './vite-plugins/aliases';
import { firstScreens } from './vite-plugins/first-screens';
import { precompileMessages } from './vite-plugins/precompile-messages';
import { precompressAssets } from './vite-plugins/precompress-assets';
import { skipChakraRuntimeGlobals } from './vite-plugins/skip-chakra-runtime-globals';
import { skipIntlLocaleDataCheck } from './vite-plugins/skip-intl-locale-data-check';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    firstScreens(),
    skipChakraRuntimeGlobals(),
    skipIntlLocaleDataCheck(),
    precompileMessages(),
    react(),
    precompressAssets(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        // mediainfo.js' wasm (about 2.6 MB) must be precached so the duration probe works offline.
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,wasm,json}'],
        // Store screenshots are for the install dialog only, fetched online by the browser.
        globIgnores: ['screenshots/**'],
      },
      devOptions: { enabled: false, type: 'module' },
    }),
  ],
  resolve: { alias: ALIASES },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    modulePreload: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'initial', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    proxy: { '/api': apiTarget, '/assets/data': apiTarget },
  },
});
