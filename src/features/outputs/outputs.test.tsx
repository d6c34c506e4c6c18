import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VIDEO_DETAIL_POLL_BACKOFF } from '../../config/limits';
import { renderApp } from '../../testing/render-app';
import { EMPTY_LIST, stubSignedIn, useStoredSession } from '../../testing/signed-in';

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

describe('Refreshing the video while a job runs', { timeout: 30_000 }, () => {
  // Fake clocks that still move with real time, so the screen's own waits work; the test jumps
  // them over the polling intervals. setImmediate stays real: fake-indexeddb schedules with it.
  const fakeClocks = () =>
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
  afterEach(() => {
    vi.useRealTimers();
  });

  const { firstMs, factor } = VIDEO_DETAIL_POLL_BACKOFF;
  /** Moves the clocks on in small steps, letting the page answer (render, effects) between. */
  const elapse = async (ms: number): Promise<void> => {
    for (let t = 0; t < ms; t += 100) await vi.advanceTimersByTimeAsync(100);
  };

  it('polls with growing intervals until the flag clears, then shows the trailer and stops', async () => {
    fakeClocks();
    const at: number[] = [];
    stubSignedIn({
      'GET /api/videos/v1': () => {
        at.push(Date.now());
        const done = at.length >= 4;
        return {
          status: 200,
          body: {
            ...VIDEO,
            is_trailer_creating: !done,
            trailer_path: done ? 'v1/trailer-1.mp4?exp=9&sig=tt' : null,
          },
        };
      },
    });
    renderApp('/video-detail/v1');
    const area = await screen.findByTestId('outputs-area', {}, FIRST);
    expect(within(area).getByText(/The trailer is being created/)).toBeTruthy();

    await elapse(20_000);
    // Asked again after firstMs, then after longer and longer waits, until the flag cleared.
    expect(at).toHaveLength(4);
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    [firstMs, firstMs * factor, firstMs * factor ** 2].forEach((wait, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(wait);
      expect(gaps[i]).toBeLessThan(wait + 1_000);
    });
    expect(await within(area).findByRole('button', { name: 'Watch trailer' })).toBeTruthy();
    expect(within(area).queryByText(/The trailer is being created/)).toBeNull();
    await elapse(60_000);
    expect(at).toHaveLength(4);
  });

  it('stops polling when the page is left', async () => {
    fakeClocks();
    let gets = 0;
    stubSignedIn({
      'GET /api/videos/v1': () => {
        gets += 1;
        return { status: 200, body: { ...VIDEO, is_report_creating: true } };
      },
      'GET /api/videos': () => ({ status: 200, body: EMPTY_LIST }),
    });
    const { user } = renderApp('/video-detail/v1');
    await screen.findByTestId('outputs-area', {}, FIRST);
    await elapse(firstMs + 100);
    await waitFor(() => expect(gets).toBe(2));

    await user.click(screen.getByRole('button', { name: 'Back' }));
    // Left once the list has replaced the detail page (its route loads first).
    await waitFor(() => expect(location.pathname).toBe('/video'));
    await waitFor(() => expect(screen.queryByTestId('outputs-area')).toBeNull());
    const left = gets;
    await elapse(60_000);
    expect(gets).toBe(left);
  });
});
