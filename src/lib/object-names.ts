// Object labels arrive as stable English keys (the analyser's COCO names, "cell phone"); they are
// shown through the messages object.<key with spaces as _>, or as the key where none exists.
import { useCallback } from 'react';
import { useIntl } from 'react-intl';

export const objectMessageId = (key: string): string => `object.${key.trim().replace(/\s+/g, '_')}`;

/** The name of an object in the user's language. */
export function useObjectName(): (key: string) => string {
  const intl = useIntl();
  return useCallback(
    (key: string) => {
      const id = objectMessageId(key);
      return id in intl.messages ? intl.formatMessage({ id }) : key;
    },
    [intl],
  );
}
