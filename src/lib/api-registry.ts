// RTK Query loads with the first screen that needs it, not with the entry bundle. The API module
// announces itself here and every store attaches its reducer and middleware at that moment.
// The API's type reaches this module by declaration merging (src/lib/api.ts adds `api` to
// ApiRegistry), so that this module imports nothing from the API and no import cycle forms.

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by api.ts
export interface ApiRegistry {}

export type AppApi = ApiRegistry extends { api: infer A } ? A : never;

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
