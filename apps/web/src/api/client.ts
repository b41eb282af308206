import type { BannerResponse, PoolStatsResponse, SiteResponse } from '@lodestone/contract';
import { API_PREFIX } from '@lodestone/contract';
import { apiErrorFrom, networkError } from './errors';

/**
 * The typed client of the Lodestone API: one function per call, response types from
 * packages/contract. Only types (and the path prefix) come from there, so zod stays out of the bundle.
 */
async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${API_PREFIX}${path}`, {
      credentials: 'include',
      headers: { Accept: 'application/json' },
      signal: signal ?? null,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw networkError(cause);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw apiErrorFrom(response.status, body);
  if (body === undefined) throw apiErrorFrom(response.status, { error: 'The server sent an unreadable answer.' });
  return body as T;
}

export function getPoolStats(signal?: AbortSignal): Promise<PoolStatsResponse> {
  return getJson('/pool/stats', signal);
}

export function getBanner(signal?: AbortSignal): Promise<BannerResponse> {
  return getJson('/banner', signal);
}

export function getSite(signal?: AbortSignal): Promise<SiteResponse> {
  return getJson('/site', signal);
}
