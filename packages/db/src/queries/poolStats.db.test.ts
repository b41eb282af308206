import { ALGORITHM_KEYS, type AlgorithmKey } from '@lodestone/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../connection.js';
import type { NewPoolStats } from '../schema.js';
import { createTestDatabase, testEngines } from '../testing.js';
import { insertPoolStats, latestPoolStats, poolStatsSince } from './poolStats.js';

function sample(algorithm: AlgorithmKey, takenAt: string, hashrate = '1000'): NewPoolStats {
  return {
    algorithm,
    taken_at: new Date(takenAt),
    hashrate,
    miners: 2,
    workers: 5,
    profit: '0.00000000000123456789',
    profit_avg_24h: '0.0000000000012',
  };
}

/** The SQLSTATE of a rejected query (both drivers put it on `code`). */
async function sqlState(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'succeeded',
    (error: { code?: unknown }) => error.code,
  );
}

describe.each(testEngines())('pool_stats queries on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await database.db.deleteFrom('pool_stats').execute();
  });

  it('inserts a row and returns it with its id, values exact', async () => {
    const row = await insertPoolStats(
      database.db,
      sample('scrypt', '2024-05-06T07:08:09.123Z', '123456789012345678901234.5'),
    );
    expect(row).toStrictEqual({
      id: expect.any(BigInt),
      algorithm: 'scrypt',
      taken_at: new Date('2024-05-06T07:08:09.123Z'),
      hashrate: '123456789012345678901234.5',
      miners: 2,
      workers: 5,
      profit: '0.00000000000123456789',
      profit_avg_24h: '0.0000000000012',
      users: 0,
      blocks: 0,
      total_hashes: '0',
    });
  });

  it('latestPoolStats picks the newest row of each algorithm', async () => {
    await insertPoolStats(database.db, sample('scrypt', '2024-01-01T00:00:00Z', '1'));
    await insertPoolStats(database.db, sample('scrypt', '2024-01-01T00:02:00Z', '3'));
    await insertPoolStats(database.db, sample('scrypt', '2024-01-01T00:01:00Z', '2'));
    await insertPoolStats(database.db, sample('x11', '2023-12-31T00:00:00Z', '10'));
    await insertPoolStats(database.db, sample('x11', '2024-01-02T00:00:00Z', '20'));

    const latest = await latestPoolStats(database.db);
    expect(latest.map((r) => [r.algorithm, r.taken_at.toISOString(), r.hashrate])).toEqual([
      ['scrypt', '2024-01-01T00:02:00.000Z', '3'],
      ['x11', '2024-01-02T00:00:00.000Z', '20'],
    ]);
  });

  it('poolStatsSince returns one algorithm from `since` on, oldest first', async () => {
    await insertPoolStats(database.db, sample('sha256', '2024-01-01T00:03:00Z', '4'));
    await insertPoolStats(database.db, sample('sha256', '2024-01-01T00:01:00Z', '2'));
    await insertPoolStats(database.db, sample('sha256', '2024-01-01T00:00:00Z', '1'));
    await insertPoolStats(database.db, sample('sha256', '2024-01-01T00:02:00Z', '3'));
    await insertPoolStats(database.db, sample('scrypt', '2024-01-01T00:02:00Z', '99'));

    const rows = await poolStatsSince(database.db, 'sha256', new Date('2024-01-01T00:01:00Z'));
    expect(rows.map((r) => r.hashrate)).toEqual(['2', '3', '4']);
  });

  it('works inside a transaction', async () => {
    await database.db.transaction().execute(async (trx) => {
      await insertPoolStats(trx, sample('blake2s', '2024-01-01T00:00:00Z'));
      expect(await latestPoolStats(trx)).toHaveLength(1);
    });
  });

  it('accepts every algorithm key of the domain and nothing else', async () => {
    for (const key of ALGORITHM_KEYS) await insertPoolStats(database.db, sample(key, '2024-01-01T00:00:00Z'));
    expect(await latestPoolStats(database.db)).toHaveLength(ALGORITHM_KEYS.length);

    const unknown = { ...sample('scrypt', '2024-01-01T00:00:00Z'), algorithm: 'SCRYPT' as AlgorithmKey };
    expect(await sqlState(insertPoolStats(database.db, unknown))).toBe('23514'); // check_violation
  });

  it('refuses a negative hashrate and a second sample at the same instant', async () => {
    expect(await sqlState(insertPoolStats(database.db, sample('x11', '2024-01-01T00:00:00Z', '-1')))).toBe('23514');
    await insertPoolStats(database.db, sample('x11', '2024-01-01T00:00:00Z'));
    expect(await sqlState(insertPoolStats(database.db, sample('x11', '2024-01-01T00:00:00Z')))).toBe('23505'); // unique_violation
  });
});
