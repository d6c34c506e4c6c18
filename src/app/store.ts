// The Redux store: the session from the start, the API cache once RTK Query has loaded, and the
// effects that finish session changes. Built with plain Redux (and redux-thunk), not Redux
// Toolkit: the store is in the entry of the first screens, and RTK with immer would be there too
// (issue 29, 100 KB of first-screen JavaScript). RTK arrives with the API (src/lib/api.ts), whose
// reducer and middleware attach themselves here when it loads.
import {
  applyMiddleware,
  compose,
  legacy_createStore,
  type Middleware,
  type StoreEnhancer,
  type UnknownAction,
} from 'redux';
import { thunk, type ThunkDispatch } from 'redux-thunk';
import { profilePath } from '../config/routes';
import type { AppApi } from '../lib/api-registry';
import { whenApiLoaded } from '../lib/api-registry';
import { navigateTo } from '../lib/navigation';
import { logout } from '../lib/session';
import {
  initialPasswordRequired,
  sessionReducer,
  unauthorized,
  type SessionState,
} from '../lib/session-slice';

type ApiState = ReturnType<AppApi['reducer']>;

export interface RootState {
  session: SessionState;
  api?: ApiState;
}

type Dispatch = ThunkDispatch<RootState, unknown, UnknownAction>;

/** What follows a session action: the logout after a refused token, the password change. */
const sessionEffects: Middleware<object, RootState, Dispatch> = (store) => (next) => (action) => {
  const result = next(action);
  if (unauthorized.match(action)) {
    // Let the refused call settle with its {} rejection before the cache reset aborts it.
    setTimeout(() => void store.dispatch(logout({ callServer: false })), 0);
  } else if (initialPasswordRequired.match(action)) {
    navigateTo(profilePath('CHANGE_PASSWORD'));
  }
  return result;
};

/**
 * RTK Query's batched notifications go out at the end of the task that dispatched them (a
 * microtask), not after each of its actions: what RTK's `autoBatchEnhancer({ type: 'tick' })`
 * does, for the actions RTK Query marks with `meta.RTK_autoBatch`.
 */
const tickBatch: StoreEnhancer = (next) => (reducer, preloaded) => {
  const store = next(reducer, preloaded);
  let notifying = true;
  let pending = false;
  let queued = false;
  const listeners = new Set<() => void>();
  const notifyAll = (): void => {
    queued = false;
    if (!pending) return;
    pending = false;
    listeners.forEach((listener) => listener());
  };
  return {
    ...store,
    subscribe(listener: () => void) {
      const unsubscribe = store.subscribe(() => {
        if (notifying) listener();
      });
      listeners.add(listener);
      return () => {
        unsubscribe();
        listeners.delete(listener);
      };
    },
    dispatch(action) {
      try {
        const meta = (action as { meta?: Record<string, unknown> }).meta;
        notifying = !meta?.RTK_autoBatch;
        pending = !notifying;
        if (pending && !queued) {
          queued = true;
          queueMicrotask(notifyAll);
        }
        return store.dispatch(action);
      } finally {
        notifying = true;
      }
    },
  };
};

export function createStore(preloadedState?: { session?: SessionState }) {
  let api: AppApi | null = null;
  const rootReducer = (state: RootState | undefined, action: UnknownAction): RootState => {
    const session = sessionReducer(state?.session, action);
    const cache = api ? api.reducer(state?.api, action) : state?.api;
    if (state && session === state.session && cache === state.api) return state;
    return cache === undefined ? { session } : { session, api: cache };
  };
  // RTK Query's middleware, once it has loaded; until then actions pass by.
  let apiHandler: ((action: unknown) => unknown) | null = null;
  let attachApi: (loaded: AppApi) => void = () => undefined;
  const apiMiddleware: Middleware<object, RootState, Dispatch> = (middlewareApi) => (next) => {
    attachApi = (loaded) => {
      // Its state is there from now on (the reducer is attached first), as its type assumes.
      type ApiMiddlewareApi = Parameters<AppApi['middleware']>[0];
      apiHandler = loaded.middleware(middlewareApi as ApiMiddlewareApi)(next);
    };
    return (action) => (apiHandler ?? next)(action);
  };
  const store = legacy_createStore(
    rootReducer,
    preloadedState as RootState | undefined,
    compose(applyMiddleware(sessionEffects, thunk, apiMiddleware), tickBatch) as StoreEnhancer<{
      dispatch: Dispatch;
    }>,
  );
  whenApiLoaded((loaded) => {
    api = loaded;
    attachApi(loaded);
    store.dispatch({ type: 'api/attached' }); // gives the API's state its initial value
  });
  return store;
}

export type AppStore = ReturnType<typeof createStore>;
export type AppDispatch = AppStore['dispatch'];
