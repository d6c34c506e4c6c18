import type { Alias } from 'vite';

// The build's messages are parsed already (precompile-messages), so the app gets the parser-less
// build of react-intl's message format.
export const ALIASES: Alias[] = [
  {
    find: /^@formatjs\/icu-messageformat-parser$/,
    replacement: '@formatjs/icu-messageformat-parser/no-parser.js',
  },
];
