import type {
  BannerResponse,
  PoolStatsResponse,
  SiteResponse,
  StratumResponse,
  UserInfo,
  UserInfoResponse,
} from '@lodestone/contract';
import { API_PREFIX } from '@lodestone/contract';
import { setIsLoggedIn } from '../state/hooks';
import { ApiError, apiErrorFrom, networkError } from './errors';
import { redirectToLogin, shouldRedirectToLogin, unauthorizedAction } from './unauthorized';

/**
 * The typed client of the Lodestone API: one function per call, response types from
 * packages/contract. Only types (and the path prefix) come from there, so zod stays out of the bundle.
 * This module holds what every page needs (the request itself, the home page's calls, the session
 * check and logout); the account screens' calls live in `account.ts`, loaded with those screens.
 */
export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | undefined>;
  /** Multipart form body (spec 7: form bodies are multipart). */
  form?: FormData;
  signal?: AbortSignal | undefined;
}

/** "/v1/user/referrals?account_name=miner01" */
export function apiUrl(path: string, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
  const search = params.toString();
  return `${API_PREFIX}${path}${search ? `?${search}` : ''}`;
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', query, form, signal } = options;
  let response: Response;
  try {
    response = await fetch(apiUrl(path, query), {
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
  const body: unknown = await response.json().catch(() => undefined);
  if (response.status === 401) onUnauthorized(path);
  if (!response.ok) throw apiErrorFrom(response.status, body);
  if (body === undefined) throw apiErrorFrom(response.status, { error: 'The server sent an unreadable answer.' });
  return body as T;
}

/** Spec 8: a 401 sets the logged-out flag and, except for user info and the pre-login calls, goes to /login. */
function onUnauthorized(path: string): void {
  setIsLoggedIn(false);
  if (shouldRedirectToLogin(unauthorizedAction(path), window.location.pathname)) redirectToLogin();
}

/**
 * Form calls answer `{ result: true }`; an answer of `{ result: false, error }` with status 200 is
 * treated like an error answer, so every page has one failure path.
 */
export async function requestResult<T extends { result: unknown }>(path: string, options: RequestOptions): Promise<T> {
  const body = await request<T & { error?: unknown }>(path, options);
  if (body.result === false || body.result === undefined || body.result === null) {
    const text = typeof body.error === 'string' && body.error.trim() !== '' ? body.error : null;
    throw new ApiError(200, 'result_false', text ?? 'The request was not accepted.', text !== null);
  }
  return body;
}

export function getPoolStats(signal?: AbortSignal): Promise<PoolStatsResponse> {
  return request('/pool/stats', { signal });
}

export function getBanner(signal?: AbortSignal): Promise<BannerResponse> {
  return request('/banner', { signal });
}

export function getSite(signal?: AbortSignal): Promise<SiteResponse> {
  return request('/site', { signal });
}

/** GET /v1/pool/stratum: every stratum port miners can use (the Getting Started page). */
export function getStratum(signal?: AbortSignal): Promise<StratumResponse> {
  return request('/pool/stratum', { signal });
}

/**
 * GET /v1/user/info. Spec 4: success sets the logged-in flag, any failure clears it (401 is handled
 * in `request`, which never redirects for this call). Resolves to null when nobody is logged in
 * (the server answers `{result: false}`).
 */
export async function getUserInfo(signal?: AbortSignal): Promise<UserInfo | null> {
  try {
    const info = await request<UserInfoResponse>('/user/info', { signal });
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

/** POST /v1/user/logout → `{ result }`. True clears the logged-in flag (spec 4). */
export async function logout(): Promise<boolean> {
  const { result } = await request<{ result: boolean }>('/user/logout', { method: 'POST' });
  if (result === true) setIsLoggedIn(false);
  return result === true;
}

/** GET /v1/user/set_referral?code= — records the landing route a visitor came from. */
export async function setReferral(code: string): Promise<void> {
  await request('/user/set_referral', { query: { code } });
}
