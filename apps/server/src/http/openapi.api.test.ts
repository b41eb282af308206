import { insertPoolStats, savePoolComparison } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextAddress } from '../../test/accounts.js';
import { NOW, type RevenueWorld, seedRevenueWorld } from '../../test/revenueWorld.js';
import { issueSignature } from '../services/public/signatures.js';
import type { JsonSchema } from './openapi.js';

type Media = { schema?: JsonSchema };
type Document = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, Media> }> }>>;
};

/**
 * Acceptance (issue 7): the public API's real answers validate against the published OpenAPI
 * document — fetched from the server as a client would, its schemas compiled with a JSON Schema
 * 2020-12 validator (Ajv), independent of the zod schemas the server itself checks with.
 */
describe.each(testEngines())('answers against /v1/openapi.json on %s', (engine) => {
  let world: RevenueWorld;
  let document: Document;
  let apiKey: string;
  let signature: string;
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);

  beforeAll(async () => {
    world = await seedRevenueWorld(engine);
    const db = world.t.database.db;
    apiKey =
      (await db.selectFrom('accounts').select('api_key').where('id', '=', world.alice.id).executeTakeFirstOrThrow())
        .api_key ?? '';
    await insertPoolStats(db, {
      algorithm: 'scrypt',
      taken_at: new Date(NOW.getTime() - 60_000),
      hashrate: '5000000000',
      miners: 3,
      workers: 4,
      profit: '0.000000000000003',
      profit_avg_24h: '0.000000000000002',
    });
    await savePoolComparison(
      db,
      {
        algorithm: 'scrypt',
        poolName: 'Alpha Pool',
        poolUrl: 'https://alpha.example',
        hashrateUnit: 'MH/s',
        profit24h: '0.0000000031',
        profit7d: null,
        profit30d: '0.000000003',
      },
      NOW,
    );
    signature = await issueSignature(db, 'payout', 'a receipt\n', NOW);
    const res = await world.t.app.inject({ url: '/v1/openapi.json', remoteAddress: nextAddress() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    document = res.json() as Document;
  });
  afterAll(() => world.t.close());

  function schemaOf(path: string, status: '200' | 'default'): JsonSchema {
    const schema = document.paths[path]?.get?.responses[status]?.content['application/json']?.schema;
    if (!schema) throw new Error(`no ${status} schema for GET ${path}`);
    return schema;
  }

  async function expectValid(url: string, path: string, status: 200 | 404 = 200) {
    const res = await world.t.app.inject({ url, remoteAddress: nextAddress() });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
    const validate = ajv.compile(schemaOf(path, status === 200 ? '200' : 'default'));
    const body: unknown = res.json();
    expect(validate(body), `${url}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    return body;
  }

  it('is an OpenAPI 3.1 document', () => {
    expect(document.openapi).toBe('3.1.0');
  });

  it('describes the public API’s real answers', async () => {
    await expectValid('/v1/api/pool', '/v1/api/pool');
    const profits = (await expectValid('/v1/api/profits', '/v1/api/profits')) as {
      algorithms: { scrypt: { comparison_24h: unknown[] } };
    };
    expect(profits.algorithms.scrypt.comparison_24h).toHaveLength(2);
    const user = (await expectValid(`/v1/api/user?apiKey=${apiKey}`, '/v1/api/user')) as {
      payments: unknown[];
      earnings: unknown[];
      workers: unknown[];
    };
    // The world has something in every list, so the item schemas were exercised too.
    expect(user.payments.length).toBeGreaterThan(0);
    expect(user.earnings.length).toBeGreaterThan(0);
    expect(user.workers.length).toBeGreaterThan(0);
    await expectValid('/v1/api/user?apiKey=wrong', '/v1/api/user', 404);
  });

  it('documents the refusals api/user really answers, with their bodies (issue 16: the docs said 401)', async () => {
    const responses = (document.paths['/v1/api/user']?.get?.responses ?? {}) as Record<
      string,
      { description?: string; content: Record<string, Media & { example?: unknown }> }
    >;
    const documented = Object.keys(responses).filter((status) => /^4\d\d$/.test(status));
    expect(documented).toEqual(['400', '404', '429']);
    for (const [url, status] of [
      ['/v1/api/user?apiKey=wrong', 404],
      ['/v1/api/user', 400],
    ] as const) {
      const res = await world.t.app.inject({ url, remoteAddress: nextAddress() });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toEqual(responses[String(status)]?.content['application/json']?.example);
    }
  });

  it('describes the website’s public answers too', async () => {
    await expectValid('/v1/pool/profits/scrypt', '/v1/pool/profits/{algorithm}');
    await expectValid('/v1/pool/profits/scrypt/chart?period=7d', '/v1/pool/profits/{algorithm}/chart');
    await expectValid('/v1/pool/fees', '/v1/pool/fees');
    await expectValid('/v1/pool/schemes', '/v1/pool/schemes');
    await expectValid(`/v1/signatures/${signature}`, '/v1/signatures/{signature}');
    await expectValid('/v1/signatures/unknown', '/v1/signatures/{signature}', 404);
    await expectValid('/v1/pool/stats', '/v1/pool/stats');
    await expectValid('/v1/pool/stats/scrypt', '/v1/pool/stats/{algorithm}');
    await expectValid('/v1/pool/payouts', '/v1/pool/payouts');
    await expectValid('/v1/coins', '/v1/coins');
    await expectValid('/v1/site', '/v1/site');
  });
});
