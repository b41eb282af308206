import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import { errors } from './errors.js';

export interface ContractRoute<R extends z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  response: R;
}

interface Inputs<Q extends z.ZodType, P extends z.ZodType, B extends z.ZodType> {
  query?: Q;
  params?: P;
  /** The body's schema: multipart form fields (strings) or a JSON object; absent body = `{}`. */
  body?: B;
  /** Run before the handler, in order (for example `auth.requireUser`). */
  preHandler?: preHandlerAsyncHookHandler[];
  /** Limit per client address (@fastify/rate-limit); the 429 carries RateLimit-* and Retry-After. */
  rateLimit?: RateLimitOptions;
  /** A GET that changes state: refused from other sites like a POST (see origin.ts). */
  checkOrigin?: boolean;
  /**
   * Send the handler's result without parsing it with the response schema first. Only for long
   * lists whose items the handler builds as object literals of the contract's type (so the type
   * checker already rules out other fields) and whose API tests parse the answer: parsing 10,000
   * workers costs about 9 ms a call. The value says why, for the reader of the route.
   */
  unparsedResponse?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Apply the cross-site check to this route even though its method is safe. */
    checkOrigin?: boolean;
  }
}

export interface HandlerContext<Q, P, B = unknown> {
  query: Q;
  params: P;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** zod's own wording for a wrong type ("Invalid input: expected string, received undefined"). */
const GENERIC_MESSAGE = /^Invalid input/;

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let node = value;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

const PLACE = { body: 'field', query: 'query parameter', params: 'path parameter' } as const;

/**
 * Every message here may be shown to a person as it is (a form shows the server's text), so it is a
 * sentence naming the field, never a schema path ("query.email: …"): the contract's own wording
 * when it has one, otherwise one that names the field and what was expected.
 */
function parseInput<T extends z.ZodType>(schema: T, value: unknown, where: keyof typeof PLACE): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw errors.validation(`The request's ${PLACE[where]}s are invalid.`);
  if (!GENERIC_MESSAGE.test(issue.message)) throw errors.validation(issue.message);
  const name = issue.path.length ? String(issue.path[issue.path.length - 1]) : undefined;
  if (name === undefined) throw errors.validation(`The request's ${PLACE[where]}s are invalid.`);
  if (valueAt(value, issue.path) === undefined) throw errors.validation(`${name} is required`);
  const expected = issue.message.replace(GENERIC_MESSAGE, '').replace(/^:\s*/, '');
  throw errors.validation(`The ${PLACE[where]} ${name} is invalid${expected ? ` (${expected})` : ''}.`);
}

/** Each request's inputs as parsed, by schema: a preHandler that needs them and the handler parse once. */
const parsedInputs = new WeakMap<FastifyRequest, Map<z.ZodType, unknown>>();

/**
 * A request's query, path parameters or body parsed with `schema` (400 naming the field, as above),
 * once per request: a preHandler that needs the inputs (auth's `accountFrom`) and the handler after
 * it share the one parse, which matters where a schema is costly (time zones are checked by Intl).
 */
export function requestInput<T extends z.ZodType>(
  request: FastifyRequest,
  schema: T,
  where: keyof typeof PLACE,
): z.output<T> {
  let parsed = parsedInputs.get(request);
  if (parsed?.has(schema)) return parsed.get(schema) as z.output<T>;
  const value = parseInput(schema, where === 'body' ? (request.body ?? {}) : request[where], where);
  if (!parsed) {
    parsed = new Map();
    parsedInputs.set(request, parsed);
  }
  parsed.set(schema, value);
  return value;
}

/**
 * Registers a contract route: inputs are parsed with their schemas before the handler runs, and the
 * handler's result is parsed with the contract's response schema before it is sent (unless the route
 * says `unparsedResponse`), which both proves the server keeps the contract and strips any field the
 * contract does not name.
 */
export function addRoute<
  R extends z.ZodType,
  Q extends z.ZodType = z.ZodType<unknown>,
  P extends z.ZodType = z.ZodType<unknown>,
  B extends z.ZodType = z.ZodType<unknown>,
>(
  app: FastifyInstance,
  route: ContractRoute<R>,
  inputs: Inputs<Q, P, B>,
  handler: (ctx: HandlerContext<z.output<Q>, z.output<P>, z.output<B>>) => Promise<z.input<R>>,
): void {
  app.route({
    method: route.method,
    url: route.path,
    ...(inputs.preHandler ? { preHandler: inputs.preHandler } : {}),
    config: {
      ...(inputs.rateLimit ? { rateLimit: inputs.rateLimit } : {}),
      ...(inputs.checkOrigin ? { checkOrigin: true } : {}),
    },
    handler: async (request, reply) => {
      const query = inputs.query ? requestInput(request, inputs.query, 'query') : (request.query as z.output<Q>);
      const params = inputs.params ? requestInput(request, inputs.params, 'params') : (request.params as z.output<P>);
      const body = inputs.body ? requestInput(request, inputs.body, 'body') : (undefined as z.output<B>);
      const result = await handler({ query, params, body, request, reply });
      if (inputs.unparsedResponse !== undefined) return result;
      const checked = route.response.safeParse(result);
      if (!checked.success) {
        request.log.error({ issues: checked.error.issues, route: route.path }, 'response does not match the contract');
        throw errors.internal();
      }
      return checked.data;
    },
  });
}
