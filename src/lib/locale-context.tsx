// The active language: loads its messages, feeds react-intl and keeps <html lang> in step.
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { IntlProvider, useIntl } from 'react-intl';
import {
  DEFAULT_LOCALE,
  englishMessages,
  initialLocale,
  intlLocale,
  loadMessages,
  saveLocale,
  type AppLocale,
  type MessageId,
  type Messages,
} from './i18n';

interface LocaleContextValue {
  locale: AppLocale;
  setLocale: (locale: AppLocale) => void;
}

const LocaleContext = createContext<LocaleContextValue>({ locale: 'en', setLocale: () => {} });

export interface LoadedLocale {
  locale: AppLocale;
  messages: Messages;
}

/** Resolves the starting language and its messages before the first render (no flash). */
export async function loadInitialLocale(): Promise<LoadedLocale> {
  const locale = initialLocale();
  return { locale, messages: await loadMessages(locale) };
}

export function LocaleProvider({
  children,
  initial,
}: {
  children: ReactNode;
  initial?: LoadedLocale;
}) {
  const [locale, setLocaleState] = useState<AppLocale>(() => initial?.locale ?? 'en');
  const [loaded, setLoaded] = useState<LoadedLocale>(
    () => initial ?? { locale: 'en', messages: englishMessages },
  );

  useEffect(() => {
    if (locale === loaded.locale) return;
    let cancelled = false;
    void loadMessages(locale).then((messages) => {
      if (!cancelled) setLoaded({ locale, messages });
    });
    return () => {
      cancelled = true;
    };
    // Only a new choice triggers a load; loaded.locale is read to skip the initial one.
  }, [locale]);

  useEffect(() => {
    document.documentElement.lang = loaded.locale;
  }, [loaded.locale]);

  const setLocale = useCallback((next: AppLocale) => {
    saveLocale(next);
    setLocaleState(next);
  }, []);

  const value = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);
  // Until Japanese arrives the previous language stays on screen rather than a blank page.
  return (
    <LocaleContext.Provider value={value}>
      <IntlProvider
        locale={intlLocale(loaded.locale)}
        defaultLocale={DEFAULT_LOCALE}
        messages={loaded.messages}
      >
        {children}
      </IntlProvider>
    </LocaleContext.Provider>
  );
}

export function useLocale(): LocaleContextValue {
  return useContext(LocaleContext);
}

type Values = Record<string, string | number>;

/** A typed message lookup: only ids present in lang/en.json compile. */
export function useT(): (id: MessageId, values?: Values) => string {
  const intl = useIntl();
  return useCallback((id, values) => intl.formatMessage({ id }, values), [intl]);
}
