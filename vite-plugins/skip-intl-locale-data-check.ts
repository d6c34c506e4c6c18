import type { Plugin } from 'vite';

/**
 * @formatjs/intl's createIntl (react-intl's IntlProvider) asks `Intl.NumberFormat` and
 * `Intl.DateTimeFormat.supportedLocalesOf(locale)` on every start, only to warn when the browser
 * lacks the locale's data. The first such call loads ICU's number and date data: 15-30 ms of CPU
 * on this machine inside the first screen's hydration, which cannot yield (issue 29), although
 * landing and login format no number or date. The app's two locales (en, ja) are in every
 * browser it supports, so the browser build skips the check. Fails the build if the lines change.
 */
export function skipIntlLocaleDataCheck(): Plugin {
  const checks = [
    '!Intl.NumberFormat.supportedLocalesOf(locale).length && onError',
    '!Intl.DateTimeFormat.supportedLocalesOf(locale).length && onError',
  ];
  return {
    name: 'skip-intl-locale-data-check',
    apply: 'build',
    transform(code, id) {
      if (!/@formatjs[\\/]intl[\\/]index\.js$/.test(id)) return null;
      let patched = code;
      for (const check of checks) {
        if (!patched.includes(check)) throw new Error(`@formatjs/intl no longer has: ${check}`);
        patched = patched.replace(check, 'false');
      }
      return { code: patched, map: null };
    },
  };
}
