// The modal, fetched only when it first opens: its dialog machinery (focus trap, layers) is
// about 17 KB gzipped, too much for the first screen that rarely needs it. It brings Chakra with
// it, since the sign-in pages and the video list that open it load without Chakra.
import { Suspense, type ComponentProps } from 'react';
import type { AppModal as AppModalType } from './AppModal';
import { lazyWithChakra } from './lazy-with-chakra';

const AppModal = lazyWithChakra<ComponentProps<typeof AppModalType>>(
  async () => (await import('./AppModal')).AppModal,
);

export function LazyAppModal(props: ComponentProps<typeof AppModalType>) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <AppModal {...props} />
    </Suspense>
  );
}
