// Drag-and-drop zone that is also a click-to-choose button, and a button to choose a whole folder.
// Many files may be chosen or dropped, folders too; only mp4, m4v and mov are taken, and every
// other file is listed as left out with the reason (issue 42). Where the browser has the File
// System Access API, the picks and drops also give handles: the queue can read the files again
// after a reload without copying them into the browser's storage (issue 3).
import { Button, chakra, Flex, Text } from '@chakra-ui/react';
import { useRef, useState, type DragEvent } from 'react';
import { useT } from '../../../lib/locale-context';
import {
  filesOfDirectory,
  filesOfDrop,
  filesOfInput,
  sortChoice,
  type SortedChoice,
} from '../batch/chosen-files';

const VIDEO_ACCEPT = '.mp4,.m4v,.mov,video/mp4,video/x-m4v,video/quicktime';

/** window.showOpenFilePicker and showDirectoryPicker, missing from TypeScript's DOM library. */
type OpenFilePicker = (options: {
  types: { description: string; accept: Record<string, string[]> }[];
  multiple: boolean;
}) => Promise<FileSystemFileHandle[]>;
type DirectoryPicker = (options: { mode: 'read' }) => Promise<FileSystemDirectoryHandle>;

const PICKER_TYPES = [
  {
    description: 'Video (mp4, m4v, mov)',
    accept: { 'video/mp4': ['.mp4', '.m4v'], 'video/quicktime': ['.mov'] },
  },
];

const closed = (error: unknown): boolean =>
  error instanceof DOMException && error.name === 'AbortError';

/** The picked files with their handles, undefined when the user closed the picker. */
async function pickWithHandles(picker: OpenFilePicker): Promise<SortedChoice | undefined> {
  try {
    const handles = await picker({ types: PICKER_TYPES, multiple: true });
    const files = await Promise.all(
      handles.map(async (handle) => ({ file: await handle.getFile(), path: handle.name, handle })),
    );
    return files.length > 0 ? sortChoice(files) : undefined;
  } catch (error) {
    if (closed(error)) return undefined;
    throw error;
  }
}

async function pickDirectory(picker: DirectoryPicker): Promise<SortedChoice | undefined> {
  try {
    return await filesOfDirectory(await picker({ mode: 'read' }));
  } catch (error) {
    if (closed(error)) return undefined;
    throw error;
  }
}

export function VideoDropZone({ onPick }: { onPick: (choice: SortedChoice) => void }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const picked = (found: SortedChoice | undefined): void => {
    if (!found) return;
    // Loose files of other types are ignored, as the dialog always did (product-spec section 5);
    // those found in a folder are listed as left out, with the reason (issue 42).
    const leftOut = found.leftOut.filter((f) => f.reason !== 'not-a-video' || f.path.includes('/'));
    const choice = { ...found, leftOut };
    if (choice.accepted.length + choice.leftOut.length > 0) onPick(choice);
  };

  const choose = (): void => {
    const picker = (window as { showOpenFilePicker?: OpenFilePicker }).showOpenFilePicker;
    if (!picker) {
      input.current?.click();
      return;
    }
    // Refused (a sandboxed frame, a policy): the plain chooser still works.
    pickWithHandles(picker).then(picked, () => input.current?.click());
  };

  const chooseFolder = (): void => {
    const picker = (window as { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker;
    if (!picker) {
      folderInput.current?.click();
      return;
    }
    pickDirectory(picker).then(picked, () => folderInput.current?.click());
  };

  const onDrop = (event: DragEvent<HTMLElement>): void => {
    event.preventDefault();
    setOver(false);
    void filesOfDrop(event.dataTransfer).then(picked);
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept={VIDEO_ACCEPT}
        multiple
        hidden
        aria-label={t('upload.chooseVideo')}
        onChange={(event) => {
          const choice = filesOfInput(event.target.files);
          event.target.value = '';
          picked(choice);
        }}
      />
      <input
        ref={folderInput}
        type="file"
        multiple
        hidden
        aria-label={t('upload.chooseFolder')}
        // A folder input: every file below the chosen folder, with its relative path.
        {...{ webkitdirectory: '' }}
        onChange={(event) => {
          const choice = filesOfInput(event.target.files);
          event.target.value = '';
          picked(choice);
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
      <Flex justify="center" mt="2">
        <Button size="sm" variant="outline" onClick={chooseFolder}>
          {t('upload.chooseFolderButton')}
        </Button>
      </Flex>
    </>
  );
}
