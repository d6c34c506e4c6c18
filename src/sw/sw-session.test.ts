import { describe, expect, it } from 'vitest';
import { openSessionDb, rotatedAuth } from '../lib/session-db';
import { ownerOfRequest, rememberToken } from './sw-session';

const withToken = (token: string): Request =>
  new Request('http://localhost/api/videos', { headers: { Authorization: `Bearer ${token}` } });

describe('which user an API answer belongs to', () => {
  it("keeps a request made with the signed-in user's previous token as that user's", async () => {
    const store = await openSessionDb();
    rememberToken('token-1', 'user-a'); // handed over at login
    await store.setAuth({ token: 'token-2', userId: 'user-a' }); // a refresh rotated it
    expect(await ownerOfRequest(withToken('token-2'))).toBe('user-a');
    expect(await ownerOfRequest(withToken('token-1'))).toBe('user-a');
    expect(await ownerOfRequest(withToken('forged'))).toBeUndefined();
  });

  it('knows the tokens a page stored before a refresh, even in a freshly started worker', async () => {
    const store = await openSessionDb();
    await store.setAuth({ token: 'token-3', userId: 'user-c', previousTokens: ['token-2c'] });
    expect(await ownerOfRequest(withToken('token-2c'))).toBe('user-c');
  });

  it("never files another user's token under the signed-in user", async () => {
    const store = await openSessionDb();
    rememberToken('token-b', 'user-b');
    await store.setAuth({ token: 'token-a', userId: 'user-a' });
    expect(await ownerOfRequest(withToken('token-b'))).toBeUndefined();
    expect(await ownerOfRequest(new Request('http://localhost/api/videos'))).toBeUndefined();
  });

  it('a refresh handed over twice (page, then worker message) keeps the previous tokens', () => {
    const first = rotatedAuth(undefined, 't1', 'u');
    const refreshed = rotatedAuth(first, 't2', 'u');
    expect(rotatedAuth(refreshed, 't2', 'u').previousTokens).toEqual(['t1']);
    expect(rotatedAuth(refreshed, 't9', 'other').previousTokens).toEqual([]);
  });

  it('never goes back to a token a refresh already replaced (a page handing over a stale one)', () => {
    const refreshed = rotatedAuth(rotatedAuth(undefined, 't1', 'u'), 't2', 'u');
    expect(rotatedAuth(refreshed, 't1', 'u')).toEqual({
      token: 't2',
      userId: 'u',
      previousTokens: ['t1'],
    });
  });
});
