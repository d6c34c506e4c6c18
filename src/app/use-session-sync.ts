// Keeps every open tab on the same session: a refresh in one tab rotates the token (the old
// one stops working at once), and a logout in one tab signs all of them out.
import { useEffect } from 'react';
import { USER_STORAGE_KEY } from '../config/storage-keys';
import { signedIn, signedOut } from '../lib/session-slice';
import { loadStoredUser } from '../lib/session-storage';
import { useAppDispatch } from '../lib/store-hooks';

export function useSessionSync(): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const onStorage = (event: StorageEvent): void => {
      if (event.key !== USER_STORAGE_KEY) return;
      if (event.newValue === null) {
        dispatch(signedOut());
        return;
      }
      void loadStoredUser().then((user) => {
        if (user) dispatch(signedIn(user));
      });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [dispatch]);
}
