import { parse } from '@formatjs/icu-messageformat-parser';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// Messages are parsed at build time so the browser needs no ICU parser (about 8 KB gzipped).
// English ships with the entry, so `lang/en.json` keeps only the namespaces the signed-out
// screens use; `lang/en.json?deferred` holds the rest and loads with the signed-in area
// (src/lib/deferred-messages.tsx). Tests and types see the whole file.
const FIRST_SCREEN_NAMESPACES = new Set([
  'app',
  'common',
  'validation',
  'modal',
  'landing',
  'login',
  'forgot',
  'reset',
  'password',
  'notFound',
  'privacy',
  'nav',
]);

function precompileMessages(): Plugin {
  return {
    name: 'precompile-messages',
    enforce: 'pre',
    transform(code, id) {
      const match = /[\\/]lang[\\/]([a-z]{2})\.json(\?deferred)?$/.exec(id);
      if (!match) return null;
      const [, lang, deferred] = match;
      const wanted = (key: string): boolean => {
        if (lang !== 'en') return true; // other languages load on demand, whole
        return FIRST_SCREEN_NAMESPACES.has(key.split('.')[0] ?? '') !== Boolean(deferred);
      };
      const messages = JSON.parse(code) as Record<string, string>;
      const compiled = Object.fromEntries(
        Object.entries(messages)
          .filter(([key]) => wanted(key))
          .map(([key, text]) => [key, parse(text)]),
      );
      // With a query the file is no longer taken for JSON, so that part becomes a JS module.
      return deferred
        ? { code: `export default ${JSON.stringify(compiled)};`, map: null, moduleType: 'js' }
        : { code: JSON.stringify(compiled), map: null };
    },
  };
}

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    precompileMessages(),
    react(),
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
  resolve: {
    alias: [
      {
        find: /^@formatjs\/icu-messageformat-parser$/,
        replacement: '@formatjs/icu-messageformat-parser/no-parser.js',
      },
    ],
  },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 600 },
  server: {
    proxy: { '/api': apiTarget, '/assets/data': apiTarget },
  },
});
