import { parse } from '@formatjs/icu-messageformat-parser';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
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
  'nav',
]);
// Namespaces that travel with their own page (`lang/en.json?ns=landing`), in neither set above.
const PAGE_NAMESPACES = new Set(['landing', 'privacy']);

function precompileMessages(): Plugin {
  return {
    name: 'precompile-messages',
    enforce: 'pre',
    transform(code, id) {
      const match = /[\\/]lang[\\/]([a-z]{2})\.json(?:\?(deferred|ns=[a-z,]+))?$/.exec(id);
      if (!match) return null;
      const [, lang, query] = match;
      const pageNamespaces = query?.startsWith('ns=') ? new Set(query.slice(3).split(',')) : null;
      const wanted = (key: string): boolean => {
        const ns = key.split('.')[0] ?? '';
        if (pageNamespaces) return pageNamespaces.has(ns);
        if (lang !== 'en') return true; // other languages load on demand, whole
        if (query === 'deferred')
          return !FIRST_SCREEN_NAMESPACES.has(ns) && !PAGE_NAMESPACES.has(ns);
        return FIRST_SCREEN_NAMESPACES.has(ns);
      };
      const messages = JSON.parse(code) as Record<string, string>;
      const compiled = Object.fromEntries(
        Object.entries(messages)
          .filter(([key]) => wanted(key))
          .map(([key, text]) => [key, parse(text)]),
      );
      // With a query the file is no longer taken for JSON, so that part becomes a JS module.
      return query
        ? { code: `export default ${JSON.stringify(compiled)};`, map: null, moduleType: 'js' }
        : { code: JSON.stringify(compiled), map: null };
    },
  };
}

// The server sends these (@fastify/static preCompressed) to browsers that accept them: the
// first screen is about a third of its size on the wire and nothing is compressed per request.
function precompressAssets(): Plugin {
  let outDir = 'dist';
  return {
    name: 'precompress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
          const full = path.join(dir, e.name);
          return e.isDirectory() ? walk(full) : [full];
        });
      for (const file of walk(outDir)) {
        if (!/\.(js|mjs|css|html|svg|json|webmanifest|wasm)$/.test(file)) continue;
        const data = fs.readFileSync(file);
        if (data.length < 1024) continue;
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(data, {
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
          }),
        );
      }
    },
  };
}

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
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
  resolve: {
    alias: [
      {
        find: /^@formatjs\/icu-messageformat-parser$/,
        replacement: '@formatjs/icu-messageformat-parser/no-parser.js',
      },
    ],
  },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: { '/api': apiTarget, '/assets/data': apiTarget },
  },
});
