import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import { ALIASES } from './aliases';
import { precompileMessages } from './precompile-messages';

interface PrerenderModule {
  prerenderPages(): { path: string; html: string; signedOutOnly: boolean }[];
  PRERENDER_CONDITIONS: { languageKey: string; userKey: string; language: string };
  chakraGlobalCss(): string;
}

const CHAKRA_CSS_ID = 'virtual:chakra-global.css';
const RESOLVED_CHAKRA_CSS_ID = '/@chakra-global.css';

// The first screens without waiting for JavaScript (issue 8): src/app/prerender.tsx is built for
// Node and run once per build. Its HTML of the landing and login pages goes into index.html as
// templates, and a small inline script shows the one for the current path before first paint
// (only in English, without a query, and for login only without a stored user: then the app's
// first render is the same and React hydrates it). index.html stays the one shell for every path,
// online and in the service worker. The same run gives Chakra's global CSS as a static
// stylesheet (`virtual:chakra-global.css`, in the entry's CSS), which ChakraScope then skips.
export function firstScreens(): Plugin {
  let root = process.cwd();
  let result: Promise<PrerenderModule> | undefined;
  const render = (): Promise<PrerenderModule> =>
    (result ??= (async () => {
      const tmp = path.join(root, 'node_modules', '.tmp');
      fs.mkdirSync(tmp, { recursive: true });
      const outDir = fs.mkdtempSync(path.join(tmp, 'prerender-'));
      try {
        await build({
          configFile: false,
          root,
          logLevel: 'warn',
          plugins: [precompileMessages(), react()],
          resolve: { alias: ALIASES },
          build: {
            ssr: 'src/app/prerender.tsx',
            outDir,
            minify: false,
            rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
          },
        });
        return (await import(
          pathToFileURL(path.join(outDir, 'prerender.mjs')).href
        )) as PrerenderModule;
      } finally {
        fs.rmSync(outDir, { recursive: true, force: true });
      }
    })());
  return {
    name: 'first-screens',
    configResolved(config) {
      root = config.root;
    },
    resolveId(id) {
      return id === CHAKRA_CSS_ID ? RESOLVED_CHAKRA_CSS_ID : null;
    },
    async load(id) {
      return id === RESOLVED_CHAKRA_CSS_ID ? (await render()).chakraGlobalCss() : null;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        if (ctx.server) return html; // `npm run dev` renders in the browser
        const module = await render();
        const templates = module
          .prerenderPages()
          .map(
            (page) =>
              `<template data-path="${page.path}"${page.signedOutOnly ? ' data-signed-out-only' : ''}>${page.html}</template>`,
          )
          .join('');
        // The entry's stylesheet inline: the first paint waits for no second request.
        const withCss = html.replace(
          /<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/,
          (_tag, file: string) => {
            const asset = ctx.bundle?.[file];
            if (asset?.type !== 'asset') throw new Error(`no CSS asset ${file}`);
            // The disabled link is never fetched; it tells Vite's loader of lazy chunks that this
            // stylesheet is on the page, which would otherwise add it again after the chunks' own
            // CSS and override it.
            return `<style>${String(asset.source)}</style><link rel="stylesheet" href="/${file}" disabled>`;
          },
        );
        // The scripts leave the head: the page script below adds them (see firstPaintScript).
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(withCss);
        if (!entry?.[1]) throw new Error('index.html has no entry script');
        // The entry's own imports load alongside it (build.modulePreload is off: Vite would
        // also insert preload links from script before every lazy screen, a few ms each).
        const preloads = (ctx.chunk?.imports ?? []).map((file) => `/${file}`);
        const head = withCss.replace(entry[0], '');
        if (!head.includes('<div id="root"></div>'))
          throw new Error('index.html has no empty #root');
        const script = firstPaintScript({
          ...module.PRERENDER_CONDITIONS,
          entry: entry[1],
          preloads,
        });
        return head.replace(
          '<div id="root"></div>',
          `<div id="root"></div>${templates}<script>${script}</script>`,
        );
      },
    },
  };
}

/**
 * Runs in the page as soon as the parser reaches it. Shows the prerendered page for the current
 * path when the app's first render will be the same one (English, no query, and no stored user
 * where the page is for signed-out visitors only). Then loads the app: at once when nothing was
 * shown, after the first frame when the prerendered page was, so its paint never waits for (nor
 * shares the network with) the scripts.
 */
function firstPaintScript(c: {
  languageKey: string;
  userKey: string;
  language: string;
  entry: string;
  preloads: string[];
}): string {
  const json = JSON.stringify;
  return `(function(){
var shown=false;
try{
var t=document.querySelector('template[data-path="'+location.pathname+'"]');
if(t&&!location.search){var l=localStorage.getItem(${json(c.languageKey)});
if((l?l===${json(c.language)}:!/^ja/i.test(navigator.language||''))&&!(t.hasAttribute('data-signed-out-only')&&localStorage.getItem(${json(c.userKey)})!==null)){
document.getElementById('root').appendChild(t.content);shown=true}}
}catch(e){}
var started=false;
function load(){if(started)return;started=true;
${json(c.preloads)}.forEach(function(h){var p=document.createElement('link');p.rel='modulepreload';p.crossOrigin='';p.href=h;document.head.appendChild(p)});
var s=document.createElement('script');s.type='module';s.crossOrigin='';s.src=${json(c.entry)};document.head.appendChild(s)}
if(shown){requestAnimationFrame(function(){setTimeout(load,0)});setTimeout(load,250)}else load();
})()`.replace(/\n/g, '');
}
