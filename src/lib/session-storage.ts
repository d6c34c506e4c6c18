// The stored user, encrypted in localStorage with AES-GCM and a key embedded in the bundle.
// This hides the token from casual inspection only; see
// docs/decisions/stored-session-encryption.md for why that is enough.
// The token in it is a copy derived from the session database (session-db.ts), which holds the
// one that counts for every context: only the page's session module (session.ts,
// session-renew.ts) writes this copy, after the database has the token, and a restore takes the
// database's token (docs/decisions/session-token-one-store.md). The copy exists because the first
// render and the other tabs (storage events) need it before IndexedDB can answer.
import { USER_STORAGE_KEY } from '../config/storage-keys';
import type { SessionUser } from './session-slice';

// 256-bit key, fixed on purpose: anyone with the bundle can read it (obfuscation, not secrecy).
const EMBEDDED_KEY_HEX = '6b1f0c3ad29e4f7758a1c06e93b2d45f8e17a9c3502bd6e4f19a7c28d03e5b61';
const IV_BYTES = 12;

let keyPromise: Promise<CryptoKey> | null = null;

function embeddedKey(): Promise<CryptoKey> {
  keyPromise ??= crypto.subtle.importKey('raw', hexToBytes(EMBEDDED_KEY_HEX), 'AES-GCM', false, [
    'encrypt',
    'decrypt',
  ]);
  return keyPromise;
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export async function encryptText(plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const cipher = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv },
    await embeddedKey(),
    new TextEncoder().encode(plain),
  );
  const out = new Uint8Array(IV_BYTES + cipher.byteLength);
  out.set(iv);
  out.set(new Uint8Array(cipher), IV_BYTES);
  return toBase64(out);
}

export async function decryptText(stored: string): Promise<string> {
  const bytes = fromBase64(stored);
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES) },
    await embeddedKey(),
    bytes.slice(IV_BYTES),
  );
  return new TextDecoder().decode(plain);
}

export async function saveStoredUser(user: SessionUser): Promise<void> {
  localStorage.setItem(USER_STORAGE_KEY, await encryptText(JSON.stringify(user)));
}

/** The stored user, or null when missing, tampered with or unreadable. */
export async function loadStoredUser(): Promise<SessionUser | null> {
  const stored = localStorage.getItem(USER_STORAGE_KEY);
  if (!stored) return null;
  try {
    const parsed = JSON.parse(await decryptText(stored)) as unknown;
    return isSessionUser(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Whether a stored user exists, without reading it (synchronous, for the first render). */
export function hasStoredUser(): boolean {
  try {
    return localStorage.getItem(USER_STORAGE_KEY) !== null;
  } catch {
    return false; // storage may be blocked: nothing to restore then
  }
}

export function clearStoredUser(): void {
  localStorage.removeItem(USER_STORAGE_KEY);
}

export function isSessionUser(value: unknown): value is SessionUser {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as Partial<SessionUser>;
  return (
    typeof candidate.accessToken === 'string' &&
    candidate.accessToken !== '' &&
    typeof candidate.user === 'object' &&
    candidate.user !== null
  );
}
