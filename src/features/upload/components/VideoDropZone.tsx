// Drag-and-drop zone that is also a click-to-choose button. Only mp4, m4v and mov are taken;
// other dropped files are ignored (product-spec section 5).
import { chakra, Text } from '@chakra-ui/react';
import { useRef, useState, type DragEvent } from 'react';
import { useT } from '../../../lib/locale-context';
import { firstVideoFile, isVideoFile } from '../upload-rules';

const VIDEO_ACCEPT = '.mp4,.m4v,.mov,video/mp4,video/x-m4v,video/quicktime';

export interface PickedVideo {
  file: File;
  /** Chromium gives dropped files a File System Access handle that survives a reload. */
  handle?: FileSystemFileHandle | undefined;
}

type HandleItem = DataTransferItem & {
  getAsFileSystemHandle?: () => Promise<FileSystemHandle | null>;
};

export function VideoDropZone({ onPick }: { onPick: (picked: PickedVideo) => void }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const onDrop = (event: DragEvent<HTMLElement>): void => {
    event.preventDefault();
    setOver(false);
    const files = Array.from(event.dataTransfer.files);
    const file = firstVideoFile(files);
    if (!file) return;
    // The handle must be asked for during the drop event; the items die with it.
    const items = Array.from(event.dataTransfer.items).filter((item) => item.kind === 'file');
    const item = items[files.indexOf(file)] as HandleItem | undefined;
    const pending = item?.getAsFileSystemHandle?.();
    if (!pending) {
      onPick({ file });
      return;
    }
    void pending
      .then((handle) =>
        onPick({
          file,
          handle: handle?.kind === 'file' ? (handle as FileSystemFileHandle) : undefined,
        }),
      )
      .catch(() => onPick({ file }));
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept={VIDEO_ACCEPT}
        hidden
        aria-label={t('upload.chooseVideo')}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file && isVideoFile(file)) onPick({ file });
        }}
      />
      <chakra.button
        type="button"
        w="full"
        py="8"
        px="4"
        borderWidth="2px"
        borderStyle="dashed"
        borderColor={over ? 'blue.600' : 'gray.400'}
        bg={over ? 'blue.50' : 'gray.50'}
        borderRadius="l3"
        textAlign="center"
        cursor="pointer"
        _focusVisible={{ outline: '2px solid', outlineColor: 'blue.600' }}
        onClick={() => input.current?.click()}
        onDragOver={(event: DragEvent<HTMLElement>) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="video-drop-zone"
      >
        <Text fontWeight="medium">{t('upload.dropZone')}</Text>
        <Text fontSize="sm" color="gray.700" mt="1">
          {t('upload.dropZoneTypes')}
        </Text>
      </chakra.button>
    </>
  );
}
