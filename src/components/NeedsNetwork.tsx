// Wraps a button whose action needs the network: offline it is disabled and says why (tooltip and
// accessible description). Queued uploads do not need it: do not wrap the upload button.
//
//   <NeedsNetwork><Button onClick={remove}>Delete</Button></NeedsNetwork>
import { cloneElement, useId, type ReactElement } from 'react';
import { useT } from '../lib/locale-context';
import { useOnline } from '../lib/offline';

interface ButtonLike {
  disabled?: boolean;
  title?: string;
  'aria-describedby'?: string;
}

export function NeedsNetwork({ children }: { children: ReactElement<ButtonLike> }) {
  const online = useOnline();
  const t = useT();
  const id = useId();
  if (online) return children;
  const reason = t('pwa.needsNetwork');
  return (
    <>
      {cloneElement(children, { disabled: true, title: reason, 'aria-describedby': id })}
      <span id={id} hidden>
        {reason}
      </span>
    </>
  );
}
