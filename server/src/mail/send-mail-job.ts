// The 'send-mail' job: delivers one queued message (queue-mail.ts) and then forgets it. A crash
// between the delivery and the job's end sends it again after recovery: at least once, never
// lost. A message past its send_before (its code expired) or out of attempts is dropped.
import type { JobRow } from '../jobs/job-store.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import { JobName } from '../jobs/names.ts';
import type { JobHandler } from '../jobs/registry.ts';
import { deleteOutboxMail, findOutboxMail } from '../repositories/mail-outbox.ts';
import { mailerFor } from './create.ts';

const mailIdOf = (job: JobRow): string => job.payload.mailId ?? '';

/** 2 s, 6 s, 18 s ... capped at 10 minutes: a mail server's hiccup costs seconds, not hours. */
export function mailBackoffMs(attempt: number): number {
  return Math.min(2_000 * 3 ** Math.max(0, attempt - 1), 10 * 60_000);
}

/** The same delivery under each lane's name (queue-mail.ts picks the name). */
const mailHandler = (name: JobName): JobHandler => ({
  name,
  backoffMs: mailBackoffMs,
  async run(ctx, job) {
    const mail = await findOutboxMail(ctx.db, mailIdOf(job));
    if (!mail) return; // Sent before a crash cut the job short.
    if (mail.send_before.getTime() <= ctx.now()) {
      throw new PermanentJobError('the message expired before it could be sent');
    }
    await mailerFor(ctx).send({ to: mail.to_address, subject: mail.subject, text: mail.body });
    await deleteOutboxMail(ctx.db, mail.id);
  },
  async onFailed(_ctx, job, _err, q) {
    // Given up: the code or link it carries does not stay in the database.
    await deleteOutboxMail(q, mailIdOf(job));
  },
});

export const sendMailHandler = mailHandler(JobName.SendMail);
export const sendAnonymousMailHandler = mailHandler(JobName.SendAnonymousMail);
