import 'fake-indexeddb/auto';
import { configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { handOversSettled } from '../app/queue-hand-overs';

// A test that signed in leaves the upload queue's client module loading: wait for it, so that it
// does not land after the test's environment is torn down.
afterEach(() => handOversSettled());

// findBy/waitFor give up after 1 s by default; a CI machine whose two cores run the server
// tests at the same time needs longer for a screen to answer. A failing wait still fails.
configure({ asyncUtilTimeout: 5_000 });

// jsdom has no CSS.escape, which Chakra's dialog focus trap (zag) calls when an element with an
// id appears outside an open dialog (for example an offline reason beside a button behind it).
if (typeof CSS === 'undefined' || typeof CSS.escape !== 'function') {
  const escape = (value: string): string =>
    value === '-'
      ? '\\-'
      : Array.from(value, (ch, i) => {
          const leadingDigit = /\d/.test(ch) && (i === 0 || (i === 1 && value.startsWith('-')));
          if (leadingDigit) return `\\${ch.charCodeAt(0).toString(16)} `;
          return /[\w\u0080-\uffff-]/.test(ch) ? ch : `\\${ch}`;
        }).join('');
  Object.defineProperty(globalThis, 'CSS', {
    configurable: true,
    value: { ...(typeof CSS === 'undefined' ? {} : CSS), escape },
  });
}
