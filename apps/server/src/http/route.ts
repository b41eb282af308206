import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { errors } from './errors.js';

export interface ContractRoute<R extends z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  response: R;
}

interface Inputs<Q extends z.ZodType, P extends z.ZodType> {
  query?: Q;
  params?: P;
}

export interface HandlerContext<Q, P> {
  query: Q;
  params: P;
  request: FastifyRequest;
  reply: FastifyReply;
}

function parseInput<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? `${where}.${issue.path.join('.')}` : where;
  throw errors.validation(`${field}: ${issue?.message ?? 'invalid'}`);
}

/**
 * Registers a contract route: inputs are parsed with their schemas before the handler runs, and the
 * handler's result is parsed with the contract's response schema before it is sent, which both proves
 * the server keeps the contract and strips any field the contract does not name.
 */
export function addRoute<
  R extends z.ZodType,
  Q extends z.ZodType = z.ZodType<unknown>,
  P extends z.ZodType = z.ZodType<unknown>,
>(
  app: FastifyInstance,
  route: ContractRoute<R>,
  inputs: Inputs<Q, P>,
  handler: (ctx: HandlerContext<z.output<Q>, z.output<P>>) => Promise<z.input<R>>,
): void {
  app.route({
    method: route.method,
    url: route.path,
    handler: async (request, reply) => {
      const query = inputs.query ? parseInput(inputs.query, request.query, 'query') : (request.query as z.output<Q>);
      const params = inputs.params
        ? parseInput(inputs.params, request.params, 'params')
        : (request.params as z.output<P>);
      const result = await handler({ query, params, request, reply });
      const checked = route.response.safeParse(result);
      if (!checked.success) {
        request.log.error({ issues: checked.error.issues, route: route.path }, 'response does not match the contract');
        throw errors.internal();
      }
      return checked.data;
    },
  });
}
