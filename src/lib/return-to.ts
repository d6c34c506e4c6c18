// Where a signed-out visitor was going, so Login can send them back there afterwards.
import { RETURN_TO_STORAGE_KEY } from '../config/storage-keys';

export function rememberReturnTo(target: string): void {
  sessionStorage.setItem(RETURN_TO_STORAGE_KEY, target);
}

/** Reads and forgets the remembered target; only same-site paths are honoured. */
export function takeReturnTo(): string | null {
  const target = sessionStorage.getItem(RETURN_TO_STORAGE_KEY);
  sessionStorage.removeItem(RETURN_TO_STORAGE_KEY);
  return target && target.startsWith('/') && !target.startsWith('//') ? target : null;
}
