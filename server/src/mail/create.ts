import path from 'node:path';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { senderAddress, type Mailer } from './mailer.ts';
import { OutboxMailer } from './outbox.ts';
import { SmtpMailer } from './smtp.ts';

export function outboxDir(dataDir: string): string {
  return path.join(dataDir, 'outbox');
}

export function createMailer(config: Pick<Config, 'smtpUrl' | 'dataDir' | 'publicUrl'>): Mailer {
  const from = senderAddress(config.publicUrl);
  return config.smtpUrl
    ? new SmtpMailer(config.smtpUrl, from)
    : new OutboxMailer(outboxDir(config.dataDir), from);
}

// One mailer per running context, made on first use (the context itself carries none).
const mailers = new WeakMap<AppContext, Mailer>();

export function mailerFor(ctx: AppContext): Mailer {
  let mailer = mailers.get(ctx);
  if (!mailer) {
    mailer = createMailer(ctx.config);
    mailers.set(ctx, mailer);
  }
  return mailer;
}

export function closeMailer(ctx: AppContext): void {
  mailers.get(ctx)?.close();
  mailers.delete(ctx);
}
