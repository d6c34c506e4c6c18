// RTK Query loads with the first screen that needs it, not with the entry bundle. The API module
// announces itself here and every store attaches its reducer and middleware at that moment.
import type { api } from './api';

export type AppApi = typeof api;

let loaded: AppApi | null = null;
const listeners = new Set<(api: AppApi) => void>();

export function registerApi(instance: AppApi): void {
  loaded = instance;
  for (const listener of listeners) listener(instance);
}

/** Calls back now if the API is loaded, otherwise as soon as it is. */
export function whenApiLoaded(listener: (api: AppApi) => void): () => void {
  listeners.add(listener);
  if (loaded) listener(loaded);
  return () => listeners.delete(listener);
}

export function loadedApi(): AppApi | null {
  return loaded;
}
