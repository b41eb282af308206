import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { addRoute, type ContractRoute, type HandlerContext } from '../http/route.js';

/**
 * Registers a form anyone may send, without a session (registration, login, password recovery, VIP
 * application): limited per client address, its body checked, then the robot check answered before
 * `handler` does anything else, so no account, e-mail or row comes of a failed check.
 */
export function addRobotCheckedForm<R extends z.ZodType, B extends z.ZodType<{ captchaToken: string }, unknown>>(
  app: FastifyInstance,
  route: ContractRoute<R> & { body: B },
  rateLimit: RateLimitOptions,
  handler: (ctx: HandlerContext<unknown, unknown, z.output<B>>) => Promise<z.input<R>>,
): void {
  const { captcha } = app.services;
  addRoute(app, route, { body: route.body, rateLimit }, async (ctx) => {
    await captcha.verify(ctx.body.captchaToken);
    return handler(ctx);
  });
}
