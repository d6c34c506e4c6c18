// Without SMTP each message becomes one RFC 5322 .eml file in DATA_DIR/outbox, named so that
// sorting the names sorts the messages by time.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Mailer, MailMessage } from './mailer.ts';

let sequence = 0;

/** "2025-01-31T12-00-00-000Z-000001-ab12cd.eml": time, a per-process counter, randomness. */
export function outboxFileName(now = Date.now()): string {
  sequence = (sequence + 1) % 1_000_000;
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  const random = crypto.randomBytes(3).toString('hex');
  return `${stamp}-${String(sequence).padStart(6, '0')}-${random}.eml`;
}

// nodemailer (about 15 MB resident) is imported by the first message, not at the server's start.
const createComposer = async () =>
  (await import('nodemailer')).default.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });

export class OutboxMailer implements Mailer {
  private composer: ReturnType<typeof createComposer> | undefined;

  constructor(
    readonly dir: string,
    private readonly from: string,
  ) {}

  async send(message: MailMessage): Promise<void> {
    this.composer ??= createComposer();
    const info = await (await this.composer).sendMail({ from: this.from, ...message });
    await fs.promises.mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, outboxFileName());
    // Written under a temporary name first so a reader never sees half a message.
    await fs.promises.writeFile(`${file}.part`, info.message, { mode: 0o600 });
    await fs.promises.rename(`${file}.part`, file);
  }

  close(): void {
    void this.composer?.then((composer) => composer.close());
  }
}
