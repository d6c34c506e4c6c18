// Renders the whole app at a path in a chosen language (English or Japanese), optionally with a
// stored session, as a visitor opens it.
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Providers } from '../app/providers';
import { AppRouter } from '../app/router';
import { createStore } from '../app/store';
import { loadMessages, type AppLocale } from '../lib/i18n';
import { resetRestoreForTests } from '../lib/session';
import { saveStoredUser } from '../lib/session-storage';
import { SESSION_USER } from './fetch-stub';

export async function renderAt(
  path: string,
  { locale = 'en', signedIn = false }: { locale?: AppLocale; signedIn?: boolean } = {},
) {
  resetRestoreForTests();
  localStorage.clear();
  if (signedIn) await saveStoredUser(SESSION_USER);
  window.history.replaceState(null, '', path);
  const store = createStore();
  const user = userEvent.setup();
  const messages = await loadMessages(locale);
  const view = render(
    <Providers store={store} locale={{ locale, messages }}>
      <AppRouter />
    </Providers>,
  );
  return { store, user, ...view };
}
