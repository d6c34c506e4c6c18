import { useSyncExternalStore } from 'react';
import { getPwaState, subscribePwaState, type PwaState } from './pwa-state';

export function usePwaState(): PwaState {
  return useSyncExternalStore(subscribePwaState, getPwaState, getPwaState);
}
