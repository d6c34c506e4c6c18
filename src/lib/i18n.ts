// Messages and locale choice (product-spec section 1). lang/en.json is the source of truth:
// its keys make the MessageId type, so a missing key is a type error.
import en from '../../lang/en.json';
import { LANGUAGE_STORAGE_KEY } from '../config/storage-keys';

export type MessageId = keyof typeof en;
export type Messages = Record<MessageId, string>;

export const LOCALES = ['en', 'ja'] as const;
export type AppLocale = (typeof LOCALES)[number];

/** The default locale of the interface. */
export const DEFAULT_LOCALE = 'en-US';

export const englishMessages: Messages = en;

/** BCP 47 tag handed to react-intl and dayjs-independent formatting. */
export function intlLocale(locale: AppLocale): string {
  return locale === 'ja' ? 'ja-JP' : DEFAULT_LOCALE;
}

function isAppLocale(value: unknown): value is AppLocale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Saved choice, else Japanese when the browser language starts with "ja", else English. */
export function detectLocale(saved: string | null, browserLanguage: string | undefined): AppLocale {
  if (isAppLocale(saved)) return saved;
  return browserLanguage?.toLowerCase().startsWith('ja') ? 'ja' : 'en';
}

export function initialLocale(): AppLocale {
  return detectLocale(
    readSavedLocale(),
    typeof navigator === 'undefined' ? undefined : navigator.language,
  );
}

function readSavedLocale(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null; // storage may be blocked; fall back to the browser language
  }
}

export function saveLocale(locale: AppLocale): void {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
}

/** English ships in the main bundle; Japanese loads on demand. */
export async function loadMessages(locale: AppLocale): Promise<Messages> {
  if (locale === 'en') return englishMessages;
  const module = await import('../../lang/ja.json');
  return { ...englishMessages, ...module.default };
}
