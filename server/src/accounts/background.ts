// Forgot password answers before anything about the account is looked at (same answer, same
// time for known and unknown e-mails): the request queues a 'send-reset-link' job with the
// address, and the job makes the link and queues its mail. Durable, unlike work left in memory:
// a server stopped or killed after the answer still sends the link when it runs again. Requests
// over the throttle (per address, per network) queue nothing and get the same answer.
import { languageOr, type Language } from '../auth/validation.ts';
import type { AppContext } from '../context.ts';
import { insertJob, type JobRow } from '../jobs/job-store.ts';
import { JobName } from '../jobs/names.ts';
import { wakeWorkers } from '../jobs/queue.ts';
import type { JobHandler } from '../jobs/registry.ts';
import { sendResetLink } from './password-reset.ts';
import { reserveForgotPassword } from './throttle.ts';

export async function queueResetLink(
  ctx: AppContext,
  email: string,
  language: Language | undefined,
  clientIp: string,
): Promise<void> {
  const queued = await reserveForgotPassword(ctx, email, clientIp, async (q) => {
    await insertJob(q, {
      name: JobName.SendResetLink,
      videoId: null,
      // The one job whose payload is not an id: the address is all the request has. It goes
      // with the job when finished jobs are pruned (housekeeping.ts).
      payload: { email, ...(language ? { language } : {}) },
      runAt: ctx.now(),
      maxAttempts: 3,
    });
  });
  if (queued) wakeWorkers(JobName.SendResetLink);
}

export const sendResetLinkHandler: JobHandler = {
  name: JobName.SendResetLink,
  run: async (ctx, job: JobRow) => {
    const language = job.payload.language ? languageOr(job.payload.language, 'en') : undefined;
    await sendResetLink(ctx, job.payload.email ?? '', language);
  },
};
