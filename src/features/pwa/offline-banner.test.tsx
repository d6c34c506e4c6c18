import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setOnline } from '../../testing/online';
import { renderApp } from '../../testing/render-app';
import { stubSignedInNoVideos, useStoredSession } from '../../testing/signed-in';

useStoredSession();

afterEach(() => setOnline(true));

describe('Offline banner', { timeout: 30_000 }, () => {
  it('says the app is offline, and once back refreshes the list only when the server answers', async () => {
    let healthCalls = 0;
    const { sent } = stubSignedInNoVideos({
      // The route is up before the server is reachable: three failed probes, then an answer.
      'GET /api/health': () => (++healthCalls > 3 ? { status: 200, body: {} } : { status: 503 }),
    });
    renderApp('/video');
    await screen.findByText('Currently, there are no videos.', {}, { timeout: 15_000 });
    const listCalls = () => sent.filter((r) => r.url.pathname === '/api/videos').length;
    const before = listCalls();

    setOnline(false);
    expect(screen.getByTestId('offline-banner').textContent).toMatch(/offline/i);

    setOnline(true);
    expect(screen.queryByTestId('offline-banner')).toBeNull();
    await waitFor(() => expect(healthCalls).toBe(3));
    expect(listCalls()).toBe(before);
    await waitFor(() => expect(listCalls()).toBe(before + 1), { timeout: 10_000 });
    expect(healthCalls).toBe(4);
  });
});
