// The one way the product sends mail: queueMail writes the message and its 'send-mail' job in
// the caller's transaction (the one that stores the code or link the mail carries), and the
// job delivers it through the mailer (SMTP, or the outbox folder), retried with backoff. A
// server killed after the answer still sends the mail once it runs again. A mail an anonymous
// request led to (a reset link) goes in the anonymous lane, so a flood of those never holds up a
// signed-in user's code (jobs/lanes.ts).
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { insertJob } from '../jobs/job-store.ts';
import { JobName } from '../jobs/names.ts';
import { wakeWorkers } from '../jobs/queue.ts';
import { MAIL_MAX_ATTEMPTS } from '../limits.ts';
import { insertOutboxMail } from '../repositories/mail-outbox.ts';
import type { MailMessage } from './mailer.ts';

/** Who the mail is for: a signed-in user's request, or an anonymous one (forgot password). */
export type MailLane = 'user' | 'anonymous';

const jobOf = (lane: MailLane): JobName =>
  lane === 'anonymous' ? JobName.SendAnonymousMail : JobName.SendMail;

/**
 * Queues a message inside transaction `q`; `validMs` is how long its content stays useful (a
 * code's lifetime): a message that could not leave by then is dropped, not sent late. Call
 * mailQueued() once the transaction has committed.
 */
export async function queueMail(
  ctx: Pick<AppContext, 'now'>,
  q: Queryable,
  message: MailMessage,
  validMs: number,
  lane: MailLane = 'user',
): Promise<void> {
  const now = ctx.now();
  const mailId = await insertOutboxMail(q, {
    to: message.to,
    subject: message.subject,
    body: message.text,
    now,
    sendBefore: now + validMs,
  });
  await insertJob(q, {
    name: jobOf(lane),
    videoId: null,
    payload: { mailId },
    runAt: now,
    maxAttempts: MAIL_MAX_ATTEMPTS,
  });
}

/** Wakes this process's mail worker after the transaction that queued mail has committed. */
export function mailQueued(lane: MailLane = 'user'): void {
  wakeWorkers(jobOf(lane));
}
