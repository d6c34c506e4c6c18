// The one way the app speaks to the API (product-spec section 7, error shapes of section 8).
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { BaseQueryApi, BaseQueryFn } from '@reduxjs/toolkit/query';
import { REFRESH_HEADER } from '../config/offline';
import { apiUrl } from './api-url';
import { camelizeKeys } from './case-keys';
import { isOnLoginFlowPage } from './navigation';
import { encodeQuery } from './query-string';
import { initialPasswordRequired, unauthorized, type WithSession } from './session-slice';

type AppDispatch = ThunkDispatch<WithSession, unknown, UnknownAction>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequest {
  url: string;
  method?: HttpMethod;
  /** GET: sent as a bracket-nested query string; otherwise the JSON body (FormData as is). */
  body?: unknown;
  /** Set false for calls that must go without the bearer token. */
  auth?: boolean;
  responseType?: 'json' | 'text' | 'blob';
}

export interface ErrorDetailItem {
  loc?: (string | number)[];
  msg?: string;
  type?: string;
}

/** A rejection: the server's body fields plus the HTTP status; {} after a 401/403 logout. */
export interface ApiError {
  status?: number;
  detail?: string | ErrorDetailItem[] | unknown;
  [field: string]: unknown;
}

export type RequestResult = { ok: true; data: unknown } | { ok: false; error: ApiError };

/** The detail the API sends while the initial password has not been changed yet. */
export const INITIAL_PASSWORD_DETAIL =
  'You must change your initial password before you can continue.';

/** The store key of the one RTK Query API (src/lib/api.ts). */
export const API_REDUCER_PATH = 'api';

/** One HTTP call with the section 7 rules, without any effect on the session. */
export async function request(
  args: ApiRequest,
  token: string | undefined,
  signal?: AbortSignal,
  { refresh = false }: { refresh?: boolean } = {},
): Promise<RequestResult> {
  const method = args.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (refresh) headers[REFRESH_HEADER] = '1';
  let url = apiUrl(args.url);
  let body: BodyInit | undefined;
  if (method === 'GET') {
    if (args.body && typeof args.body === 'object') {
      const query = encodeQuery(args.body as Record<string, unknown>);
      if (query) url += (url.includes('?') ? '&' : '?') + query;
    }
    headers['Content-Type'] = 'application/json';
  } else if (typeof FormData !== 'undefined' && args.body instanceof FormData) {
    body = args.body; // the browser sets the multipart boundary itself
  } else {
    headers['Content-Type'] = 'application/json';
    if (args.body !== undefined) body = JSON.stringify(args.body);
  }
  if (token) headers.Authorization = `Bearer ${token}`;
  // The interface language (kept on <html lang>): the server writes mails in it.
  const language = typeof document === 'undefined' ? '' : document.documentElement.lang;
  if (language) headers['Accept-Language'] = language;

  let response: Response;
  try {
    response = await fetch(url, { method, headers, body, signal });
  } catch (cause) {
    return { ok: false, error: { status: 0, detail: (cause as Error).message } };
  }

  if (response.status === 200 || response.status === 201) {
    if (args.responseType === 'blob') return { ok: true, data: await response.blob() };
    const text = await response.text();
    if (args.responseType === 'text') return { ok: true, data: text };
    return { ok: true, data: camelizeKeys(parseJson(text)) };
  }
  const parsed = parseJson(await response.text().catch(() => ''));
  const fields =
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : parsed === null
        ? {}
        : { detail: parsed };
  return { ok: false, error: { ...fields, status: response.status } };
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The detail of the one 403 that refuses an action to a signed-in user who is not a team
 * administrator (issue 30's team setting): the session is fine, so it is shown, not logged out
 * (docs/decisions/admin-only-403.md).
 */
export const ADMIN_ONLY_DETAIL = 'Only a team administrator can change this.';

function isInitialPasswordError(error: ApiError): boolean {
  return error.status === 403 && error.detail === INITIAL_PASSWORD_DETAIL;
}

/**
 * The section 8 rule for a failed call: 401/403 logs out and redirects (except on the sign-in
 * pages) and rejects with {}; any other failure rejects with the body fields and the status.
 */
export function settleFailure(
  error: ApiError,
  dispatch: (action: UnknownAction) => unknown,
): ApiError {
  if (error.status !== 401 && error.status !== 403) return error;
  if (error.status === 403 && error.detail === ADMIN_ONLY_DETAIL) return error;
  // Decided in docs/decisions/forced-password-change.md: this one 403 leads to Change password, not to Login.
  if (isInitialPasswordError(error)) {
    dispatch(initialPasswordRequired());
    return error;
  }
  if (isOnLoginFlowPage()) return error;
  dispatch(unauthorized());
  return {};
}

/** A query whose answer is already in the store (on screen): this call refreshes it. */
function refreshesShownAnswer(api: BaseQueryApi): boolean {
  if (api.type !== 'query' || api.queryCacheKey === undefined) return false;
  const state = api.getState() as {
    [API_REDUCER_PATH]?: { queries?: Record<string, { data?: unknown } | undefined> };
  };
  return state[API_REDUCER_PATH]?.queries?.[api.queryCacheKey]?.data !== undefined;
}

export const baseQuery: BaseQueryFn<ApiRequest | string, unknown, ApiError> = async (
  rawArgs,
  api,
) => {
  const args = typeof rawArgs === 'string' ? { url: rawArgs } : rawArgs;
  const state = api.getState() as WithSession;
  const token = args.auth === false ? undefined : state.session.currentUser?.accessToken;
  const options = { refresh: refreshesShownAnswer(api) };
  let result = await request(args, token, api.signal, options);
  if (!result.ok && result.error.status === 401 && token) {
    // The token may have been rotated by another tab or the service worker a moment ago, or have
    // passed its hour: renew it (once across contexts) and try once more. Only a refusal of the
    // newest token signs out; a refresh that could not reach the server leaves the session alone.
    // Loaded when first needed: the signed-out first screens carry no renewal (issue 29, 100 KB).
    const { renewSession } = await import('./session-renew');
    const renewed = await (api.dispatch as AppDispatch)(renewSession(token));
    if (renewed === 'unavailable') return { error: result.error };
    const fresh = (api.getState() as WithSession).session.currentUser?.accessToken;
    if (renewed === 'renewed' && fresh) result = await request(args, fresh, api.signal, options);
  }
  return result.ok ? { data: result.data } : { error: settleFailure(result.error, api.dispatch) };
};
