// Mail waiting to be sent (migration 007): written with the code it carries, deleted once sent.
import type { Queryable } from '../db/db.ts';
import { one } from '../db/db.ts';

export type OutboxMail = {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  send_before: Date;
};

export async function insertOutboxMail(
  q: Queryable,
  m: { to: string; subject: string; body: string; now: number; sendBefore: number },
): Promise<string> {
  const row = await one<{ id: string }>(
    q,
    `INSERT INTO mail_outbox (to_address, subject, body, created_at, send_before)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [m.to, m.subject, m.body, new Date(m.now), new Date(m.sendBefore)],
  );
  return row!.id;
}

export async function findOutboxMail(q: Queryable, id: string): Promise<OutboxMail | undefined> {
  return one<OutboxMail>(
    q,
    'SELECT id, to_address, subject, body, send_before FROM mail_outbox WHERE id = $1',
    [id],
  );
}

export async function deleteOutboxMail(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM mail_outbox WHERE id = $1', [id]);
}
