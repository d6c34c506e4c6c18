// The modal, fetched only when it first opens: its dialog machinery (focus trap, layers) is
// about 17 KB gzipped, too much for the first screen that rarely needs it. It brings Chakra with
// it, since the sign-in pages that open it load without Chakra.
import { lazy, Suspense, type ComponentProps } from 'react';
import type { AppModal as AppModalType } from './AppModal';

type AppModalProps = ComponentProps<typeof AppModalType>;

const AppModal = lazy(async () => {
  const [{ AppModal: Modal }, { ChakraScope }] = await Promise.all([
    import('./AppModal'),
    import('../app/chakra-scope'),
  ]);
  const WithChakra = (props: AppModalProps) => (
    <ChakraScope>
      <Modal {...props} />
    </ChakraScope>
  );
  return { default: WithChakra };
});

export function LazyAppModal(props: AppModalProps) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <AppModal {...props} />
    </Suspense>
  );
}
