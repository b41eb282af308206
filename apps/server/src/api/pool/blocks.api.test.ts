import { blocksResponse, errorResponse } from '@lodestone/contract';
import { testEngines } from '@lodestone/db/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { applyShareBatch, recordFoundBlock } from '../../jobs/accounting.js';
import { foundBlock, shareBatch, shareCounts } from '../../jobs/testing.js';

const ltc = { coin: 'LTC', height: 2_700_000, reward: '625000000', difficulty: '2000', demo: false };
const doge = { coin: 'DOGE', height: 5_000_000, reward: '1000000000000', difficulty: '500', demo: false };

describe.each(testEngines())('the blocks calls on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({}, undefined, engine);
  });
  afterEach(() => t.close());

  async function seed(): Promise<void> {
    const end = new Date(Date.now() - 60_000).toISOString();
    const batch = shareBatch(end, [shareCounts('alice', 'rig1', { acceptedDifficulty: 1000, valid: 1 })], {
      network: ltc,
      merged: [doge],
    });
    await applyShareBatch(t.database.db, batch, { feePercent: 1, priceMaxAgeMs: 1 });
    await recordFoundBlock(
      t.database.db,
      foundBlock({ coin: 'DOGE', hash: 'cd'.repeat(32), foundAt: Date.now() - 30_000, networkDifficulty: '500' }),
    );
  }

  it('answers one chain’s blocks on the website’s call and the public API’s, the same', async () => {
    await seed();
    const site = await t.app.inject({ url: '/v1/pool/blocks/SCRYPT?coin=doge' });
    expect(site.statusCode).toBe(200);
    const body = blocksResponse.parse(site.json());
    expect(body.coin).toBe('DOGE');
    expect(body.chains.map((c) => [c.coin, c.merged, c.blocks])).toEqual([
      ['LTC', false, 0],
      ['DOGE', true, 1],
    ]);
    expect(body.blocks).toMatchObject([{ hash: 'cd'.repeat(32), effort: 2, reward: '6.25', status: 'pending' }]);

    const api = await t.app.inject({
      url: '/v1/api/blocks/scrypt?coin=DOGE',
      headers: { origin: 'https://example.org' },
    });
    expect(api.statusCode).toBe(200);
    expect(api.headers['access-control-allow-origin']).toBe('*');
    expect(api.json()).toEqual(site.json());
  });

  it('refuses a chain the algorithm does not mine (404) and a malformed coin or page (400)', async () => {
    await seed();
    const unknown = await t.app.inject({ url: '/v1/pool/blocks/scrypt?coin=BTC' });
    expect(unknown.statusCode).toBe(404);
    expect(errorResponse.parse(unknown.json())).toEqual({ error: 'SCRYPT mines no BTC here.', code: 'NOT_FOUND' });
    const algorithm = await t.app.inject({ url: '/v1/api/blocks/md5' });
    expect(algorithm.statusCode).toBe(404);
    for (const query of ['coin=%3Cscript%3E', 'page=0', 'page=two']) {
      const res = await t.app.inject({ url: `/v1/pool/blocks/scrypt?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(errorResponse.parse(res.json()).code).toBe('VALIDATION_FAILED');
    }
  });

  it('is in the OpenAPI document', async () => {
    const res = await t.app.inject({ url: '/v1/openapi.json' });
    const paths = (res.json() as { paths: Record<string, unknown> }).paths;
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/v1/api/blocks/{algorithm}']));
  });
});
