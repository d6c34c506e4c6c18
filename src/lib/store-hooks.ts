// Typed store hooks for features (which may not import the app layer).
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import type { api } from './api';
import type { WithSession } from './session-slice';

/** The API slice is attached when RTK Query first loads, hence optional. */
export type LibState = WithSession & { [api.reducerPath]?: ReturnType<typeof api.reducer> };
export type LibDispatch = ThunkDispatch<LibState, unknown, UnknownAction>;

export const useAppDispatch = useDispatch.withTypes<LibDispatch>();
export const useAppSelector = useSelector.withTypes<LibState>();

/**
 * True while a first load or a mutation is in flight (drives the full-screen loading
 * indicator). A query that already shows data refreshes in the background (polling, refresh
 * after a change) so the screen is not covered every few seconds.
 */
export function selectAnyRequestPending(state: LibState): boolean {
  if (!state.api) return false;
  const { queries, mutations } = state.api;
  return (
    Object.values(queries).some(
      (entry) => entry?.status === 'pending' && entry.data === undefined,
    ) || Object.values(mutations).some((entry) => entry?.status === 'pending')
  );
}
