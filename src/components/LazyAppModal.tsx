// The modal, fetched only when it first opens: its dialog machinery (focus trap, layers) is
// about 17 KB gzipped, too much for the first screen that rarely needs it.
import { lazy, Suspense, type ComponentProps } from 'react';
import type { AppModal as AppModalType } from './AppModal';

const AppModal = lazy(async () => ({ default: (await import('./AppModal')).AppModal }));

export function LazyAppModal(props: ComponentProps<typeof AppModalType>) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <AppModal {...props} />
    </Suspense>
  );
}
