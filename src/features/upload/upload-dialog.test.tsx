import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../app/providers';
import { createStore } from '../../app/store';
import { englishMessages } from '../../lib/i18n';
import { stubFetch } from '../../testing/fetch-stub';
import type { EnqueueInput } from '../../upload-queue/job-factory';
import { UploadDialog } from './components/UploadDialog';

const LANGUAGES = [
  { code: 'ja', name: '日本語 (Japanese)' },
  { code: 'en', name: 'English' },
];
const MB = 1024 * 1024;

function fileOf(name: string, size: number, type = ''): File {
  const file = new File(['x'], name, { type, lastModified: 1_700_000_000_000 });
  // Real bytes are not needed to test the rules; a 5 GB buffer would not fit in a test.
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

function renderDialog(queued: (input: EnqueueInput) => Promise<string> = async () => 'job-1') {
  stubFetch({ 'GET /api/supported-videos-languages': () => ({ status: 200, body: LANGUAGES }) });
  const enqueue = vi.fn(queued);
  const probe = vi.fn(async () => ({
    durationSeconds: 75.5,
    videoDate: '2024-05-01T10:20:30.000',
  }));
  const onClose = vi.fn();
  // Without the accept filter, as when "All files" is chosen in the system dialog.
  const user = userEvent.setup({ applyAccept: false });
  render(
    <Providers store={createStore()} locale={{ locale: 'en', messages: englishMessages }}>
      <UploadDialog open onClose={onClose} probe={probe} enqueue={enqueue} />
    </Providers>,
  );
  return { user, enqueue, probe, onClose };
}

function dropFiles(target: HTMLElement, files: File[]): void {
  fireEvent.drop(target, {
    dataTransfer: { files, items: files.map(() => ({ kind: 'file' })), types: ['Files'] },
  });
}

const next = () => screen.getByRole('button', { name: 'Next' });
const INCOMPLETE = 'Please add both the name and the image for this section.';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Upload dialog, step 1', { timeout: 30_000 }, () => {
  it('enables Next only when every person has both a name and an image', async () => {
    const { user } = renderDialog();
    expect(await screen.findByRole('button', { name: 'Next' })).toHaveProperty('disabled', false);

    await user.type(screen.getByLabelText('Name'), 'Aiko');
    expect(screen.getByText(INCOMPLETE)).toBeTruthy();
    expect(next()).toHaveProperty('disabled', true);

    await user.upload(screen.getByLabelText('Image of person 1'), fileOf('aiko.png', 2 * MB));
    expect(screen.queryByText(INCOMPLETE)).toBeNull();
    expect(next()).toHaveProperty('disabled', false);

    await user.click(screen.getByRole('button', { name: 'Add More People' }));
    await user.upload(screen.getByLabelText('Image of person 2'), fileOf('ben.jpg', MB));
    expect(screen.getByText(INCOMPLETE)).toBeTruthy();
    expect(next()).toHaveProperty('disabled', true);

    await user.click(screen.getByRole('button', { name: 'Remove person 2' }));
    expect(screen.queryByText(INCOMPLETE)).toBeNull();
    expect(next()).toHaveProperty('disabled', false);
  });

  it('refuses images over 10 MB and of other types', async () => {
    const { user } = renderDialog();
    await user.type(await screen.findByLabelText('Name'), 'Aiko');
    const input = screen.getByLabelText('Image of person 1');
    await user.upload(input, fileOf('big.png', 10 * MB + 1));
    expect(screen.getByText('File size must not exceed 10MB')).toBeTruthy();
    expect(next()).toHaveProperty('disabled', true);

    // The chooser's accept list can be bypassed ("All files"): the type is checked again.
    await user.upload(input, fileOf('notes.gif', 1000));
    expect(screen.getByText('Please choose a JPEG, PNG or SVG image.')).toBeTruthy();

    await user.upload(input, fileOf('face.svg', 10 * MB));
    expect(screen.queryByText('File size must not exceed 10MB')).toBeNull();
    expect(next()).toHaveProperty('disabled', false);
  });

  it('needs a trailer instruction when make-trailer is on, up to 500 characters', async () => {
    const { user } = renderDialog();
    await user.click(await screen.findByLabelText('Make a trailer'));
    const instruction = screen.getByLabelText('Trailer instruction');
    expect(next()).toHaveProperty('disabled', true);
    await user.type(instruction, 'Fast cuts');
    expect(next()).toHaveProperty('disabled', false);
    expect(instruction.getAttribute('maxlength')).toBe('500');
    expect(screen.getByLabelText('About the video').getAttribute('maxlength')).toBe('500');
  });
});

describe('Upload dialog, step 2', { timeout: 30_000 }, () => {
  async function toStep2(user: ReturnType<typeof userEvent.setup>) {
    await user.type(await screen.findByLabelText('About the video'), 'Harbour festival');
    await user.click(next());
    return screen.findByTestId('video-drop-zone');
  }

  it('preselects the first language and ignores dropped files of other types', async () => {
    const { user } = renderDialog();
    const zone = await toStep2(user);
    const select = screen.getByLabelText<HTMLSelectElement>('Output Language');
    await waitFor(() => expect(select.value).toBe('ja'));
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['日本語 (Japanese)', 'English']);
    const upload = screen.getByRole('button', { name: 'Upload' });
    expect(upload).toHaveProperty('disabled', true);

    dropFiles(zone, [fileOf('clip.avi', 1000), fileOf('notes.txt', 10)]);
    expect(screen.getByTestId('video-drop-zone')).toBeTruthy();
    expect(screen.queryByTestId('chosen-video-name')).toBeNull();

    dropFiles(zone, [fileOf('notes.txt', 10), fileOf('Harbour.MOV', 20 * MB)]);
    expect((await screen.findByTestId('chosen-video-name')).textContent).toBe('Harbour.MOV');
    expect(await screen.findByText('Duration: 00:01:15')).toBeTruthy();
    await waitFor(() => expect(upload).toHaveProperty('disabled', false));
  });

  it('refuses a video over 5 GB and keeps Upload disabled', async () => {
    const { user } = renderDialog();
    await toStep2(user);
    await user.upload(
      screen.getByLabelText('Choose a video file'),
      fileOf('huge.mp4', 5120 * MB + 1),
    );
    expect(await screen.findByText('File size must not exceed 5GB')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload' })).toHaveProperty('disabled', true);

    await user.click(screen.getByRole('button', { name: 'Remove' }));
    await user.upload(screen.getByLabelText('Choose a video file'), fileOf('ok.m4v', 5120 * MB));
    expect(screen.queryByText('File size must not exceed 5GB')).toBeNull();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Upload' })).toHaveProperty('disabled', false),
    );
  });

  it('queues the upload with the create payload, then closes', async () => {
    const { user, enqueue, onClose } = renderDialog();
    await user.type(await screen.findByLabelText('Name'), 'Aiko');
    await user.upload(screen.getByLabelText('Image of person 1'), fileOf('aiko.png', MB));
    await user.click(screen.getByLabelText('Make a trailer'));
    await user.type(screen.getByLabelText('Trailer instruction'), 'Only the fireworks');
    await user.click(next());
    await user.upload(
      await screen.findByLabelText('Choose a video file'),
      fileOf('fest.mp4', 3 * MB),
    );
    await user.selectOptions(screen.getByLabelText('Output Language'), 'en');
    const upload = screen.getByRole('button', { name: 'Upload' });
    await waitFor(() => expect(upload).toHaveProperty('disabled', false));
    await user.click(upload);

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const input = enqueue.mock.calls[0]![0];
    expect(input.payload).toEqual({
      filename: 'fest.mp4',
      video_length: 75.5,
      video_date: '2024-05-01T10:20:30.000',
      output_language: 'en',
      about_this_video: '',
      trailer_instruction: 'Only the fireworks',
      file_size: 3 * MB,
    });
    expect(input.people.map((p) => p.name)).toEqual(['Aiko']);
    expect(input.file.size).toBe(3 * MB);
  });

  it('Back returns to step 1 with everything kept, and Next to the chosen file', async () => {
    const { user } = renderDialog();
    await user.type(await screen.findByLabelText('About the video'), 'Harbour festival');
    await user.type(screen.getByLabelText('Name'), 'Aiko');
    await user.upload(screen.getByLabelText('Image of person 1'), fileOf('aiko.png', MB));
    await user.click(screen.getByLabelText('Make a trailer'));
    await user.type(screen.getByLabelText('Trailer instruction'), 'Only the fireworks');
    await user.click(next());
    await user.upload(
      await screen.findByLabelText('Choose a video file'),
      fileOf('fest.mp4', 3 * MB),
    );
    expect(await screen.findByText('Duration: 00:01:15')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByText('Step 1 of 2: Details')).toBeTruthy();
    expect(screen.getByLabelText<HTMLTextAreaElement>('About the video').value).toBe(
      'Harbour festival',
    );
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Aiko');
    expect(screen.getByText('aiko.png')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Make a trailer').checked).toBe(true);
    expect(screen.getByLabelText<HTMLTextAreaElement>('Trailer instruction').value).toBe(
      'Only the fireworks',
    );

    await user.click(next());
    expect((await screen.findByTestId('chosen-video-name')).textContent).toBe('fest.mp4');
    expect(screen.getByText('Duration: 00:01:15')).toBeTruthy();
  });

  it('shows the generic error popup when the upload cannot be queued, and stays open', async () => {
    const { user, enqueue, onClose } = renderDialog(async () => {
      throw new Error('QuotaExceededError');
    });
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await user.upload(
      await screen.findByLabelText('Choose a video file'),
      fileOf('fest.mp4', 3 * MB),
    );
    const upload = screen.getByRole('button', { name: 'Upload' });
    await waitFor(() => expect(upload).toHaveProperty('disabled', false));
    await user.click(upload);

    const popup = await screen.findByRole('alertdialog', {}, { timeout: 15_000 });
    expect(within(popup).getByText('Something went wrong. Please try again!')).toBeTruthy();
    expect(enqueue).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
    // The choice is kept so the user can try again.
    expect(screen.getByTestId('chosen-video-name').textContent).toBe('fest.mp4');
    expect(screen.getByRole('button', { name: 'Upload' })).toHaveProperty('disabled', false);
  });
});
