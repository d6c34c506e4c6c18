import type { Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './mailer.ts';

/** Sends through the server of SMTP_URL (smtp://user:pass@host:port, smtps:// for TLS). */
export class SmtpMailer implements Mailer {
  // nodemailer (about 15 MB resident) is imported by the first message, not at the server's start.
  private transport: Promise<Transporter> | undefined;

  constructor(
    private readonly url: string,
    private readonly from: string,
  ) {}

  async send(message: MailMessage): Promise<void> {
    this.transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(this.url),
    );
    await (await this.transport).sendMail({ from: this.from, ...message });
  }

  close(): void {
    void this.transport?.then((transport) => transport.close());
  }
}
