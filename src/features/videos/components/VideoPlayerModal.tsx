// A modal with a video player (the full video, the trailer).
import { CloseButton, Dialog, Portal } from '@chakra-ui/react';
import { useT } from '../../../lib/locale-context';

interface VideoPlayerModalProps {
  title: string;
  src: string | null;
  onClose: () => void;
}

export function VideoPlayerModal({ title, src, onClose }: VideoPlayerModalProps) {
  const t = useT();
  return (
    <Dialog.Root
      open={src !== null}
      onOpenChange={(event) => {
        if (!event.open) onClose();
      }}
      placement="center"
      size="xl"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body pb="6">
              {src ? (
                <video
                  src={src}
                  controls
                  autoPlay
                  preload="metadata"
                  style={{ width: '100%', maxHeight: '70vh', background: 'black' }}
                />
              ) : null}
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton aria-label={t('common.close')} size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
