/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Optional API origin when the web app is served apart from the API. */
  readonly VITE_API_HOST?: string;
  /** Privacy policy last-updated date (YYYY-MM-DD); empty shows "Unknown". */
  readonly VITE_PRIVACY_LAST_UPDATED?: string;
}
