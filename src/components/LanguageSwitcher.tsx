// The language choice shown on every screen that has one (product-spec sections 1 and 2).
// A plain <select> with a CSS module: the first screens load without Chakra.
import { useEffect, useRef } from 'react';
import { LOCALES, type AppLocale } from '../lib/i18n';
import { useLocale, useT } from '../lib/locale-context';
import styles from './LanguageSwitcher.module.css';

const LANGUAGE_NAMES = { en: 'common.languageEnglish', ja: 'common.languageJapanese' } as const;

export function LanguageSwitcher({ width = '8.5rem' }: { width?: string }) {
  const { locale, setLocale } = useLocale();
  const t = useT();
  const select = useRef<HTMLSelectElement>(null);
  // A choice made on the prerendered page before the app took over (issue 8) still counts.
  useEffect(() => {
    const chosen = select.current?.value;
    if (chosen && chosen !== locale) setLocale(chosen as AppLocale);
  }, []); // once, on mount: later choices arrive through onChange
  return (
    <select
      ref={select}
      className={styles.select}
      aria-label={t('common.language')}
      style={{ width }}
      value={locale}
      onChange={(event) => setLocale(event.currentTarget.value as AppLocale)}
    >
      {LOCALES.map((code) => (
        <option key={code} value={code} lang={code}>
          {t(LANGUAGE_NAMES[code])}
        </option>
      ))}
    </select>
  );
}
