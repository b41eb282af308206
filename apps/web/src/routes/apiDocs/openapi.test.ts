import type { OpenApiDocument } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import {
  codeSpans,
  curlExample,
  findOperation,
  placeholderFor,
  requestUrl,
  schemaFields,
  serverUrl,
  typeOf,
} from './openapi';

const algorithm = {
  type: 'object',
  properties: { hashrate: { type: 'number', minimum: 0 }, speedUnits: { type: 'string' } },
  required: ['hashrate', 'speedUnits'],
};

/** A document shaped like the server's (apps/server/src/http/openapi.ts), cut down. */
const doc = {
  openapi: '3.1.0',
  info: { title: 'Pool API', version: '1' },
  servers: [{ url: 'https://pool.example/' }],
  paths: {
    '/v1/api/user': {
      get: {
        operationId: 'apiUser',
        parameters: [
          { name: 'apiKey', in: 'query', required: true, schema: { type: 'string', minLength: 1 } },
          { name: 'extra', in: 'query', required: false, schema: { type: 'integer' } },
        ],
        responses: {
          '200': {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    username: { type: 'string' },
                    algorithms: {
                      type: 'object',
                      properties: { scrypt: algorithm, sha256: algorithm, x11: algorithm },
                      required: ['scrypt', 'sha256', 'x11'],
                    },
                    payments: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: {
                          txID: { type: 'string', description: 'or Pending' },
                          note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
                        },
                        required: ['txID'],
                      },
                    },
                    rows: {
                      type: 'array',
                      items: { type: 'array', prefixItems: [{ type: 'string' }, { type: ['number', 'null'] }] },
                    },
                    prices: { type: 'object', additionalProperties: { type: 'number' } },
                    tags: { type: 'array', items: { type: 'string' } },
                  },
                  required: ['username', 'algorithms', 'payments', 'rows', 'prices', 'tags'],
                },
                example: { username: 'miner01' },
              },
            },
          },
          '404': {
            description: 'No account has this API key.',
            content: { 'application/json': { example: { error: 'Account not found', code: 'NOT_FOUND' } } },
          },
          '400': { description: 'No apiKey.' },
          default: { content: { 'application/json': { example: { error: 'Account not found', code: 'NOT_FOUND' } } } },
        },
      },
    },
  },
} as unknown as OpenApiDocument;

describe('reading the OpenAPI document', () => {
  it('finds an operation with its parameters and examples', () => {
    const op = findOperation(doc, '/v1/api/user');
    expect(op).toMatchObject({
      path: '/v1/api/user',
      method: 'GET',
      operationId: 'apiUser',
      responseExample: { username: 'miner01' },
      errorExample: { error: 'Account not found', code: 'NOT_FOUND' },
      refusals: [
        { status: 400, when: 'No apiKey.', example: undefined },
        {
          status: 404,
          when: 'No account has this API key.',
          example: { error: 'Account not found', code: 'NOT_FOUND' },
        },
      ],
    });
    expect(op?.parameters).toEqual([
      { name: 'apiKey', in: 'query', required: true, type: 'string', description: null },
      { name: 'extra', in: 'query', required: false, type: 'integer', description: null },
    ]);
    expect(findOperation(doc, '/v1/api/nope')).toBeNull();
    expect(findOperation(doc, '/v1/api/user', 'post')).toBeNull();
  });

  it('builds the request from the server URL with placeholders for required parameters', () => {
    const op = findOperation(doc, '/v1/api/user');
    const base = serverUrl(doc);
    expect(base).toBe('https://pool.example');
    if (!op || !base) throw new Error('unreachable');
    expect(requestUrl(base, op)).toBe('https://pool.example/v1/api/user?apiKey=YOUR_API_KEY');
    expect(curlExample(requestUrl(base, op))).toBe('curl -s "https://pool.example/v1/api/user?apiKey=YOUR_API_KEY"');
    expect(placeholderFor('observer_key')).toBe('YOUR_OBSERVER_KEY');
    expect(serverUrl({ ...doc, servers: undefined } as unknown as OpenApiDocument)).toBeNull();
  });

  it('lists the fields, collapsing per-algorithm maps, arrays, tuples and free keys', () => {
    const op = findOperation(doc, '/v1/api/user');
    const rows = schemaFields(op?.responseSchema ?? {});
    expect(rows.map((r) => `${r.path}: ${r.type}${r.required ? '' : ' (optional)'}`)).toEqual([
      'username: string',
      'algorithms: object',
      'algorithms.{scrypt|sha256|x11}: object',
      'algorithms.{scrypt|sha256|x11}.hashrate: number',
      'algorithms.{scrypt|sha256|x11}.speedUnits: string',
      'payments: array',
      'payments[].txID: string',
      'payments[].note: string | null (optional)',
      'rows: array',
      'rows[][0]: string',
      'rows[][1]: number | null',
      'prices: object',
      'prices.{key}: number (optional)',
      'tags: array',
      'tags[]: string',
    ]);
    expect(rows.find((r) => r.path === 'payments[].txID')?.description).toBe('or Pending');
  });

  it('names types and splits `code` spans', () => {
    expect(typeOf({ const: 1 })).toBe('1');
    expect(typeOf({ enum: ['24h', '7d'] })).toBe('"24h" | "7d"');
    expect(typeOf({})).toBe('any');
    expect(codeSpans('Use `apiKey` here')).toEqual([
      { code: false, text: 'Use ' },
      { code: true, text: 'apiKey' },
      { code: false, text: ' here' },
    ]);
  });
});
