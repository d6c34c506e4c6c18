// Drag-and-drop zone that is also a click-to-choose button. Only mp4, m4v and mov are taken;
// other dropped files are ignored (product-spec section 5). Where the browser has the File
// System Access API, both ways also give a handle: the queue can read the file again after a
// reload without copying it into the browser's storage (issue 3).
import { chakra, Text } from '@chakra-ui/react';
import { useRef, useState, type DragEvent } from 'react';
import { useT } from '../../../lib/locale-context';
import { firstVideoFile, isVideoFile } from '../upload-rules';

const VIDEO_ACCEPT = '.mp4,.m4v,.mov,video/mp4,video/x-m4v,video/quicktime';

export interface PickedVideo {
  file: File;
  /** A File System Access handle (Chromium: dropped or picked files) that survives a reload. */
  handle?: FileSystemFileHandle | undefined;
}

type HandleItem = DataTransferItem & {
  getAsFileSystemHandle?: () => Promise<FileSystemHandle | null>;
};

/** window.showOpenFilePicker, missing from TypeScript's DOM library and from most browsers. */
type OpenFilePicker = (options: {
  types: { description: string; accept: Record<string, string[]> }[];
  multiple: false;
}) => Promise<FileSystemFileHandle[]>;

const PICKER_TYPES = [
  {
    description: 'Video (mp4, m4v, mov)',
    accept: { 'video/mp4': ['.mp4', '.m4v'], 'video/quicktime': ['.mov'] },
  },
];

/** The picked video and its handle, undefined when the user closed the picker. */
async function pickWithHandle(picker: OpenFilePicker): Promise<PickedVideo | undefined> {
  try {
    const [handle] = await picker({ types: PICKER_TYPES, multiple: false });
    if (!handle) return undefined;
    return { file: await handle.getFile(), handle };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return undefined;
    throw error;
  }
}

export function VideoDropZone({ onPick }: { onPick: (picked: PickedVideo) => void }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const choose = (): void => {
    const picker = (window as { showOpenFilePicker?: OpenFilePicker }).showOpenFilePicker;
    if (!picker) {
      input.current?.click();
      return;
    }
    pickWithHandle(picker).then(
      (picked) => {
        if (picked && isVideoFile(picked.file)) onPick(picked);
      },
      // Refused (a sandboxed frame, a policy): the plain chooser still works.
      () => input.current?.click(),
    );
  };

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
        onClick={choose}
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
