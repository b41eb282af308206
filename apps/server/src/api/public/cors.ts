import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * CORS for the public API: any site may read it from a browser (`Access-Control-Allow-Origin: *`).
 * Credentials are never allowed, so a browser sends no cookies along (and the routes read none):
 * the answers depend only on the request itself. Rate-limit headers are exposed to scripts.
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id',
  // Helmet's default (same-origin) would keep other sites' pages from embedding the answers.
  'cross-origin-resource-policy': 'cross-origin',
} as const;

/** A preflight may be cached this long (seconds). */
export const PREFLIGHT_MAX_AGE_S = 86_400;

/** Adds the CORS headers to every answer of the scope, refusals and 429s included. */
export function openCors(scope: FastifyInstance): void {
  scope.addHook('onSend', async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(CORS_HEADERS);
  });
}

/** Answers the browser's preflight (OPTIONS) for `url`: GET only, the usual request headers. */
export function preflight(scope: FastifyInstance, url: string): void {
  scope.options(url, async (_request, reply) => {
    reply
      .code(204)
      .headers({
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-allow-headers': 'Accept, Content-Type',
        'access-control-max-age': String(PREFLIGHT_MAX_AGE_S),
      })
      .send();
  });
}
