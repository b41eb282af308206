import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { unsubscribe } from '../services/notifications/unsubscribe.js';
import { AppError, errors } from './errors.js';
import { registerForms } from './forms.js';
import { RATE_LIMITS } from './rateLimits.js';

/**
 * One-click unsubscribe (RFC 8058; docs/notifications.md, "Unsubscribing"): a mail provider that
 * shows its own "unsubscribe" button POSTs `List-Unsubscribe=One-Click` to the link of the message's
 * List-Unsubscribe header — the same `{PUBLIC_URL}/unsubscribe?token=…` a person opens as a page.
 * The request comes from the provider's servers, with no cookie and from no page of ours, so it lives
 * outside /v1 and its cross-site guard: the signed token is the whole authority, as for the page's
 * button, and all it can do is turn one notification off. The body is form-encoded (RFC 8058 §3.1:
 * urlencoded or multipart).
 */

const ONE_CLICK = 'One-Click';
/** Bytes of a one-click body: one short field (urlencoded or multipart). */
const FORM_BODY_LIMIT = 4096;
export const ONE_CLICK_MESSAGES = {
  missingBody: 'Expected the form field List-Unsubscribe=One-Click (RFC 8058).',
  missingToken: 'This unsubscribe link is not valid.',
} as const;

export async function oneClickUnsubscribeRoutes(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', context.statusCode, `Too many requests. Try again in ${context.after}.`),
  });
  // Form-encoded only (RFC 8058 §3.1): no JSON or text parser is inherited from the root app.
  app.removeAllContentTypeParsers();
  await registerForms(app, { fieldNameSize: 100, fieldSize: 1024, fields: 5, files: 0, parts: 5 }, FORM_BODY_LIMIT);
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.post<{ Querystring: { token?: unknown }; Body: Record<string, unknown> | undefined }>(
    '/unsubscribe',
    { config: { rateLimit: RATE_LIMITS.unsubscribe } },
    async (request, reply) => {
      if (request.body?.['List-Unsubscribe'] !== ONE_CLICK) throw errors.badRequest(ONE_CLICK_MESSAGES.missingBody);
      const token = request.query.token;
      if (typeof token !== 'string' || token === '' || token.length > 200)
        throw errors.refused('UNSUBSCRIBE_TOKEN_INVALID', ONE_CLICK_MESSAGES.missingToken);
      const { services } = app;
      const { topic } = await unsubscribe(services.database.db, token, services.now());
      reply.header('cache-control', 'no-store');
      return { result: true as const, topic };
    },
  );
}
