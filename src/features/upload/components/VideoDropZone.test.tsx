// Choosing a video by click: with the File System Access API the queue gets a handle it can read
// again after a reload (issue 3); without it, the plain file chooser.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../../app/providers';
import { createStore } from '../../../app/store';
import { englishMessages } from '../../../lib/i18n';
import type { SortedChoice } from '../batch/chosen-files';
import { VideoDropZone } from './VideoDropZone';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete (window as { showOpenFilePicker?: unknown }).showOpenFilePicker;
});

function renderZone() {
  const onPick = vi.fn<(choice: SortedChoice) => void>();
  render(
    <Providers store={createStore()} locale={{ locale: 'en', messages: englishMessages }}>
      <VideoDropZone onPick={onPick} />
    </Providers>,
  );
  return { onPick, zone: screen.getByTestId('video-drop-zone') };
}

const handleFor = (file: File) =>
  ({
    kind: 'file',
    name: file.name,
    getFile: () => Promise.resolve(file),
  }) as unknown as FileSystemFileHandle;

describe('VideoDropZone', () => {
  it('picks through the File System Access API with a handle where the browser has it', async () => {
    const file = new File(['v'], 'harbour.mp4', { type: 'video/mp4' });
    const handle = handleFor(file);
    const picker = vi.fn((_options: { multiple: boolean }) => Promise.resolve([handle]));
    Object.assign(window, { showOpenFilePicker: picker });
    const { onPick, zone } = renderZone();
    await userEvent.click(zone);
    await waitFor(() =>
      expect(onPick).toHaveBeenCalledWith({
        accepted: [{ file, path: 'harbour.mp4', handle }],
        leftOut: [],
        tooMany: false,
      }),
    );
    expect(picker.mock.calls[0]![0]).toMatchObject({ multiple: true });
  });

  it('does nothing when the user closes the picker, and ignores other file types', async () => {
    const picker = vi
      .fn()
      .mockRejectedValueOnce(new DOMException('closed', 'AbortError'))
      .mockResolvedValueOnce([handleFor(new File(['x'], 'notes.txt', { type: 'text/plain' }))]);
    Object.assign(window, { showOpenFilePicker: picker });
    const { onPick, zone } = renderZone();
    await userEvent.click(zone);
    await userEvent.click(zone);
    await waitFor(() => expect(picker).toHaveBeenCalledTimes(2));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(onPick).not.toHaveBeenCalled();
  });

  it('opens the plain chooser without the API, or when the API refuses', async () => {
    const { zone } = renderZone();
    const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
    const opened = vi.spyOn(input, 'click');
    await userEvent.click(zone);
    expect(opened).toHaveBeenCalledTimes(1);
    Object.assign(window, {
      showOpenFilePicker: () => Promise.reject(new DOMException('no', 'SecurityError')),
    });
    await userEvent.click(zone);
    await waitFor(() => expect(opened).toHaveBeenCalledTimes(2));
  });
});
