// Refresh-token rotation that survives concurrency (issue 14 section 1). A refresh replaces the
// token; a caller that raced it with the same token within REUSE_GRACE_MS gets the very same
// successor (the OAuth 2.0 Security BCP's tolerance), so tabs, the page and the service worker
// refreshing at once all end up signed in. A rotated token used after the window means two
// parties hold it: the whole family ends, and the caller logs it as theft. Unless its successor
// was never used: then the rotation's answer was lost on the way (a dropped connection, a client
// offline for longer than the window) and the holder is the one it was meant for, so it gets that
// successor. A thief replaying it then holds what the user would; once either uses it, the
// next reuse is theft again. Every refresh holds its family's row until it commits, so a
// revocation (logout, password change or reset, e-mail change) and a refresh of the same family
// cannot both succeed: whichever comes second sees the other (sessions.ts, lockLiveFamily).
import type { Db, Queryable } from '../db/db.ts';
import { newToken } from './tokens.ts';
import { openSuccessor, sealSuccessor } from './successor-seal.ts';
import {
  SESSION_ABSOLUTE_MS,
  createSession,
  findToken,
  lockLiveFamily,
  markRotated,
  revokeFamily,
  type TokenRow,
} from '../repositories/sessions.ts';

/** How long a just-rotated token still answers with its successor. */
export const REUSE_GRACE_MS = 30_000;
/** Rotations followed from a raced token to the live one (each within its own window). */
const MAX_CHAIN = 8;

export type RefreshResult =
  | { kind: 'ok'; token: string; userId: string }
  | { kind: 'refused' }
  /** A rotated token came back after its window: the family is revoked. */
  | { kind: 'reused'; userId: string; familyId: string; sessionId: string; liveRevoked: number };

function usable(row: TokenRow, now: number): boolean {
  return (
    row.refresh_until.getTime() > now && row.signed_in_at.getTime() + SESSION_ABSOLUTE_MS > now
  );
}

function inGrace(row: TokenRow, now: number): boolean {
  return row.rotated_at !== null && now - row.rotated_at.getTime() <= REUSE_GRACE_MS;
}

/**
 * The live token a raced caller should hold: the successor of `token`, or that one's successor
 * when it too was rotated meanwhile. Undefined when the family ended (logout, revocation).
 */
async function liveSuccessor(q: Queryable, token: string, row: TokenRow, now: number) {
  let current = { token, row };
  for (let step = 0; step < MAX_CHAIN; step++) {
    if (current.row.revoked_at === null) return usable(current.row, now) ? current : undefined;
    if (!inGrace(current.row, now) || current.row.successor_sealed === null) return undefined;
    const next = openSuccessor(current.token, current.row.successor_sealed);
    const nextRow = next === undefined ? undefined : await findToken(q, next);
    if (next === undefined || !nextRow) return undefined;
    current = { token: next, row: nextRow };
  }
  return undefined;
}

/** The successor of a rotated token when it is live and was never presented (answer lost). */
async function unusedSuccessor(q: Queryable, token: string, row: TokenRow, now: number) {
  if (row.successor_sealed === null) return undefined;
  const next = openSuccessor(token, row.successor_sealed);
  const nextRow = next === undefined ? undefined : await findToken(q, next);
  if (!next || !nextRow || nextRow.revoked_at !== null || nextRow.used_at !== null)
    return undefined;
  return usable(nextRow, now) ? next : undefined;
}

export function refreshSession(db: Db, token: string, now: number): Promise<RefreshResult> {
  return db.tx(async (q) => {
    const presented = await findToken(q, token);
    if (!presented || !(await lockLiveFamily(q, presented.family_id))) return { kind: 'refused' };
    // Read again under the lock. Two passes: a rotation lost to a concurrent refresh (one that
    // had no lock to wait for) is answered from the winner's result.
    for (let pass = 0; pass < 2; pass++) {
      const row = await findToken(q, token);
      if (!row) return { kind: 'refused' };
      if (row.rotated_at !== null) {
        if (inGrace(row, now)) {
          const live = await liveSuccessor(q, token, row, now);
          return live
            ? { kind: 'ok', token: live.token, userId: row.user_id }
            : { kind: 'refused' };
        }
        const unused = await unusedSuccessor(q, token, row, now);
        if (unused) return { kind: 'ok', token: unused, userId: row.user_id };
        const liveRevoked = await revokeFamily(q, row.family_id);
        return {
          kind: 'reused',
          userId: row.user_id,
          familyId: row.family_id,
          sessionId: row.session_id,
          liveRevoked,
        };
      }
      if (row.revoked_at !== null || !usable(row, now)) return { kind: 'refused' };
      const successor = newToken();
      if (!(await markRotated(q, row.session_id, sealSuccessor(token, successor), now))) continue;
      const family = { familyId: row.family_id, signedInAt: row.signed_in_at.getTime() };
      await createSession(q, row.user_id, now, family, successor);
      return { kind: 'ok', token: successor, userId: row.user_id };
    }
    return { kind: 'refused' };
  });
}
