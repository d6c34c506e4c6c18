// The frame every modal of the app shares: centred over a backdrop, in a portal, with a margin on
// a narrow screen; Escape and the backdrop call onClose. Mounted only while open.
import { CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useT } from '../lib/locale-context';

interface ModalFrameProps extends Omit<Dialog.RootProps, 'open' | 'onOpenChange' | 'children'> {
  open: boolean;
  onClose: () => void;
  /** The spec's modal type (success, error, warning, email), as the box's data-modal-type. */
  modalType?: string;
  /** Shows the × close button in the corner. */
  closeButton?: boolean;
  /** Header, body and footer. */
  children: ReactNode;
}

export function ModalFrame({
  open,
  onClose,
  modalType,
  closeButton = false,
  children,
  ...rootProps
}: ModalFrameProps) {
  const t = useT();
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(event) => {
        if (!event.open) onClose();
      }}
      placement="center"
      lazyMount
      unmountOnExit
      {...rootProps}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4" data-modal-type={modalType}>
            {children}
            {closeButton ? (
              <Dialog.CloseTrigger asChild>
                <CloseButton aria-label={t('common.close')} size="sm" />
              </Dialog.CloseTrigger>
            ) : null}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
