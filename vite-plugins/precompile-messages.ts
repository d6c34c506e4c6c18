import { parse } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';

// Messages are parsed at build time so the browser needs no ICU parser (about 8 KB gzipped).
// English ships with the entry, so `lang/en.json` keeps only the namespaces the signed-out
// screens use; `lang/en.json?deferred` holds the rest and loads with the signed-in area
// (src/lib/deferred-messages.tsx). Tests and types see the whole file.
const FIRST_SCREEN_NAMESPACES = new Set([
  'app',
  'common',
  'validation',
  'modal',
  'login',
  'forgot',
  'reset',
  'password',
  'notFound',
  'nav',
]);
// Namespaces that travel with their own page (`lang/en.json?ns=landing`), not in the entry's set
// above (the landing page is in the entry: its texts there twice cost 1 KB gzip).
const PAGE_NAMESPACES = new Set(['landing', 'privacy']);

export function precompileMessages(): Plugin {
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
