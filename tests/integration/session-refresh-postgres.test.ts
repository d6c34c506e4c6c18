// Refreshes racing with one token on a real PostgreSQL server (Debian's), where they really run
// at once on separate connections (PGlite serialises transactions): every caller gets the same
// working successor, and a revocation racing a refresh always wins. The database is the whole
// migrated schema (tests/support/test-db.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REUSE_GRACE_MS, refreshSession } from '../../server/src/auth/refresh.ts';
import type { Db } from '../../server/src/db/db.ts';
import { openPostgres } from '../../server/src/db/postgres.ts';
import {
  createSession,
  findSessionWithUser,
  findToken,
  markUsed,
  revokeSession,
  revokeUserSessions,
} from '../../server/src/repositories/sessions.ts';
import { newPostgresDatabase } from '../support/test-db.ts';

const CALLERS = 10;
let pools: Db[] = [];
let userId: string;

beforeAll(async () => {
  const url = await newPostgresDatabase();
  // One pool per caller, as separate tabs would reach separate server connections.
  pools = await Promise.all(Array.from({ length: CALLERS }, () => openPostgres(url)));
  const db = pools[0]!;
  const [team] = await db.query<{ id: string }>(
    "INSERT INTO teams (name) VALUES ('Race') RETURNING id",
  );
  const [user] = await db.query<{ id: string }>(
    "INSERT INTO users (team_id, email, password_hash) VALUES ($1, 'pg@example.com', 'x') RETURNING id",
    [team!.id],
  );
  userId = user!.id;
}, 120_000);

afterAll(async () => {
  await Promise.all(pools.map((db) => db.close()));
});

describe('refresh on PostgreSQL', () => {
  it('gives 10 concurrent refreshes of one token the same live successor', async () => {
    const now = Date.now();
    const token = await createSession(pools[0]!, userId, now);
    const results = await Promise.all(pools.map((db) => refreshSession(db, token, now)));
    const tokens = new Set(results.map((r) => (r.kind === 'ok' ? r.token : r.kind)));
    expect(tokens.size).toBe(1);
    const [successor] = [...tokens] as [string];
    expect(successor).not.toBe(token);
    expect(successor).not.toBe('refused');
    expect((await findSessionWithUser(pools[0]!, successor))?.session).toMatchObject({
      user_id: userId,
    });
    const live = await pools[0]!.query('SELECT 1 FROM sessions WHERE revoked_at IS NULL');
    expect(live).toHaveLength(1);
  });

  it('revokes the family when the rotated token returns after the window', async () => {
    const now = Date.now();
    const token = await createSession(pools[0]!, userId, now);
    const first = await refreshSession(pools[1]!, token, now);
    if (first.kind !== 'ok') throw new Error(`refresh refused: ${first.kind}`);
    // The user goes on with the successor (an unused one would be handed out again: a lost answer).
    await markUsed(
      pools[0]!,
      (await findSessionWithUser(pools[0]!, first.token))!.session.session_id,
      now,
    );
    const reuse = await refreshSession(pools[2]!, token, now + REUSE_GRACE_MS + 1);
    expect(reuse).toMatchObject({ kind: 'reused', userId, liveRevoked: 1 });
    expect(await findSessionWithUser(pools[0]!, first.token)).toBeUndefined();
  });

  it('lets no refresh outlive a password change or a logout that races it, round after round', async () => {
    const ROUNDS = 150;
    const leaks: string[] = [];
    let refreshedFirst = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const now = Date.now();
      const token = await createSession(pools[0]!, userId, now);
      const sessionId = (await findToken(pools[0]!, token))!.session_id;
      const kind = round % 2 === 0 ? 'password change' : 'logout';
      const revoke = (): Promise<void> =>
        kind === 'logout'
          ? revokeSession(pools[2]!, sessionId)
          : pools[2]!.tx((q) => revokeUserSessions(q, userId));
      // The revocation starts a little before, with or a little after the refresh.
      const lag = round % 3;
      const [refreshed] = await Promise.all([
        refreshSession(pools[1]!, token, now),
        new Promise((resolve) => setTimeout(resolve, lag)).then(revoke),
      ]);
      if (refreshed.kind === 'ok') refreshedFirst += 1;
      const live = await pools[0]!.query(
        'SELECT 1 FROM sessions WHERE user_id = $1 AND revoked_at IS NULL',
        [userId],
      );
      if (live.length > 0) leaks.push(`round ${round} (${kind}): ${live.length} live`);
      if (refreshed.kind === 'ok' && (await findSessionWithUser(pools[0]!, refreshed.token))) {
        leaks.push(`round ${round} (${kind}): the refreshed token works`);
      }
      await pools[0]!.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1', [userId]);
    }
    console.log(
      `revocation vs refresh: ${ROUNDS} rounds, the refresh answered first in ${refreshedFirst}`,
    );
    expect(leaks).toEqual([]);
  });
});
