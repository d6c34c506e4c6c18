import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SCENE_SCROLL_DELAY_MS } from '../../config/limits';
import { renderApp } from '../../testing/render-app';
import {
  EMPTY_LIST,
  stubSignedIn,
  stubSignedInNoVideos,
  useStoredSession,
} from '../../testing/signed-in';
import { completedVideoFixture, sceneFixture } from '../../testing/video-fixtures';

const FIRST = { timeout: 15_000 };
const ID = '0b9f6a52-0000-4000-8000-000000000002';
const DETAIL = completedVideoFixture(
  ID,
  [0, 1, 2].map((i) => sceneFixture(i)),
);

useStoredSession();

const here = () => window.location.pathname + window.location.search;

describe('Video detail', { timeout: 30_000 }, () => {
  it.each([404, 500])(
    'goes back to the list when the video cannot be loaded (%i)',
    async (status) => {
      stubSignedInNoVideos({
        [`GET /api/videos/${ID}`]: () => ({ status, body: { detail: 'Video not found' } }),
      });
      renderApp(`/video-detail/${ID}`);
      await waitFor(() => expect(here()).toBe('/video'), FIRST);
      expect(await screen.findByText('Currently, there are no videos.', {}, FIRST)).toBeTruthy();
    },
  );

  it('scrolls the strip and the page to ?sceneIndex about 200 ms after the video loads', async () => {
    stubSignedIn({ [`GET /api/videos/${ID}`]: () => ({ status: 200, body: DETAIL }) });
    const scrolled: { id: string; at: number }[] = [];
    // jsdom has no scrollIntoView: record which element asked and when.
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push({ id: this.id, at: performance.now() });
    });
    // When the selected scene enters the document, the page has its data.
    let shownAt: number | undefined;
    const observer = new MutationObserver(() => {
      if (shownAt === undefined && document.getElementById('scene-2')) shownAt = performance.now();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    try {
      renderApp(`/video-detail/${ID}?sceneIndex=2`);
      await waitFor(() => expect(scrolled.length).toBeGreaterThan(0), FIRST);
      expect(scrolled.map((s) => s.id)).toEqual(['scene-strip-2', 'scene-2']);
      expect(shownAt).toBeDefined();
      const delay = scrolled[0]!.at - shownAt!;
      expect(delay).toBeGreaterThanOrEqual(SCENE_SCROLL_DELAY_MS - 20);
      expect(delay).toBeLessThan(SCENE_SCROLL_DELAY_MS + 2_000);
      expect(screen.getByRole('heading', { name: 'Scene #2' })).toBeTruthy();
    } finally {
      observer.disconnect();
      Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
    }
  });

  it('searches videos similar to this one with Search Similar Video', async () => {
    const { sent } = stubSignedIn({
      [`GET /api/videos/${ID}`]: () => ({ status: 200, body: DETAIL }),
      'GET /api/videos/find-similar-videos': () => ({ status: 200, body: EMPTY_LIST }),
    });
    const { user } = renderApp(`/video-detail/${ID}?sceneIndex=1`);
    await user.click(await screen.findByRole('button', { name: 'Search Similar Video' }, FIRST));
    await waitFor(() =>
      expect(here()).toBe(`/video/similar/${ID}?video=true&kValue=10&searchMethod=hybrid`),
    );
    expect(await screen.findByText('No matching videos found.', {}, FIRST)).toBeTruthy();
    // Similar to the video, not to the scene that was open, and no description.
    const call = sent.find((r) => r.url.pathname === '/api/videos/find-similar-videos')!;
    expect(Object.fromEntries(call.url.searchParams)).toEqual({
      videoId: ID,
      searchScope: 'all',
      kValue: '10',
      searchMethod: 'hybrid',
      page: '1',
      size: '50',
    });
  });

  it('lists the people with the scenes where they appear, and jumps to one', async () => {
    const people = [
      { name: 'Franck Dupont', scenes: [0, 2], face_found: 'one' },
      { name: 'Iron Man', scenes: [], face_found: 'none' },
      { name: 'The Crowd', scenes: [], face_found: 'several' },
      { name: 'Sean Connery', scenes: [], face_found: 'one' },
    ];
    stubSignedIn({
      [`GET /api/videos/${ID}`]: () => ({ status: 200, body: { ...DETAIL, people } }),
    });
    const { user } = renderApp(`/video-detail/${ID}`);
    const list = await screen.findByRole('region', { name: 'People' }, FIRST);
    expect(list.textContent).toContain("No face was found in this person's image");
    expect(list.textContent).toContain("This person's image shows several faces");
    expect(list.textContent).toContain('Not recognised in any scene.');
    expect(screen.getByRole('heading', { name: 'Scene #0' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Franck Dupont in scene #2' }));
    await waitFor(() => expect(here()).toBe(`/video-detail/${ID}?sceneIndex=2`));
    expect(await screen.findByRole('heading', { name: 'Scene #2' })).toBeTruthy();
  });
});
