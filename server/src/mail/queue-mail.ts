// The one way the product sends mail: queueMail writes the message and its 'send-mail' job in
// the caller's transaction (the one that stores the code or link the mail carries), and the
// job delivers it through the mailer (SMTP, or the outbox folder), retried with backoff. A
// server killed after the answer still sends the mail once it runs again.
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { insertJob } from '../jobs/job-store.ts';
import { JobName } from '../jobs/names.ts';
import { wakeWorkers } from '../jobs/queue.ts';
import { MAIL_MAX_ATTEMPTS } from '../limits.ts';
import { insertOutboxMail } from '../repositories/mail-outbox.ts';
import type { MailMessage } from './mailer.ts';

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
    name: JobName.SendMail,
    videoId: null,
    payload: { mailId },
    runAt: now,
    maxAttempts: MAIL_MAX_ATTEMPTS,
  });
}

/** Wakes this process's mail worker after the transaction that queued mail has committed. */
export function mailQueued(): void {
  wakeWorkers(JobName.SendMail);
}
