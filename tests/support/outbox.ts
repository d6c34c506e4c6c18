// Reads the e-mails the server wrote to DATA_DIR/outbox (SMTP_URL unset): newest message, its
// decoded text, the link or code inside. Used by integration and end-to-end tests.
import fs from 'node:fs';
import path from 'node:path';

export interface OutboxMessage {
  file: string;
  headers: Record<string, string>;
  to: string;
  subject: string;
  /** The decoded plain-text body. */
  text: string;
}

export function outboxFiles(dataDir: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => path.join(dir, f));
}

/** Decodes RFC 2047 encoded words such as =?UTF-8?B?...?= in a header value. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
      (_m, _charset: string, enc: string, data: string) =>
        enc.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64').toString('utf8')
          : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(data: string): string {
  const soft = data.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const ch = soft[i]!;
    const hex = soft.slice(i + 1, i + 3);
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Parses a single-part text message (what the server sends). */
export function parseMessage(raw: string, file = ''): OutboxMessage {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body)
        : body;
  return {
    file,
    headers,
    to: decodeWords(headers.to ?? ''),
    subject: decodeWords(headers.subject ?? ''),
    text: text.replace(/\r\n/g, '\n'),
  };
}

export function readMessage(file: string): OutboxMessage {
  return parseMessage(fs.readFileSync(file, 'utf8'), file);
}

/** The newest message, optionally the newest one to a given address. */
export function newestMessage(dataDir: string, to?: string): OutboxMessage | undefined {
  const files = outboxFiles(dataDir).reverse();
  for (const file of files) {
    const message = readMessage(file);
    if (!to || message.to.toLowerCase().includes(to.toLowerCase())) return message;
  }
  return undefined;
}

/**
 * Waits until the outbox holds more than `after` messages (to `to`, when given) and answers
 * the newest. Mails such as the reset link are written after the answer has left.
 */
export async function waitForMessage(
  dataDir: string,
  opts: { to?: string; after?: number; timeoutMs?: number } = {},
): Promise<OutboxMessage> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  for (;;) {
    const all = outboxFiles(dataDir).map(readMessage);
    const matching = opts.to
      ? all.filter((m) => m.to.toLowerCase().includes(opts.to!.toLowerCase()))
      : all;
    if (matching.length > (opts.after ?? 0)) return matching[matching.length - 1]!;
    if (Date.now() > deadline) {
      throw new Error(`no new message${opts.to ? ` to ${opts.to}` : ''} in ${dataDir}/outbox`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Number of messages (to an address, when given) now in the outbox. */
export function countMessages(dataDir: string, to?: string): number {
  const all = outboxFiles(dataDir).map(readMessage);
  return to ? all.filter((m) => m.to.toLowerCase().includes(to.toLowerCase())).length : all.length;
}

/** The first http(s) link in a text, optionally the first containing `contains`. */
export function extractLink(text: string, contains = ''): string {
  const links = text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
  const link = links.find((l) => l.includes(contains));
  if (!link) throw new Error(`no link${contains ? ` with ${contains}` : ''} in message`);
  return link;
}

/** The reset token of a reset-password link in a text. */
export function extractResetToken(text: string): string {
  const url = new URL(extractLink(text, '/reset-password'));
  const token = url.searchParams.get('resetToken');
  if (!token) throw new Error('reset link without resetToken');
  return token;
}

/** The first standalone group of `digits` digits (the e-mail change code). */
export function extractCode(text: string, digits = 6): string {
  const match = new RegExp(`(?<!\\d)\\d{${digits}}(?!\\d)`).exec(text);
  if (!match) throw new Error(`no ${digits}-digit code in message`);
  return match[0];
}
