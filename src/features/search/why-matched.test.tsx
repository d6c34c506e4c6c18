// Issue 29 on the result cards: the matched words marked in the title and the description, the
// keyword/meaning shares, what of the hit the query named, and a scene hit that plays its scene.
import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../testing/render-app';
import { renderAt } from '../../testing/render-at';
import { stubSignedIn, useStoredSession } from '../../testing/signed-in';
import { completedVideoFixture, sceneFixture } from '../../testing/video-fixtures';

// The first screen of a file compiles the lazy route: generous on a loaded machine.
const FIRST = { timeout: 30_000 };
const ID = '0b9f6a52-0000-4000-8000-000000000031';
const page = (items: unknown[]) => ({ items, total: items.length, pages: 1, page: 1, size: 50 });
const marks = (el: HTMLElement) => [...el.querySelectorAll('mark')].map((m) => m.textContent);
const here = () => window.location.pathname + window.location.search;

const hit = (over: Record<string, unknown>) => ({
  id: ID,
  title: 'Harbour at dawn',
  summary: 'Boats leave the harbour; a red BOAT waits.',
  status: 'completed',
  created_at: '2024-05-01T10:00:00.000Z',
  similarity_score: 0.8,
  video_thumbnail_path: null,
  ...over,
});

useStoredSession();

describe('Why a search hit matched', { timeout: 60_000 }, () => {
  it('marks the words, splits the score between keywords and meaning, and names what matched', async () => {
    stubSignedIn({
      'GET /api/videos/find-similar-videos': () => ({
        status: 200,
        body: page([
          hit({
            match: {
              terms: ['harbour', 'boat'],
              keyword: 0.6,
              meaning: 0.4,
              people: ['Franck Dupont'],
              objects: ['boat'],
              screen_text: ['HARBOUR OFFICE'],
            },
          }),
          // A search similar to a video (no text) has no shares and nothing named.
          hit({
            id: 'other',
            title: 'Market',
            summary: 'Stalls',
            match: {
              terms: [],
              keyword: null,
              meaning: null,
              people: [],
              objects: [],
              screen_text: [],
            },
          }),
        ]),
      }),
    });
    renderApp('/video/similar?video=true&kValue=10&description=harbour%20boat&searchMethod=hybrid');
    const [card, other] = await screen.findAllByTestId('result-card', {}, FIRST);
    expect(marks(within(card!).getByRole('link', { name: 'Harbour at dawn' }))).toEqual([
      'Harbour',
    ]);
    expect(marks(within(card!).getByTestId('result-summary'))).toEqual(['Boat', 'harbour', 'BOAT']);
    expect(within(card!).getByTestId('match-shares').textContent).toBe(
      'Keywords 60% · Meaning 40%',
    );
    const why = within(card!).getByRole('list', { name: 'Why it matched' });
    expect(
      within(why)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Person: Franck Dupont', 'Seen: Boat', 'On screen: “HARBOUR OFFICE”']);
    expect(within(other!).queryByTestId('match-reasons')).toBeNull();
    expect(marks(other!)).toEqual([]);
  });

  it('opens a scene hit at its scene, to play from its start (in Japanese too)', async () => {
    const detail = completedVideoFixture(
      ID,
      [0, 1, 2, 3].map((i) => sceneFixture(i)),
    );
    stubSignedIn({
      [`GET /api/videos/${ID}`]: () => ({ status: 200, body: detail }),
      'GET /api/videos/find-similar-scenes': () => ({
        status: 200,
        body: page([
          hit({
            scene_index: 3,
            scene_start_time: '00:00:06.000',
            scene_description: 'A crane lifts a container.',
            match: {
              terms: ['crane'],
              keyword: 1,
              meaning: 0,
              people: [],
              objects: [],
              screen_text: ['CRANE 7'],
            },
          }),
        ]),
      }),
    });
    const { user } = await renderAt(
      '/video/similar?video=false&kValue=10&description=crane&searchMethod=sparse',
      { locale: 'ja', signedIn: true },
    );
    const card = await screen.findByTestId('result-card', {}, FIRST);
    expect(marks(card)).toEqual(['crane']);
    expect(within(card).getByTestId('match-shares').textContent).toBe('キーワード 100% · 意味 0%');
    expect(card.textContent).toContain('画面の文字: 「CRANE 7」');
    await user.click(within(card).getByRole('link', { name: /シーン #3/ }));
    await waitFor(() => expect(here()).toBe(`/video-detail/${ID}?sceneIndex=3&play=1`));
    expect(await screen.findByRole('heading', { name: 'シーン #3' }, FIRST)).toBeTruthy();
  });
});
