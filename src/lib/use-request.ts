// A one-shot call through the section 7 rules without RTK Query, for the sign-in pages: they are
// the first screen and must stay small (RTK Query loads with the signed-in area).
import { useCallback, useState } from 'react';
import { request, settleFailure, type ApiRequest } from './base-query';
import { useAppDispatch, useAppSelector } from './store-hooks';

/** Returns a caller that resolves with the camelCased answer or rejects with an ApiError. */
export function useRequest<A>(build: (args: A) => ApiRequest) {
  const dispatch = useAppDispatch();
  const token = useAppSelector((state) => state.session.currentUser?.accessToken);
  const [isLoading, setLoading] = useState(false);

  const call = useCallback(
    async (args: A): Promise<unknown> => {
      const req = build(args);
      setLoading(true);
      try {
        const result = await request(req, req.auth === false ? undefined : token);
        if (result.ok) return result.data;
        throw settleFailure(result.error, dispatch);
      } finally {
        setLoading(false);
      }
    },
    [build, dispatch, token],
  );
  return [call, { isLoading }] as const;
}
