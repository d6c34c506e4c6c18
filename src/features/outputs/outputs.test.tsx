import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../testing/render-app';
import { stubSignedIn, useStoredSession } from '../../testing/signed-in';

// The first render loads lazy route chunks, which vitest transforms on demand.
const FIRST = { timeout: 15_000 };

const VIDEO = {
  id: 'v1',
  filename: 'harbour.mp4',
  title: 'Harbour at dawn',
  summary: 'Boats leave the harbour.',
  status: 'completed',
  created_at: '2024-05-02T10:00:00.000Z',
  video_date: '2024-05-01T08:00:00.000',
  video_length: 75,
  tags: [{ name: 'boats' }],
  video_thumbnail_path: 'v1/thumbnail.jpg?exp=1&sig=t',
  video_path: 'v1/source.mp4?exp=1&sig=v',
  trailer_path: null as string | null,
  report_path: null as string | null,
  is_trailer_creating: false,
  is_report_creating: false,
  output_data: { scenes: [], captions: [] },
};

useStoredSession();

describe('Trailer and report areas', { timeout: 30_000 }, () => {
  it('makes a trailer from a 500-character instruction, then shows the processing note', async () => {
    let video = { ...VIDEO };
    const { sent } = stubSignedIn({
      'GET /api/videos/v1': () => ({ status: 200, body: video }),
      'POST /api/videos/v1/make-trailer': () => {
        video = { ...video, is_trailer_creating: true };
        return { status: 200, body: video };
      },
    });
    const { user } = renderApp('/video-detail/v1');
    const area = await screen.findByTestId('outputs-area', {}, FIRST);
    expect(within(area).queryByRole('button', { name: 'Watch trailer' })).toBeNull();
    await user.click(within(area).getByRole('button', { name: 'Make trailer' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/The scenes that best match your words/)).toBeTruthy();
    const submit = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Make trailer' });
    const box = within(dialog).getByRole<HTMLTextAreaElement>('textbox', { name: 'Instruction' });
    expect(submit.disabled).toBe(true);
    await user.type(box, '   ');
    expect(submit.disabled).toBe(true);
    expect(box.maxLength).toBe(500);
    await user.clear(box);
    await user.type(box, ' The boats at sunrise ');
    expect(within(dialog).getByText('22 / 500 characters')).toBeTruthy();
    expect(submit.disabled).toBe(false);
    await user.click(submit);

    expect(await screen.findByText(/The trailer is being created/)).toBeTruthy();
    const post = sent.find((r) => r.method === 'POST');
    expect(post?.url.pathname).toBe('/api/videos/v1/make-trailer');
    expect(post?.body).toEqual({ trailer_instruction: 'The boats at sunrise' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Make trailer' })).toBeNull();
  });

  it('shows the server detail when a report is already being made', async () => {
    stubSignedIn({
      'GET /api/videos/v1': () => ({ status: 200, body: VIDEO }),
      'POST /api/videos/v1/make-report': () => ({
        status: 409,
        body: { detail: 'A report is already being created for this video.' },
      }),
    });
    const { user } = renderApp('/video-detail/v1');
    const area = await screen.findByTestId('outputs-area', {}, FIRST);
    await user.click(within(area).getByRole('button', { name: 'Make report' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: 'Instruction' }), 'Who speaks?');
    await user.click(within(dialog).getByRole('button', { name: 'Make report' }));
    expect(
      await within(dialog).findByText('A report is already being created for this video.'),
    ).toBeTruthy();
  });

  it('offers Watch trailer and Open report (a new tab with the signed query) when they exist', async () => {
    stubSignedIn({
      'GET /api/videos/v1': () => ({
        status: 200,
        body: {
          ...VIDEO,
          trailer_path: 'v1/trailer-1.mp4?exp=9&sig=tt',
          report_path: 'v1/report-1.html?exp=9&sig=rr',
        },
      }),
    });
    const { user } = renderApp('/video-detail/v1');
    const area = await screen.findByTestId('outputs-area', {}, FIRST);
    const open = within(area).getByRole<HTMLAnchorElement>('link', { name: 'Open report' });
    expect(open.href).toBe(`${location.origin}/api/videos/v1/report/report.html?exp=9&sig=rr`);
    expect(open.target).toBe('_blank');
    expect(open.rel).toContain('noopener');

    await user.click(within(area).getByRole('button', { name: 'Watch trailer' }));
    const player = await screen.findByRole('dialog');
    expect(player.querySelector('video')?.getAttribute('src')).toBe(
      `${location.origin}/assets/data/output/v1/trailer-1.mp4?exp=9&sig=tt`,
    );
  });

  it('shows the processing notes instead of the actions while jobs run', async () => {
    stubSignedIn({
      'GET /api/videos/v1': () => ({
        status: 200,
        body: {
          ...VIDEO,
          trailer_path: 'v1/trailer-1.mp4?exp=9&sig=tt',
          is_trailer_creating: true,
          is_report_creating: true,
        },
      }),
    });
    renderApp('/video-detail/v1');
    const area = await screen.findByTestId('outputs-area', {}, FIRST);
    expect(within(area).getByText(/The trailer is being created/)).toBeTruthy();
    expect(within(area).getByText(/The report is being created/)).toBeTruthy();
    expect(within(area).queryByRole('button')).toBeNull();
  });
});
