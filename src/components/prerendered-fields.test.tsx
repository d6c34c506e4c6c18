// The first screens are prerendered and the app hydrates them (issue 8): what the visitor typed or
// chose before that must count, although React keeps it in the DOM without an onChange.
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../app/app-providers';
import { createStore } from '../app/store';
import { englishMessages } from '../lib/i18n';
import { useLocale } from '../lib/locale-context';
import { useForm } from '../lib/use-form';
import { emailRules } from '../lib/validation';
import { LanguageSwitcher } from './LanguageSwitcher';
import { TextField } from './TextField';

const RULES = { email: emailRules };
const INITIAL = { email: '' };

function Page() {
  const form = useForm({ initialValues: INITIAL, rules: RULES });
  const { locale } = useLocale();
  return (
    <form>
      <LanguageSwitcher />
      <p data-testid="locale">{locale}</p>
      <TextField label="Email" type="email" binding={form.bind('email')} />
      <button type="submit" disabled={!form.canSubmit}>
        Send
      </button>
    </form>
  );
}

const app = () => (
  <AppProviders store={createStore()} locale={{ locale: 'en', messages: englishMessages }}>
    <Page />
  </AppProviders>
);

let root: Root | undefined;

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  cleanup();
  document.body.innerHTML = '';
  localStorage.clear();
});

/** The page as the build writes it, with the visitor's input made before the app starts. */
function prerendered(before: (container: HTMLElement) => void): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = renderToString(app());
  document.body.append(container);
  before(container);
  return container;
}

describe('prerendered first-screen fields', () => {
  it('takes text typed before hydration into the form', async () => {
    const container = prerendered((c) => {
      c.querySelector('input')!.value = 'user@example.com';
    });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send' }).disabled).toBe(true);
    await act(async () => {
      root = hydrateRoot(container, app());
    });
    await waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send' }).disabled).toBe(false),
    );
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('user@example.com');
  });

  it('takes a language chosen before hydration', async () => {
    const container = prerendered((c) => {
      c.querySelector('select')!.value = 'ja';
    });
    await act(async () => {
      root = hydrateRoot(container, app());
    });
    await waitFor(() => expect(screen.getByTestId('locale').textContent).toBe('ja'));
  });
});
