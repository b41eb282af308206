import type { RouteName, RouteParams, RouteQuery, RouteResponse, UserInfo } from '@lodestone/contract';
import { API_PREFIX, paths } from '@lodestone/contract';
import { setIsLoggedIn } from '../state/hooks';
import { clearOfflineAnswers } from '../sw/register';
import { clearsOfflineAnswers } from '../sw/rules';
import { ApiError, apiErrorFrom, networkError } from './errors';
import { forgetOfflineAnswers, noteAnswer } from './offline';
import { redirectToLogin, shouldRedirectToLogin, unauthorizedAction } from './unauthorized';

/**
 * The typed client of the Lodestone API. A call is named by its entry in the contract's path table
 * (`paths`: method and path, no zod), and its path parameters, query and answer are typed from the
 * contract's route table with type-only imports, so no path or type is written here and zod stays
 * out of the bundle (packages/contract/src/paths.ts says why this, and not a generated client).
 * This module holds what every page needs (the request itself, the home page's calls, the session
 * check and logout); the other screens' calls live beside it, loaded with those screens.
 */

/** Text as a URL carries it, under the contract's own names; optional where the contract's are. */
type Texts<T> = { [P in keyof T]: Partial<Pick<T, P>> extends Pick<T, P> ? string | undefined : string };
type ParamsInput<K extends RouteName> = [RouteParams<K>] extends [never]
  ? { params?: never }
  : { params: Texts<RouteParams<K>> };
type QueryInput<K extends RouteName> = [RouteQuery<K>] extends [never]
  ? { query?: never }
  : { query: Texts<RouteQuery<K>> };

/**
 * What a call sends: its path parameters and query when it has them, a multipart form body (docs/decisions.md, Server
 * and API).
 */
export type CallInput<K extends RouteName> = ParamsInput<K> &
  QueryInput<K> & {
    form?: FormData;
    signal?: AbortSignal | undefined;
  };
/** The input argument, optional for calls that need neither parameters nor a query. */
type InputArg<K extends RouteName> =
  Partial<CallInput<K>> extends CallInput<K> ? [input?: CallInput<K>] : [input: CallInput<K>];

/** "/v1/user/referrals?account_name=miner01": the call's path with its parameters filled in. */
export function routeUrl<K extends RouteName>(name: K, ...[input]: InputArg<K>): string {
  const { params, query } = (input ?? {}) as { params?: Record<string, string>; query?: Record<string, unknown> };
  const path = paths[name].path.replace(/:(\w+)/g, (_, param: string) => {
    const value = params?.[param];
    if (value === undefined) throw new Error(`${name} needs the path parameter ${param}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (typeof value === 'string') search.set(key, value);
  const text = search.toString();
  return `${API_PREFIX}${path}${text ? `?${text}` : ''}`;
}

/** The raw answer of a call, after the 401 handling every call shares (docs/website.md, Session). */
export async function send<K extends RouteName>(name: K, ...[input]: InputArg<K>): Promise<Response> {
  const { form, signal } = input ?? {};
  const url = routeUrl(name, ...([input] as InputArg<K>));
  const { method } = paths[name];
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'include',
      headers: { Accept: 'application/json' },
      body: form ?? null,
      signal: signal ?? null,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw networkError(cause);
  }
  noteAnswer(url, response.headers);
  // Another account, or none, may use this browser from now on: what the last one saw is not kept for offline
  // (docs/dashboard.md, Installing the dashboard).
  if (clearsOfflineAnswers(method, `${API_PREFIX}${paths[name].path}`, response.status)) {
    forgetOfflineAnswers();
    await clearOfflineAnswers();
  }
  if (response.status === 401) onUnauthorized(name);
  return response;
}

/** A call's JSON answer, typed by the contract; an error answer throws an ApiError. */
export async function call<K extends RouteName>(name: K, ...args: InputArg<K>): Promise<RouteResponse<K>> {
  const response = await send(name, ...args);
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw apiErrorFrom(response.status, body);
  if (body === undefined) throw apiErrorFrom(response.status, { error: 'The server sent an unreadable answer.' });
  return body as RouteResponse<K>;
}

/**
 * docs/website.md, Session: a 401 sets the logged-out flag and, except for user info and the pre-login calls, goes to
 * /login.
 */
function onUnauthorized(name: RouteName): void {
  setIsLoggedIn(false);
  if (shouldRedirectToLogin(unauthorizedAction(name), window.location.pathname)) redirectToLogin();
}

/**
 * Form calls answer `{ result: true }`; an answer of `{ result: false, error }` with status 200 is
 * treated like an error answer, so every page has one failure path.
 */
export async function callResult<K extends RouteName>(name: K, ...args: InputArg<K>): Promise<RouteResponse<K>> {
  const body = (await call(name, ...args)) as { result?: unknown; error?: unknown };
  if (body.result === false || body.result === undefined || body.result === null) {
    const text = typeof body.error === 'string' && body.error.trim() !== '' ? body.error : null;
    throw new ApiError(200, 'result_false', text ?? 'The request was not accepted.', text !== null);
  }
  return body as RouteResponse<K>;
}

export function getPoolStats(signal?: AbortSignal) {
  return call('poolStats', { signal });
}

export function getBanner(signal?: AbortSignal) {
  return call('banner', { signal });
}

export function getSite(signal?: AbortSignal) {
  return call('site', { signal });
}

/** Every stratum port miners can use (the Getting Started page). */
export function getStratum(signal?: AbortSignal) {
  return call('poolStratum', { signal });
}

/**
 * GET /v1/user/info (docs/website.md, Session): success sets the logged-in flag, any failure clears it (401 is handled
 * in `request`, which never redirects for this call). Resolves to null when nobody is logged in
 * (the server answers `{result: false}`).
 */
export async function getUserInfo(signal?: AbortSignal): Promise<UserInfo | null> {
  try {
    const info = await call('userInfo', { signal });
    if (info.result === false) {
      setIsLoggedIn(false);
      return null;
    }
    setIsLoggedIn(true);
    return info;
  } catch (error) {
    if (signal?.aborted) throw error;
    setIsLoggedIn(false);
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/**
 * POST /v1/user/logout → `{ result }`; with `everywhere`, POST /v1/user/sessions/logout_all, which ends every session
 * of the user, this one too (docs/accounts.md, Sessions). True clears the logged-in flag (docs/website.md, Session).
 */
export async function logout(everywhere = false): Promise<boolean> {
  const { result } = await call(everywhere ? 'userSessionsLogoutAll' : 'userLogout');
  if (result === true) setIsLoggedIn(false);
  return result === true;
}

/** GET /v1/user/set_referral?code= — records the landing route a visitor came from. */
export async function setReferral(code: string): Promise<void> {
  await call('userSetReferral', { query: { code } });
}
