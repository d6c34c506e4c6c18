// The successor of a rotated refresh token, kept so that callers racing the rotation get the very
// same successor: AES-256-GCM under a key derived from the old token itself. Only a holder of the
// old token can open it (the database keeps just the token's SHA-256, a different derivation), so
// a copy of the database reveals no live token and no server-wide secret has to be shared
// between processes or rotated. See docs/decisions/sessions-under-concurrency.md.
import crypto from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

function keyOf(oldToken: string): Buffer {
  return crypto.createHmac('sha256', oldToken).update('refresh-successor').digest();
}

export function sealSuccessor(oldToken: string, successor: string): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(oldToken), iv);
  const body = Buffer.concat([cipher.update(successor, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The sealed successor, or undefined when `oldToken` is not the token it was sealed under. */
export function openSuccessor(oldToken: string, sealed: string): string | undefined {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
  const decipher = crypto.createDecipheriv(
    'aes-256-gcm',
    keyOf(oldToken),
    bytes.subarray(0, IV_BYTES),
  );
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  try {
    const plain = Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return plain.toString('utf8');
  } catch {
    return undefined;
  }
}
