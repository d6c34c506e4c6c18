// A modal with a plain video player (the trailer), its poster shown until it plays.
import { Dialog } from '@chakra-ui/react';
import { ModalFrame } from '../../../components/ModalFrame';
import { assetUrl } from '../../../lib/asset-url';
import type { VideoDetail } from '../api';

/** The trailer opens on the video's first scene (issue 29: no black box before play). */
export function trailerPoster(video: VideoDetail): string | null {
  return assetUrl(video.outputData?.scenes?.[0]?.thumbnail);
}

interface VideoPlayerModalProps {
  title: string;
  src: string | null;
  poster: string | null;
  onClose: () => void;
}

export function VideoPlayerModal({ title, src, poster, onClose }: VideoPlayerModalProps) {
  return (
    <ModalFrame open={src !== null} onClose={onClose} size="xl" closeButton>
      <Dialog.Header>
        <Dialog.Title>{title}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body pb="6">
        {src ? (
          <video
            src={src}
            poster={poster ?? undefined}
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
