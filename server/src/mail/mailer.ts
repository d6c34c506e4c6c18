// Outgoing e-mail: written to DATA_DIR/outbox when SMTP_URL is unset, else sent over SMTP.

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text body; every message is readable without HTML. */
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export const PRODUCT_NAME = 'Video Archive';

/** The sender: no-reply at the public host, or at localhost when that host is an address. */
export function senderAddress(publicUrl: string): string {
  let host = 'localhost';
  try {
    const name = new URL(publicUrl).hostname;
    if (/[a-z]/i.test(name) && name.includes('.') && !name.startsWith('[')) host = name;
  } catch {
    // An unparsable PUBLIC_URL keeps the fallback.
  }
  return `"${PRODUCT_NAME}" <no-reply@${host}>`;
}
