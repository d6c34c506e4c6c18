import { parse } from '@formatjs/icu-messageformat-parser';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// Messages are parsed at build time so the browser needs no ICU parser (about 8 KB gzipped).
function precompileMessages(): Plugin {
  return {
    name: 'precompile-messages',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]lang[\\/][a-z]{2}\.json$/.test(id)) return null;
      const messages = JSON.parse(code) as Record<string, string>;
      const compiled = Object.fromEntries(
        Object.entries(messages).map(([key, text]) => [key, parse(text)]),
      );
      return { code: JSON.stringify(compiled), map: null };
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
