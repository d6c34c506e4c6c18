/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Optional API origin when the web app is served apart from the API. */
  readonly VITE_API_HOST?: string;
  /** Privacy policy last-updated date (YYYY-MM-DD); empty shows "Unknown". */
  readonly VITE_PRIVACY_LAST_UPDATED?: string;
}

/** English messages of the signed-in screens, split from the entry by vite.config.ts. */
declare module '*/en.json?deferred' {
  const messages: Record<string, string>;
  export default messages;
}

/** English messages of one page's namespaces (`?ns=landing`), split from the entry likewise. */
declare module '*/en.json?ns=landing' {
  const messages: Record<string, string>;
  export default messages;
}
declare module '*/en.json?ns=privacy' {
  const messages: Record<string, string>;
  export default messages;
}

/** Chakra's global CSS (reset, tokens, base), written at build time by vite.config.ts. */
declare module 'virtual:chakra-global.css';
