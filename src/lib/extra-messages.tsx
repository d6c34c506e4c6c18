// Adds English texts that are not in the entry under the active language's messages, so
// Japanese still wins where it exists (the first screens have a size budget,
// docs/decisions/first-screen-budget.md).
import { useMemo, type ReactNode } from 'react';
import { IntlProvider, useIntl } from 'react-intl';

export function ExtraMessages({
  english,
  children,
}: {
  english: Record<string, unknown>;
  children: ReactNode;
}) {
  const intl = useIntl();
  // Built messages are precompiled ASTs and test messages plain strings; both are records.
  const messages = useMemo(
    () => ({ ...english, ...intl.messages }) as Record<string, string>,
    [english, intl.messages],
  );
  return (
    <IntlProvider locale={intl.locale} defaultLocale={intl.defaultLocale} messages={messages}>
      {children}
    </IntlProvider>
  );
}
