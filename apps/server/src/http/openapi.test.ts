import { API_PREFIX, routes } from '@lodestone/contract';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildOpenApiDocument, type JsonSchema, jsonSchemaOf, openApiPath, sampleOf } from './openapi.js';

const document = buildOpenApiDocument({ publicUrl: 'https://pool.example', poolName: 'Acme Pool', version: '1.2.3' });
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; required: boolean; schema: JsonSchema; example?: unknown }[];
  requestBody?: { content: Record<string, { schema: JsonSchema; example?: unknown }> };
  responses: Record<string, { content: Record<string, { schema?: JsonSchema; example?: unknown }> }>;
};
const operation = (path: string, method: string) =>
  (document.paths[openApiPath(path)] as Record<string, Operation> | undefined)?.[method.toLowerCase()];

function validator() {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

interface Entry {
  method: string;
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
}
const entries = Object.entries(routes) as [string, Entry][];

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 about this pool', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: 'Acme Pool API', version: '1.2.3' });
    expect(document.servers).toEqual([{ url: 'https://pool.example' }]);
    expect(openApiPath('/pool/stats/:algorithm/chart')).toBe(`${API_PREFIX}/pool/stats/{algorithm}/chart`);
  });

  it('has every route of the contract, with its parameters, body and answer as the contract’s JSON Schema', () => {
    const count = Object.values(document.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    expect(count).toBe(entries.length);
    for (const [name, route] of entries) {
      const op = operation(route.path, route.method);
      expect(op?.operationId, name).toBe(name);
      if (!op) continue;
      for (const [schema, where] of [
        [route.params, 'path'],
        [route.query, 'query'],
      ] as const) {
        if (!schema) continue;
        const properties = (jsonSchemaOf(schema, 'input').properties ?? {}) as Record<string, JsonSchema>;
        const listed = (op.parameters ?? []).filter((p) => p.in === where);
        expect(
          listed.map((p) => p.name),
          name,
        ).toEqual(Object.keys(properties));
        for (const p of listed) {
          const { description: _d, ...rest } = properties[p.name] as JsonSchema;
          expect(p.schema, `${name} ${p.name}`).toEqual(rest);
        }
      }
      if (route.body) {
        expect(op.requestBody?.content['multipart/form-data']?.schema, name).toEqual(jsonSchemaOf(route.body, 'input'));
        expect(op.requestBody?.content['application/json']?.schema, name).toEqual(jsonSchemaOf(route.body, 'input'));
      }
      if (route.response) {
        expect(op.responses['200']?.content['application/json']?.schema, name).toEqual(
          jsonSchemaOf(route.response, 'output'),
        );
      }
    }
  });

  it('compiles, and every example it shows is valid for its schema', () => {
    const ajv = validator();
    let examples = 0;
    for (const [name, route] of entries) {
      const op = operation(route.path, route.method) as Operation;
      const media = [
        ...Object.values(op.requestBody?.content ?? {}),
        ...Object.values(op.responses).flatMap((r) => Object.values(r.content)),
      ];
      for (const m of media) {
        if (!m.schema) continue;
        const validate = ajv.compile(m.schema);
        if (m.example === undefined) continue;
        examples += 1;
        expect(validate(m.example), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
      for (const p of op.parameters ?? []) {
        if (p.example === undefined) continue;
        const validate = ajv.compile(p.schema);
        expect(validate(p.example), `${name} ${p.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
    expect(examples).toBeGreaterThan(entries.length);
  });

  it('shows request and answer examples for the public API pages', () => {
    for (const name of ['apiPool', 'apiProfits', 'apiUser', 'poolProfits', 'poolFees', 'signature'] as const) {
      const route = routes[name];
      const example = operation(route.path, route.method)?.responses['200']?.content['application/json']?.example;
      expect(example, name).toBeDefined();
    }
    const user = operation('/api/user', 'GET');
    expect(user?.parameters).toEqual([
      expect.objectContaining({ name: 'apiKey', in: 'query', required: true, example: expect.any(String) }),
    ]);
    expect(operation('/email/hashrate', 'POST')?.requestBody?.content['multipart/form-data']?.example).toMatchObject({
      phone: '+44 7911123456',
    });
    expect(operation('/api/user', 'GET')?.responses.default?.content['application/json']?.example).toEqual({
      error: 'Account not found',
      code: 'NOT_FOUND',
    });
  });

  it('describes file answers by their type', () => {
    expect(Object.keys(operation('/user/revenue/earnings/download', 'GET')?.responses['200']?.content ?? {})).toEqual([
      'application/pdf',
    ]);
    expect(Object.keys(operation('/2fa/:secret', 'GET')?.responses['200']?.content ?? {})).toEqual(['image/png']);
  });
});

describe('sampleOf', () => {
  it('makes a value of each kind of schema', () => {
    expect(
      sampleOf({ type: 'object', properties: { a: { type: 'integer', minimum: 3 }, b: { type: ['string', 'null'] } } }),
    ).toEqual({
      a: 3,
      b: 'string',
    });
    expect(sampleOf({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] })).toEqual(['string', 1.5]);
    expect(sampleOf({ type: 'object', additionalProperties: { type: 'boolean' } })).toEqual({ BTC: true });
    expect(sampleOf({ anyOf: [{ const: 'x' }, { type: 'number' }] })).toBe('x');
    expect(sampleOf({ type: 'string', pattern: '^\\d+$' })).toBe('150000000');
  });
});
