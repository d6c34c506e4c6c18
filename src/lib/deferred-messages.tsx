// English texts of the signed-in screens travel with the signed-in area, not with the entry.
import type { ReactNode } from 'react';
import deferredEnglish from '../../lang/en.json?deferred';
import { ExtraMessages } from './extra-messages';

export function DeferredMessages({ children }: { children: ReactNode }) {
  return <ExtraMessages english={deferredEnglish}>{children}</ExtraMessages>;
}
