import { stratumResponse } from '@lodestone/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

describe('GET /v1/pool/stratum', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('lists the configured ports with their public addresses', async () => {
    t = await createTestApp({
      STRATUM_HOST: 'pool.example.org',
      STRATUM_LISTENERS: JSON.stringify([
        { algorithm: 'scrypt', port: 3333 },
        { algorithm: 'scrypt', port: 3334, kind: 'marketplace' },
        { algorithm: 'scrypt', port: 3332, kind: 'xnsub' },
      ]),
    });
    const res = await t.app.inject({ url: '/v1/pool/stratum' });
    expect(res.statusCode).toBe(200);
    const body = stratumResponse.parse(res.json());
    expect(body.listeners.map((l) => [l.url, l.kind, l.demo])).toEqual([
      ['stratum+tcp://scrypt.stratum.pool.example.org:3333', 'standard', true],
      ['stratum+tcp://scrypt.stratum.pool.example.org:3334', 'marketplace', true],
      ['stratum+tcp://scrypt.stratum.pool.example.org:3332', 'xnsub', true],
    ]);
  });
});
