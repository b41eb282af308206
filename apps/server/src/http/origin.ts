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
 * GET/HEAD/OPTIONS, or a GET whose route sets `checkOrigin`) must come from the site itself: its
 * `Origin` (or, when a browser leaves that out, the `Referer`'s origin) must be the origin of
 * PUBLIC_URL or of the address the request was sent to (scheme + Host). `Sec-Fetch-Site:
 * cross-site` is refused too. A request with neither header is allowed only when it carries no
 * session cookie: browsers always send `Origin` on cross-site POSTs, and a client without the
 * victim's cookie has nothing to forge.
 */
export function originGuard(publicUrl: string, sessionCookie: string) {
  const publicOrigin = new URL(publicUrl).origin;
  return async (request: FastifyRequest): Promise<void> => {
    const safe = SAFE_METHODS.has(request.method);
    if (safe && !request.routeOptions.config?.checkOrigin) return;
    const fetchSite = request.headers['sec-fetch-site'];
    if (fetchSite === 'cross-site' || fetchSite === 'same-site') throw errors.forbidden(CROSS_SITE_MESSAGE);
    const origin = request.headers.origin ?? (safe ? undefined : originOf(request.headers.referer));
    if (origin === undefined) {
      if (safe || request.cookies?.[sessionCookie] === undefined) return;
      throw errors.forbidden(CROSS_SITE_MESSAGE);
    }
    if (origin === publicOrigin || origin === `${request.protocol}://${request.host}`) return;
    throw errors.forbidden(CROSS_SITE_MESSAGE);
  };
}
