import { API_PREFIX, errorResponse, type Refusal, routes } from '@lodestone/contract';
import { z } from 'zod';

/**
 * The OpenAPI 3.1 document of the API (GET /v1/openapi.json), generated from packages/contract's
 * route table and zod schemas, so it cannot drift from what the server checks: every route with its
 * path and query parameters, its request body (multipart form or JSON) and its answer, each schema
 * being `z.toJSONSchema` of the contract's (input side for requests, output side for answers), and
 * one example per request and answer: the contract's own (`.meta({ examples })`) or one generated
 * from the schema — kept only if the contract's schema accepts it. The API docs pages render these.
 */

export type JsonSchema = Record<string, unknown>;

interface RouteEntry {
  method: 'GET' | 'POST';
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  refusals?: readonly Refusal[];
}

/** What answers the routes without a JSON answer send. */
const FILE_ANSWERS: Record<string, { type: string; description: string }> = {
  twoFactorQr: { type: 'image/png', description: 'The QR code of the pending 2FA secret' },
  userRevenueEarningsDownload: {
    type: 'application/pdf',
    description: 'The monthly statement, earnings_{YYYY-MM}.pdf',
  },
  userRevenueEarningsCsv: { type: 'text/csv', description: 'Daily earnings, earnings.csv' },
  userRevenuePayoutsCsv: { type: 'text/csv', description: "The account's payouts, payments.csv" },
};

/** `z.toJSONSchema` of a contract schema, as it is embedded in the document (no `$schema` key). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const SAMPLE_STRINGS: [RegExp, string][] = [
  [/^\^\\d\+\$$/, '150000000'],
  [/^\^\\d\+\(\\\.\\d\+\)\?\$$/, '0.0015'],
  [/^\^\[0-9a-f\]\{64\}\$$/, '5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef'],
  [/^\^\\d\{4\}-\\d\{2\}-\\d\{2\}\$$/, '2025-06-15'],
];

function sampleString(s: JsonSchema): string {
  if (s.format === 'email') return 'miner@example.com';
  if (s.format === 'date-time') return '2025-06-15T12:00:00.000Z';
  if (typeof s.pattern === 'string') {
    const known = SAMPLE_STRINGS.find(([p]) => p.test(s.pattern as string));
    if (known) return known[1];
  }
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  return 'string'.padEnd(min, 'x');
}

/** A value of a JSON schema, for an example (best effort: the caller checks it with the contract). */
export function sampleOf(s: JsonSchema, depth = 0): unknown {
  if (depth > 12) return null;
  const examples = s.examples;
  if (Array.isArray(examples) && examples.length > 0) return examples[0];
  if ('const' in s) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0) return sampleOf(options[0] as JsonSchema, depth + 1);
  }
  const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string | undefined];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
      for (const [name, property] of Object.entries(properties)) out[name] = sampleOf(property, depth + 1);
      const extra = s.additionalProperties;
      if (Object.keys(properties).length === 0 && extra && typeof extra === 'object') {
        out.BTC = sampleOf(extra as JsonSchema, depth + 1);
      }
      return out;
    }
    case 'array': {
      if (Array.isArray(s.prefixItems)) return (s.prefixItems as JsonSchema[]).map((p) => sampleOf(p, depth + 1));
      return s.items && typeof s.items === 'object' ? [sampleOf(s.items as JsonSchema, depth + 1)] : [];
    }
    case 'string':
      return sampleString(s);
    case 'integer':
    case 'number': {
      // A small positive figure, within the bounds (zod writes its safe-integer bounds on every int).
      let value = type === 'integer' ? 1 : 1.5;
      if (typeof s.minimum === 'number') value = Math.max(value, s.minimum);
      if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) value = s.exclusiveMinimum + 1;
      if (typeof s.maximum === 'number') value = Math.min(value, s.maximum);
      return value;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

/** The contract's example (`.meta({ examples })`) or a generated one, if the contract's schema accepts it. */
function exampleFor(schema: z.ZodType, json: JsonSchema): unknown {
  const own = schema.meta()?.examples;
  const sample = Array.isArray(own) && own.length > 0 ? own[0] : sampleOf(json);
  return sample !== undefined && schema.safeParse(sample).success ? sample : undefined;
}

function withExample<T extends Record<string, unknown>>(media: T, example: unknown): T & { example?: unknown } {
  return example === undefined ? media : { ...media, example };
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const json = jsonSchemaOf(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    const field = shape[name];
    const example = field ? exampleFor(field, property) : undefined;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
      ...(example !== undefined && (where === 'path' || required.has(name)) ? { example } : {}),
    };
  });
}

function tagOf(path: string): string {
  if (path.startsWith('/api/')) return 'Public API';
  if (path.startsWith('/pool/') || path.startsWith('/signatures/') || path === '/email/hashrate') return 'Pool';
  if (path.startsWith('/observer/')) return 'Observer';
  if (path.startsWith('/user/revenue') || path.startsWith('/user/mining')) return 'Dashboard';
  if (path === '/user/overview') return 'Dashboard';
  if (path.startsWith('/user/conversion') || path.startsWith('/user/payment') || path === '/user/convert')
    return 'Money';
  if (path === '/coins') return 'Money';
  if (/^\/(user|password|captcha|2fa)\b/.test(path)) return 'Account';
  return 'Site';
}

const TAGS = [
  {
    name: 'Public API',
    description: 'Open to any site (CORS `*`), rate-limited per address; `api/user` also per API key.',
  },
  {
    name: 'Pool',
    description: 'The public website: statistics, profitability, fees, payouts, signatures, VIP applications.',
  },
  {
    name: 'Account',
    description: 'Sessions and account settings; a session cookie (`lodestone_session`) after login.',
  },
  { name: 'Money', description: 'The coin catalogue, conversion and payout settings.' },
  {
    name: 'Dashboard',
    description: "The logged-in user's Mining and Revenue tabs (`account_name` = one of their accounts).",
  },
  { name: 'Observer', description: 'The read-only dashboard of an observer key.' },
  { name: 'Site', description: 'Health, banner and the site information.' },
];

function operationOf(name: string, route: RouteEntry) {
  const parameters = [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')];
  const operation: Record<string, unknown> = {
    operationId: name,
    tags: [tagOf(route.path)],
    ...(parameters.length > 0 ? { parameters } : {}),
  };
  if (route.body) {
    const schema = jsonSchemaOf(route.body, 'input');
    const example = exampleFor(route.body, schema);
    operation.requestBody = {
      required: true,
      content: {
        'multipart/form-data': withExample({ schema }, example),
        'application/json': withExample({ schema }, example),
      },
    };
  }
  const errorSchema = jsonSchemaOf(errorResponse, 'output');
  const ok = route.response
    ? (() => {
        const schema = jsonSchemaOf(route.response, 'output');
        return {
          description: 'OK',
          content: { 'application/json': withExample({ schema }, exampleFor(route.response, schema)) },
        };
      })()
    : {
        description: FILE_ANSWERS[name]?.description ?? 'A file',
        content: { [FILE_ANSWERS[name]?.type ?? 'application/octet-stream']: {} },
      };
  const refusals = Object.fromEntries(
    (route.refusals ?? []).map((refusal) => [
      String(refusal.status),
      {
        description: refusal.when,
        content: { 'application/json': withExample({ schema: errorSchema }, refusal.example) },
      },
    ]),
  );
  operation.responses = {
    '200': ok,
    ...refusals,
    default: {
      description: 'A refusal (4xx) or a server error (5xx): a message for people and a stable code',
      content: {
        'application/json': withExample({ schema: errorSchema }, { error: 'Account not found', code: 'NOT_FOUND' }),
      },
    },
  };
  return operation;
}

/** `/pool/stats/:algorithm` → `/v1/pool/stats/{algorithm}`. */
export function openApiPath(path: string): string {
  return `${API_PREFIX}${path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}')}`;
}

export interface OpenApiOptions {
  publicUrl: string;
  poolName: string;
  version: string;
}

/** The whole document. Pure: the same contract gives the same document. */
export function buildOpenApiDocument(options: OpenApiOptions) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, route] of Object.entries(routes) as [string, RouteEntry][]) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    (paths[path] as Record<string, unknown>)[route.method.toLowerCase()] = operationOf(name, route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${options.poolName} API`,
      version: options.version,
      description: [
        'The API of a Lodestone mining pool. Answers are JSON; refusals are `{ "error", "code" }` with a 4xx',
        'status. Form calls take multipart forms (JSON bodies work too). The public API (`/v1/api/*`) needs',
        'no session: `api/user` takes the account’s read-only API key (Settings). Rate-limited answers are',
        '429 with `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` and `Retry-After`.',
      ].join(' '),
    },
    servers: [{ url: options.publicUrl }],
    tags: TAGS,
    paths,
  };
}
