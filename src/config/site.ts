// Settings about the provider and the published texts.

/** Shown on the privacy policy; a build setting so the policy date can change without code. */
export const PRIVACY_LAST_UPDATED: string | undefined =
  import.meta.env.VITE_PRIVACY_LAST_UPDATED === undefined
    ? '2024-12-24'
    : import.meta.env.VITE_PRIVACY_LAST_UPDATED || undefined;

export const PROVIDER_HOME_URL = 'https://www.example.com/';

export const CONTACT_URLS = {
  en: 'https://www.example.com/en/contact',
  ja: 'https://www.example.com/ja/contact',
} as const;

/** The query parameter the contact form reads its prefilled inquiry text from. */
export const CONTACT_INQUIRY_PARAM = 'inquiry';

/** Optional API host for builds served apart from the API; empty means same origin. */
export const API_HOST: string = import.meta.env.VITE_API_HOST ?? '';
