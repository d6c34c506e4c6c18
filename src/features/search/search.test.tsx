import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../testing/render-app';
import { renderAt } from '../../testing/render-at';
import { stubSignedIn, useStoredSession, type Routes } from '../../testing/signed-in';
import { completedVideoFixture, sceneFixture } from '../../testing/video-fixtures';

const FIRST = { timeout: 15_000 };
const ID = '0b9f6a52-0000-4000-8000-000000000001';
const SCENE_TEXT = `${'A red boat leaves the harbour at dawn while gulls circle '}above the pier.`;
const DETAIL = completedVideoFixture(ID, [sceneFixture(0, 'Opening'), sceneFixture(1, SCENE_TEXT)]);

useStoredSession();

function signedIn(routes: Routes = {}) {
  return stubSignedIn({
    [`GET /api/videos/${ID}`]: () => ({ status: 200, body: DETAIL }),
    ...routes,
  });
}

const here = () => window.location.pathname + window.location.search;

describe('Advanced search', { timeout: 60_000 }, () => {
  it('limits the text to 1024 characters with the message, and coerces top-k on blur', async () => {
    signedIn();
    const { user } = renderApp('/advanced-search');
    const text = await screen.findByLabelText<HTMLTextAreaElement>('Description', {}, FIRST);
    expect(text.maxLength).toBe(1026);
    const button = screen.getByRole<HTMLButtonElement>('button', {
      name: 'Search relevant videos',
    });
    expect(button.disabled).toBe(true);

    await user.click(text);
    await user.paste('x'.repeat(1025));
    expect(
      screen.getByText('The input length has reached the maximum limit of 1024 characters.'),
    ).toBeTruthy();
    expect(button.disabled).toBe(true);
    await user.keyboard('{Backspace}');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(button.disabled).toBe(false);

    const topK = screen.getByLabelText<HTMLInputElement>('Top K');
    expect(topK.value).toBe('10');
    await user.clear(topK);
    await user.tab();
    expect(topK.value).toBe('1');
    await user.clear(topK);
    await user.type(topK, '5000');
    await user.tab();
    expect(topK.value).toBe('999');
    await user.clear(topK);
    await user.type(topK, 'a4b2');
    expect(topK.value).toBe('42');
  });

  it('goes to the results with nulls dropped, booleans as strings and the text encoded', async () => {
    signedIn({
      'GET /api/videos/find-similar-scenes': () => ({
        status: 200,
        body: { items: [], total: 0, pages: 0, page: 1, size: 50 },
      }),
    });
    const { user } = renderApp('/advanced-search');
    await user.click(await screen.findByRole('tab', { name: 'Scene search' }, FIRST));
    expect(screen.queryByText('Scope')).toBeNull(); // no video to narrow to
    await user.type(screen.getByLabelText('Description'), 'boat & sea');
    await user.selectOptions(screen.getByLabelText('Search method'), 'Sparse (keyword)');
    await user.click(screen.getByRole('button', { name: 'Search relevant scenes' }));
    await waitFor(() =>
      expect(here()).toBe(
        '/video/similar?video=false&kValue=10&description=boat%20%26%20sea&searchMethod=sparse',
      ),
    );
    expect(await screen.findByText('No matching scenes found.')).toBeTruthy();
  });

  it('from a scene: read-only scene text, scope choice, similar-scenes search, back link', async () => {
    const { sent } = signedIn({
      'GET /api/videos/find-similar-scenes': () => ({
        status: 200,
        body: {
          items: [
            {
              id: ID,
              title: 'Harbour',
              summary: 'A day at the harbour.',
              status: 'completed',
              created_at: '2024-05-01T10:00:00.000Z',
              similarity_score: 0.8765,
              video_thumbnail_path: null,
              scene_thumbnail_path: null,
              scene_description: SCENE_TEXT,
              scene_index: 1,
            },
            { id: 'x', title: 'Not done', status: 'in_progress', similarity_score: 0.5 },
          ],
          total: 2,
          pages: 1,
          page: 1,
          size: 50,
        },
      }),
    });
    const { user } = renderApp(`/advanced-search/${ID}?sceneIndex=1&video=false`);
    const text = await screen.findByLabelText<HTMLTextAreaElement>('Description', {}, FIRST);
    await waitFor(() => expect(text.value).toBe(SCENE_TEXT));
    expect(text.readOnly).toBe(true);
    expect(screen.getByRole('link', { name: 'Back to the video' }).getAttribute('href')).toBe(
      `/video-detail/${ID}?sceneIndex=1`,
    );
    await user.click(screen.getByLabelText('This video'));
    await user.click(screen.getByRole('button', { name: 'Search similar scenes' }));
    await waitFor(() =>
      expect(here()).toBe(
        `/video/similar/${ID}?sceneIndex=1&searchScope=current&video=false&kValue=10&searchMethod=hybrid`,
      ),
    );

    // Results: scene card with the 60-character title, the rest as body, and the link.
    const card = await screen.findByTestId('result-card');
    expect(within(card).getByTestId('scene-title').textContent).toBe(SCENE_TEXT.slice(0, 60));
    expect(within(card).getByTestId('scene-body').textContent).toBe(SCENE_TEXT.slice(60));
    expect(within(card).getByRole('link', { name: 'Scene #1 from Harbour' })).toBeTruthy();
    expect(within(card).getByText('Similarity 0.88')).toBeTruthy();
    expect(screen.getAllByTestId('result-card')).toHaveLength(1); // only completed ones
    expect(screen.getByRole('heading', { name: 'Top 10 Picks' })).toBeTruthy();
    expect(screen.getByTestId('filter-line').textContent).toBe(
      'Scenes · This video · Hybrid (semantic and keyword)',
    );
    expect(screen.getByTestId('search-summary').textContent).toContain(SCENE_TEXT);
    const call = sent.find((r) => r.url.pathname === '/api/videos/find-similar-scenes')!;
    expect(Object.fromEntries(call.url.searchParams)).toEqual({
      videoId: ID,
      sceneIndex: '1',
      searchScope: 'current',
      kValue: '10',
      searchMethod: 'hybrid',
      page: '1',
      size: '50',
    });

    await user.click(screen.getByRole('link', { name: 'Change' }));
    await waitFor(() =>
      expect(here()).toBe(
        `/advanced-search/${ID}?sceneIndex=1&searchScope=current&video=false&kValue=10&searchMethod=hybrid`,
      ),
    );
    expect(screen.getByRole('tab', { name: 'Scene search' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(screen.getByLabelText<HTMLInputElement>('This video').checked).toBe(true);
  });

  it.each([
    ['en', 'Franck Dupont appears in this scene'],
    ['ja', 'このシーンにFranck Dupontが映っています'],
  ] as const)(
    'says on a scene result that a person searched for appears in it (%s)',
    async (locale, note) => {
      const scene = (index: number, matched?: string[]) => ({
        id: ID,
        title: 'Interviews',
        status: 'completed',
        similarity_score: 0.9 - index / 10,
        video_thumbnail_path: null,
        scene_description: `Scene ${index} of the interviews.`,
        scene_index: index,
        ...(matched ? { matched_people: matched } : {}),
      });
      signedIn({
        'GET /api/videos/find-similar-scenes': () => ({
          status: 200,
          body: {
            items: [scene(2, ['Franck Dupont']), scene(0)],
            total: 2,
            pages: 1,
            page: 1,
            size: 50,
          },
        }),
      });
      await renderAt(
        '/video/similar?video=false&kValue=10&description=franck&searchMethod=hybrid',
        {
          locale,
          signedIn: true,
        },
      );
      const cards = await screen.findAllByTestId('result-card', {}, FIRST);
      expect(cards).toHaveLength(2);
      expect(within(cards[0]!).getByText(note)).toBeTruthy();
      // A scene where no one searched for was recognised says nothing about people.
      expect(cards[1]!.textContent).not.toContain('Franck Dupont');
    },
  );

  it('shows the empty result when the search fails', async () => {
    signedIn({
      'GET /api/videos/find-similar-videos': () => ({ status: 500, body: { detail: 'boom' } }),
    });
    renderApp('/video/similar?video=true&kValue=3&description=sea&searchMethod=dense');
    expect(await screen.findByText('No matching videos found.', {}, FIRST)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Top 3 Picks' })).toBeTruthy();
    expect(screen.getByTestId('search-summary').textContent).toContain('sea');
  });
});
