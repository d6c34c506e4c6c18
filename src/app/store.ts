// The Redux store: the API cache, the session, and the listeners that finish session changes.
import { combineReducers, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { profilePath } from '../config/routes';
import { api } from '../lib/api';
import { navigateTo } from '../lib/navigation';
import { logout } from '../lib/session';
import { initialPasswordRequired, sessionSlice, unauthorized } from '../lib/session-slice';

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  session: sessionSlice.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

export function createStore(preloadedState?: Partial<RootState>) {
  const listener = createListenerMiddleware<RootState>();
  listener.startListening({
    actionCreator: unauthorized,
    effect: async (_action, { dispatch }) => {
      await dispatch(logout({ callServer: false }));
    },
  });
  listener.startListening({
    actionCreator: initialPasswordRequired,
    effect: () => navigateTo(profilePath('CHANGE_PASSWORD')),
  });
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof createStore>;
export type AppDispatch = AppStore['dispatch'];
