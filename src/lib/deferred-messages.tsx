// English texts of the signed-in screens travel with the signed-in area, not with the entry:
// the first screens have a size budget (docs/decisions.md). Wraps the area in a provider that
// adds them under the active language's messages, so Japanese still wins where it exists.
import { useMemo, type ReactNode } from 'react';
import { IntlProvider, useIntl } from 'react-intl';
import deferredEnglish from '../../lang/en.json?deferred';

export function DeferredMessages({ children }: { children: ReactNode }) {
  const intl = useIntl();
  // Built messages are precompiled ASTs and test messages plain strings; both are records.
  const messages = useMemo(
    () => ({ ...deferredEnglish, ...intl.messages }) as Record<string, string>,
    [intl.messages],
  );
  return (
    <IntlProvider locale={intl.locale} defaultLocale={intl.defaultLocale} messages={messages}>
      {children}
    </IntlProvider>
  );
}
