// Build time only (vite.config.ts, firstScreens): the HTML of the first screens, rendered from the
// same tree the browser hydrates, and Chakra's global CSS as a static stylesheet. Neither waits
// for JavaScript in the browser: first paint and the largest text come with the HTML (issue 8).
import { ChakraProvider } from '@chakra-ui/react';
import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { ROUTES } from '../config/routes';
import { LANGUAGE_STORAGE_KEY, USER_STORAGE_KEY } from '../config/storage-keys';
import { englishMessages } from '../lib/i18n';
import { initialSessionState } from '../lib/session-slice';
import { App } from './App';
import { createStore } from './store';
import { createAppSystem } from './theme';

export interface PrerenderedPage {
  path: string;
  html: string;
  /** Shown only without a stored user (a signed-in visitor is sent on from there). */
  signedOutOnly: boolean;
}

/** When the page may show its prerendered HTML: English, no query, see index.html's script. */
export const PRERENDER_CONDITIONS = {
  languageKey: LANGUAGE_STORAGE_KEY,
  userKey: USER_STORAGE_KEY,
  language: 'en',
};

/** A visitor as the browser's first render sees them: English, nothing stored, no query. */
function renderPage(path: string): string {
  const store = createStore({ session: { ...initialSessionState, status: 'signedOut' } });
  return renderToString(
    <Router ssrPath={path} ssrSearch="">
      <App store={store} locale={{ locale: 'en', messages: englishMessages }} />
    </Router>,
  );
}

export function prerenderPages(): PrerenderedPage[] {
  return [
    { path: ROUTES.home, html: renderPage(ROUTES.home), signedOutOnly: false },
    { path: ROUTES.login, html: renderPage(ROUTES.login), signedOutOnly: true },
  ];
}

/** What ChakraProvider would insert at run time (layer order, reset, base styles, tokens). */
export function chakraGlobalCss(): string {
  // On the server emotion writes each Global as a <style> element into the HTML.
  const html = renderToString(<ChakraProvider value={createAppSystem()}>{null}</ChakraProvider>);
  const rules = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
  if (rules.length === 0) throw new Error('Chakra wrote no global CSS');
  return rules.join('\n');
}
