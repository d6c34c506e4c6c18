// Renders the whole app at a path, with a fresh store, English messages and the real router.
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Providers } from '../app/providers';
import { AppRouter } from '../app/router';
import { createStore } from '../app/store';
import { englishMessages } from '../lib/i18n';
import { resetRestoreForTests } from '../lib/session';

export function renderApp(path: string) {
  resetRestoreForTests();
  window.history.replaceState(null, '', path);
  const store = createStore();
  const user = userEvent.setup();
  const view = render(
    <Providers store={store} locale={{ locale: 'en', messages: englishMessages }}>
      <AppRouter />
    </Providers>,
  );
  return { store, user, ...view };
}
