// A modal with a video player (the full video, the trailer).
import { Dialog } from '@chakra-ui/react';
import { ModalFrame } from '../../../components/ModalFrame';

interface VideoPlayerModalProps {
  title: string;
  src: string | null;
  onClose: () => void;
}

export function VideoPlayerModal({ title, src, onClose }: VideoPlayerModalProps) {
  return (
    <ModalFrame open={src !== null} onClose={onClose} size="xl" closeButton>
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
    </ModalFrame>
  );
}
