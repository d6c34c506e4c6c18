import 'fake-indexeddb/auto';
import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Providers } from '../../app/providers';
import { createStore } from '../../app/store';
import { englishMessages } from '../../lib/i18n';
import { renderApp } from '../../testing/render-app';
import { stubSignedIn, useStoredSession } from '../../testing/signed-in';
import { VideoListPage } from './components/VideoListPage';
import { listPageFixture as page, listVideoFixture as video } from '../../testing/video-fixtures';

const FIRST = { timeout: 15_000 };

const ROWS = [
  video({ id: 'a', filename: 'queued.mp4', status: 'uploading' }),
  video({ id: 'b', filename: 'broken.mp4', status: 'failed', failure_code: 'undecodable' }),
  video({
    id: 'c',
    filename: 'harbour.mp4',
    title: 'Harbour at dawn',
    tags: [{ name: 'boats' }, { name: 'sea' }],
    video_thumbnail_path: 'c/thumbnail.jpg?exp=1&sig=x',
  }),
];

useStoredSession();

const rows = () => screen.getAllByTestId('video-row');
const description = (element: HTMLElement) =>
  document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent;

describe('Video list', { timeout: 30_000 }, () => {
  it('shows a row per status, the range above and below, and opens a completed video', async () => {
    stubSignedIn({ 'GET /api/videos': () => ({ status: 200, body: page(ROWS, 53) }) });
    const { user } = renderApp('/video');
    expect(await screen.findByText('Harbour at dawn', {}, FIRST)).toBeTruthy();
    expect(screen.getAllByText('1 - 3 of 53')).toHaveLength(2);

    const [queued, failed, done] = rows();
    expect(within(queued!).getByText('In progress')).toBeTruthy();
    expect(within(queued!).getByText('queued.mp4')).toBeTruthy();
    expect(within(queued!).getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(within(queued!).queryByRole('button', { name: 'Retry' })).toBeNull();

    expect(within(failed!).getByText('Failed')).toBeTruthy();
    expect(within(failed!).getByText('broken.mp4')).toBeTruthy();
    expect(within(failed!).getByRole('button', { name: 'Retry' })).toBeTruthy();
    // Why, in words: never a tool's message (issue 43).
    expect(within(failed!).getByTestId('failure-reason').textContent).toBe(
      englishMessages['videos.failure.undecodable'],
    );

    const img = within(done!).getByRole<HTMLImageElement>('img', {
      name: 'Thumbnail of Harbour at dawn',
    });
    expect(img.src).toBe(`${location.origin}/assets/data/output/c/thumbnail.jpg?exp=1&sig=x`);
    // The first rows of a page are in view at once: their thumbnails do not wait (issue 8).
    expect(img.getAttribute('loading')).toBe('eager');
    expect(img.getAttribute('width')).toBe('160');
    expect(within(done!).getByText('boats')).toBeTruthy();
    expect(within(done!).getByText(/^Created \d{4}\/\d{2}\/\d{2} \d{2}:\d{2}$/)).toBeTruthy();

    await user.click(within(done!).getByText('sea'));
    await waitFor(() => expect(window.location.pathname).toBe('/video-detail/c'));
  });

  it('searches tags on Enter, shows the no-match state, and clears back to the list', async () => {
    const { sent } = stubSignedIn({
      'GET /api/videos': (req) => ({
        status: 200,
        body: req.url.searchParams.get('tags') ? page([]) : page(ROWS),
      }),
    });
    const { user } = renderApp('/video');
    const box = await screen.findByRole('searchbox', { name: 'Search by tags' }, FIRST);
    await user.type(box, 'nothing here');
    expect(sent.filter((r) => r.url.searchParams.has('tags'))).toHaveLength(0);
    await user.keyboard('{Enter}');
    expect(await screen.findByText('No matching videos found.')).toBeTruthy();
    expect(screen.getByText('Try changing your criteria or filters.')).toBeTruthy();
    expect(sent.at(-1)?.url.searchParams.get('tags')).toBe('nothing here');

    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(await screen.findByText('Harbour at dawn')).toBeTruthy();
    expect(window.location.search).toBe('');
  });

  it('says there are no videos yet when the team has none', async () => {
    stubSignedIn({ 'GET /api/videos': () => ({ status: 200, body: page([]) }) });
    renderApp('/video');
    expect(await screen.findByText('Currently, there are no videos.', {}, FIRST)).toBeTruthy();
    expect(screen.queryByTestId('page-range')).toBeNull();
  });

  it('deletes after confirmation, removing the row at once', async () => {
    let listed = ROWS;
    const { sent } = stubSignedIn({
      'GET /api/videos': () => ({ status: 200, body: page(listed) }),
      'DELETE /api/videos/b': () => {
        listed = ROWS.filter((v) => v.id !== 'b');
        return { status: 200, body: { id: 'b', deleted: true } };
      },
    });
    const { user } = renderApp('/video');
    await screen.findByText('broken.mp4', {}, FIRST);
    await user.click(within(rows()[1]!).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', {}, FIRST);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sent.some((r) => r.method === 'DELETE')).toBe(false);

    await user.click(within(rows()[1]!).getByRole('button', { name: 'Delete' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByText('broken.mp4')).toBeNull());
    expect(sent.filter((r) => r.method === 'DELETE').map((r) => r.url.pathname)).toEqual([
      '/api/videos/b',
    ]);
    expect(await screen.findAllByText('1 - 2 of 2')).toHaveLength(2);
  });

  it('shows a retried video as in progress at once and puts it back when the server refuses', async () => {
    stubSignedIn({
      'GET /api/videos': () => ({ status: 200, body: page(ROWS) }),
      'POST /api/videos/b/retry-process': () => ({ status: 409, body: { detail: 'no' } }),
    });
    const { user } = renderApp('/video');
    await screen.findByText('broken.mp4', {}, FIRST);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('alertdialog', {}, FIRST)).toBeTruthy();
    await waitFor(() => expect(within(rows()[1]!).getByText('Failed')).toBeTruthy());
  });

  it('names the video a duplicate repeats, opens it, and analyses the copy only when asked', async () => {
    const copy = video({
      id: 'd',
      filename: 'harbour-copy.mp4',
      status: 'failed',
      failure_code: 'duplicate',
      duplicate_of: { id: 'c', title: 'Harbour at dawn', filename: 'harbour.mp4' },
    });
    const { sent } = stubSignedIn({
      'GET /api/videos': () => ({ status: 200, body: page([copy, ...ROWS]) }),
      'POST /api/videos/d/retry-process': () => ({ status: 200, body: copy }),
      'POST /api/videos/b/retry-process': () => ({ status: 200, body: ROWS[1] }),
    });
    const { user } = renderApp('/video');
    await screen.findByText('harbour-copy.mp4', {}, FIRST);
    const [duplicate, , broken] = rows();
    expect(within(duplicate!).getByTestId('failure-reason').textContent).toBe(
      `${englishMessages['videos.failure.duplicate']} Open Harbour at dawn`,
    );
    const original = within(duplicate!).getByRole('link', { name: /Harbour at dawn/ });
    expect(original.getAttribute('href')).toBe('/video-detail/c');
    // An ordinary failure keeps its plain Retry, which sends no body.
    expect(within(broken!).queryByRole('button', { name: 'Analyse it anyway' })).toBeNull();
    await user.click(within(broken!).getByRole('button', { name: 'Retry' }));
    await user.click(within(duplicate!).getByRole('button', { name: 'Analyse it anyway' }));
    await waitFor(() => expect(sent.filter((r) => r.method === 'POST')).toHaveLength(2));
    expect(sent.filter((r) => r.method === 'POST').map((r) => [r.url.pathname, r.body])).toEqual([
      ['/api/videos/b/retry-process', undefined],
      ['/api/videos/d/retry-process', { allow_duplicate: true }],
    ]);
  });

  it('offline, disables delete, retry and the tag search with the reason', async () => {
    stubSignedIn({ 'GET /api/videos': () => ({ status: 200, body: page(ROWS) }) });
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      renderApp('/video');
      await screen.findByText('broken.mp4', {}, FIRST);
      const reason = 'This needs a network connection. You are offline.';
      const failed = rows()[1]!;
      for (const name of ['Delete', 'Retry']) {
        const button = within(failed).getByRole<HTMLButtonElement>('button', { name });
        expect(button.disabled).toBe(true);
        expect(button.title).toBe(reason);
        expect(description(button)).toBe(reason);
      }
      const box = screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search by tags' });
      expect(box.disabled).toBe(true);
      expect(description(box)).toBe(reason);
      // Uploads are queued offline: the Upload button stays available.
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Upload' }).disabled).toBe(
        false,
      );
    } finally {
      onLine.mockRestore();
    }
  });

  it('hides the server rows of videos still shown as queued uploads, and does not count them', async () => {
    stubSignedIn({ 'GET /api/videos': () => ({ status: 200, body: page(ROWS, 53) }) });
    window.history.replaceState(null, '', '/video');
    render(
      <Providers store={createStore()} locale={{ locale: 'en', messages: englishMessages }}>
        <VideoListPage
          pendingRows={<p data-testid="pending">queued.mp4 uploading</p>}
          hiddenVideoIds={new Set(['a'])}
        />
      </Providers>,
    );
    expect(await screen.findByText('Harbour at dawn', {}, FIRST)).toBeTruthy();
    expect(rows().map((row) => row.dataset.status)).toEqual(['failed', 'completed']);
    expect(screen.queryByText('queued.mp4')).toBeNull();
    expect(screen.getByTestId('pending').textContent).toBe('queued.mp4 uploading');
    // Two rows under the range, which says so (the server counted the hidden one: 53).
    expect(screen.getAllByText('1 - 2 of 52')).toHaveLength(2);
  });
  it('asks the server again with Refresh and shows what it answers', async () => {
    // No row in progress: the list does not poll, so only Refresh can ask again.
    let listed = [ROWS[1]!];
    const { sent } = stubSignedIn({
      'GET /api/videos': () => ({ status: 200, body: page(listed) }),
    });
    const { user } = renderApp('/video');
    await screen.findByText('broken.mp4', {}, FIRST);
    const listCalls = () => sent.filter((r) => r.url.pathname === '/api/videos').length;
    const before = listCalls();
    listed = [ROWS[1]!, ROWS[2]!];
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Harbour at dawn')).toBeTruthy();
    expect(listCalls()).toBe(before + 1);
    expect(screen.getAllByText('1 - 2 of 2')).toHaveLength(2);
  });

  it('pages forward and back with Next and Previous, the page in the address', async () => {
    const second = video({ id: 'd', title: 'Lighthouse at dusk' });
    const { sent } = stubSignedIn({
      'GET /api/videos': (req) =>
        req.url.searchParams.get('page') === '2'
          ? { status: 200, body: { ...page([second], 51), page: 2 } }
          : { status: 200, body: page([ROWS[1]!, ROWS[2]!], 51) },
    });
    const { user } = renderApp('/video');
    await screen.findByText('Harbour at dawn', {}, FIRST);
    const [top] = screen.getAllByRole('navigation', { name: /^Pages/ });
    expect(within(top!).getByRole<HTMLButtonElement>('button', { name: 'Previous' }).disabled).toBe(
      true,
    );
    await user.click(within(top!).getByRole('button', { name: 'Next' }));

    expect(await screen.findByText('Lighthouse at dusk')).toBeTruthy();
    expect(window.location.pathname + window.location.search).toBe('/video?page=2');
    const call = sent.at(-1)!;
    expect([call.url.searchParams.get('page'), call.url.searchParams.get('size')]).toEqual([
      '2',
      '50',
    ]);
    expect(screen.queryByText('Harbour at dawn')).toBeNull();
    expect(screen.getAllByText('51 - 51 of 51')).toHaveLength(2);
    for (const nav of screen.getAllByRole('navigation', { name: /^Pages/ })) {
      expect(within(nav).getByRole<HTMLButtonElement>('button', { name: 'Next' }).disabled).toBe(
        true,
      );
    }

    await user.click(
      within(screen.getAllByRole('navigation', { name: /^Pages/ })[1]!).getByRole('button', {
        name: 'Previous',
      }),
    );
    expect(await screen.findByText('Harbour at dawn')).toBeTruthy();
    expect(window.location.pathname + window.location.search).toBe('/video');
  });

  it('opens the upload dialog from the list, Chakra and the dialog loading on that first click', async () => {
    stubSignedIn({
      'GET /api/videos': () => ({ status: 200, body: page([]) }),
      'GET /api/supported-videos-languages': () => ({
        status: 200,
        body: [{ code: 'en', name: 'English' }],
      }),
    });
    const { user } = renderApp('/video');
    await user.click(await screen.findByRole('button', { name: 'Upload' }, FIRST));
    const dialog = await screen.findByRole('dialog', {}, FIRST);
    expect(within(dialog).getByText('Upload a video')).toBeTruthy();
  });
});
