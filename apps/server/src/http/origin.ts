import type { FastifyRequest } from 'fastify';
import { errors } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const CROSS_SITE_MESSAGE = 'Cross-site request refused';

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid';
  }
}

/**
 * Cross-site request forgery guard for cookie sessions. A state-changing request (any method but
 * GET/HEAD/OPTIONS, or a GET whose route sets `checkOrigin`) must come from the site itself:
 * - `Sec-Fetch-Site: cross-site` or `same-site` is refused;
 * - its `Origin` (or, when that is absent, the `Referer`'s origin) must be the origin of PUBLIC_URL
 *   or of the address the request was sent to (scheme + Host);
 * - with neither, it must say `Sec-Fetch-Site: same-origin` (a browser's fetch from our own pages:
 *   GETs carry no `Origin`; browsers without Sec-Fetch-Site send our `Referer`, same-origin policy) or carry no session cookie
 *   (an API client without the victim's cookie has nothing to forge). A cookie request that carries
 *   none of the three headers is refused, and so is `Sec-Fetch-Site: none` (a link opened from
 *   another application), since neither proves the request comes from our pages.
 */
export function originGuard(publicUrl: string, sessionCookie: string) {
  const publicOrigin = new URL(publicUrl).origin;
  return async (request: FastifyRequest): Promise<void> => {
    if (SAFE_METHODS.has(request.method) && !request.routeOptions.config?.checkOrigin) return;
    const fetchSite = request.headers['sec-fetch-site'];
    if (fetchSite === 'cross-site' || fetchSite === 'same-site') throw errors.forbidden(CROSS_SITE_MESSAGE);
    const origin = request.headers.origin ?? originOf(request.headers.referer);
    if (origin === undefined) {
      if (fetchSite === 'same-origin' || request.cookies?.[sessionCookie] === undefined) return;
      throw errors.forbidden(CROSS_SITE_MESSAGE);
    }
    if (origin === publicOrigin || origin === `${request.protocol}://${request.host}`) return;
    throw errors.forbidden(CROSS_SITE_MESSAGE);
  };
}
