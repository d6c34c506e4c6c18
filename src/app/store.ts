// The Redux store: the session from the start, the API cache once RTK Query has loaded, and the
// listeners that finish session changes.
import {
  combineSlices,
  configureStore,
  createDynamicMiddleware,
  createListenerMiddleware,
} from '@reduxjs/toolkit';
import { profilePath } from '../config/routes';
import type { AppApi } from '../lib/api-registry';
import { whenApiLoaded } from '../lib/api-registry';
import { navigateTo } from '../lib/navigation';
import { logout } from '../lib/session';
import {
  initialPasswordRequired,
  sessionSlice,
  unauthorized,
  type SessionState,
} from '../lib/session-slice';

type ApiState = ReturnType<AppApi['reducer']>;

export interface RootState {
  session: SessionState;
  api?: ApiState;
}

export function createStore(preloadedState?: { session?: SessionState }) {
  const rootReducer = combineSlices(sessionSlice).withLazyLoadedSlices<{ api: ApiState }>();
  const dynamic = createDynamicMiddleware();
  const listener = createListenerMiddleware<RootState>();
  listener.startListening({
    actionCreator: unauthorized,
    effect: async (_action, { dispatch, delay }) => {
      // Let the refused call settle with its {} rejection before the cache reset aborts it.
      await delay(0);
      await dispatch(logout({ callServer: false }));
    },
  });
  listener.startListening({
    actionCreator: initialPasswordRequired,
    effect: () => navigateTo(profilePath('CHANGE_PASSWORD')),
  });
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) =>
      getDefault().prepend(listener.middleware).concat(dynamic.middleware),
    // RTK Query's batched notifications go out at the end of the task that dispatched them, not
    // in the next animation frame, where they rendered together with the paint in one long task.
    enhancers: (getDefault) => getDefault({ autoBatch: { type: 'tick' } }),
  });
  whenApiLoaded((api) => {
    rootReducer.inject({ reducerPath: api.reducerPath, reducer: api.reducer });
    dynamic.addMiddleware(api.middleware);
    store.dispatch({ type: 'api/attached' }); // gives the injected slice its initial state
  });
  return store;
}

export type AppStore = ReturnType<typeof createStore>;
export type AppDispatch = AppStore['dispatch'];
