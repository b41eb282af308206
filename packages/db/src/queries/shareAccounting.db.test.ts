import type { AlgorithmKey } from '@lodestone/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../connection.js';
import type { NewBlock } from '../schema.js';
import { createTestDatabase, emptyTestDatabase, testEngines } from '../testing.js';
import { blockByHash, countBlocksByAlgorithm, recordBlock } from './blocks.js';
import { hashrateBuckets, savePoolStats } from './poolStats.js';
import { recordShareBatch } from './shareBatches.js';
import { recordWorkerShares, topWindowAccounts, windowActivity } from './workerStats.js';
import { allTimeDifficultyByAlgorithm, topAllTimeAccounts, upsertWorkers, type WorkerActivity } from './workers.js';

const T = (iso: string) => new Date(`2024-05-06T${iso}Z`);

function activity(account: string, name: string, over: Partial<WorkerActivity> = {}): WorkerActivity {
  return {
    account,
    algorithm: 'scrypt',
    name,
    seenAt: T('10:00:00'),
    lastShareAt: T('10:00:05'),
    acceptedDifficulty: '0',
    ...over,
  };
}

function block(over: Partial<NewBlock> = {}): NewBlock {
  return {
    id: '6f1c8a8e-6a3a-4c43-9d5e-6a0d3c2b1a01',
    node: 'node-1',
    algorithm: 'scrypt',
    coin: 'LTC',
    height: 432,
    hash: 'aa'.repeat(32),
    reward: '625000000',
    account: 'alice',
    worker: 'rig1',
    difficulty: '512',
    status: 'pending',
    found_at: T('10:00:00'),
    submit_error: null,
    ...over,
  };
}

async function sqlState(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'succeeded',
    (error: { code?: unknown }) => error.code,
  );
}

describe.each(testEngines())('share accounting queries on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await emptyTestDatabase(database.db);
  });

  it('upsertWorkers creates workers, then keeps first/last seen and adds difficulty', async () => {
    const first = await upsertWorkers(database.db, [
      activity('alice', 'rig1', { acceptedDifficulty: '1.5' }),
      activity('alice', 'rig2'),
      activity('alice', 'rig1', { algorithm: 'sha256' }),
    ]);
    expect(first).toHaveLength(3);
    expect(new Set(first.map((w) => w.id)).size).toBe(3);

    const again = await upsertWorkers(database.db, [
      activity('alice', 'rig1', { seenAt: T('09:59:00'), lastShareAt: T('10:00:01'), acceptedDifficulty: '2.25' }),
    ]);
    expect(again).toEqual([first.find((w) => w.name === 'rig1' && w.algorithm === 'scrypt')]);
    const row = await database.db
      .selectFrom('workers')
      .selectAll()
      .where('account', '=', 'alice')
      .where('name', '=', 'rig1')
      .where('algorithm', '=', 'scrypt')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      first_seen_at: T('09:59:00'), // earlier batch arrived later: least wins
      last_share_at: T('10:00:05'), // an older last share never moves it back
      total_accepted_difficulty: '3.75',
    });
  });

  it('upsertWorkers keeps the latest accepted share to the millisecond; a batch without one keeps it', async () => {
    const lastAccepted = async () =>
      (await database.db.selectFrom('workers').select('last_accepted_at').executeTakeFirstOrThrow()).last_accepted_at;
    await upsertWorkers(database.db, [activity('alice', 'rig1')]);
    expect(await lastAccepted()).toBeNull();
    await upsertWorkers(database.db, [
      activity('alice', 'rig1', { lastAcceptedAt: new Date('2024-05-06T10:00:03.250Z') }),
    ]);
    expect(await lastAccepted()).toEqual(new Date('2024-05-06T10:00:03.250Z'));
    // Only refused shares in a later batch, and an earlier batch arriving late: neither moves it.
    await upsertWorkers(database.db, [activity('alice', 'rig1', { lastShareAt: T('10:05:00'), lastAcceptedAt: null })]);
    await upsertWorkers(database.db, [activity('alice', 'rig1', { lastAcceptedAt: T('09:58:00') })]);
    expect(await lastAccepted()).toEqual(new Date('2024-05-06T10:00:03.250Z'));
  });

  it('recordWorkerShares adds to the minute rows and the unrolled figures, and refuses a minute that is not truncated', async () => {
    const counted = (acceptedDifficulty: string, valid: number, invalid: number, stale: number) =>
      activity('alice', 'rig1', { acceptedDifficulty, counts: { valid, invalid, stale } });
    const [w] = await recordWorkerShares(database.db, 'scrypt', T('10:00:00'), [counted('10', 5, 1, 0)]);
    if (!w) throw new Error('no worker');
    await recordWorkerShares(database.db, 'scrypt', T('10:00:00'), [counted('0.5', 1, 0, 2)]);
    // Seen but nothing counted: no minute row, nothing added.
    await recordWorkerShares(database.db, 'scrypt', T('10:01:00'), [counted('0', 0, 0, 0)]);
    const rows = await database.db.selectFrom('worker_stats_minute').selectAll().execute();
    expect(rows).toEqual([
      {
        worker_id: w.id,
        algorithm: 'scrypt',
        minute: T('10:00:00'),
        accepted_difficulty: '10.5',
        valid: 6,
        invalid: 1,
        stale: 2,
        rolled_difficulty: '0',
        rolled_valid: 0,
        rolled_invalid: 0,
        rolled_stale: 0,
      },
    ]);
    const unrolled = await database.db
      .selectFrom('workers')
      .select(['unrolled_difficulty', 'unrolled_valid', 'unrolled_invalid', 'unrolled_stale'])
      .executeTakeFirstOrThrow();
    expect(Object.values(unrolled).map(String)).toEqual(['10.5', '6', '1', '2']);
    expect(await sqlState(recordWorkerShares(database.db, 'scrypt', T('10:00:30'), [counted('1', 1, 0, 0)]))).toBe(
      '23514',
    );
    await expect(recordWorkerShares(database.db, 'x11', T('10:00:00'), [counted('1', 1, 0, 0)])).rejects.toThrow(
      'worker alice.rig1 is not of x11',
    );
  });

  it('windowActivity sums accepted difficulty and counts accounts and workers with accepted shares', async () => {
    const shares = (
      account: string,
      name: string,
      minute: string,
      acceptedDifficulty: string,
      valid: number,
      algorithm: AlgorithmKey = 'scrypt',
    ) =>
      recordWorkerShares(database.db, algorithm, T(minute), [
        activity(account, name, {
          algorithm,
          acceptedDifficulty,
          counts: { valid, invalid: valid === 0 ? 3 : 0, stale: 0 },
        }),
      ]);
    await shares('alice', 'rig1', '09:50:00', '1000', 10); // first minute of the window
    await shares('alice', 'rig2', '09:59:00', '2000', 20); // last minute of the window
    await shares('bob', 'rig1', '09:55:00', '3000', 30);
    await shares('carol', 'only-invalid', '09:55:00', '0', 0);
    await shares('alice', 'rig1', '09:49:00', '99999', 1); // before the window
    await shares('bob', 'rig1', '10:00:00', '99999', 1); // the minute `to` itself is excluded
    await shares('dave', 'x', '09:55:00', '77', 1, 'sha256');
    const activityIn = await windowActivity(database.db, 'scrypt', T('09:50:00'), T('10:00:00'));
    expect(activityIn).toEqual({ acceptedDifficulty: '6000', miners: 2, workers: 3 });
    expect(await windowActivity(database.db, 'x11', T('09:50:00'), T('10:00:00'))).toEqual({
      acceptedDifficulty: '0',
      miners: 0,
      workers: 0,
    });

    const top = await topWindowAccounts(database.db, 'scrypt', T('09:50:00'), T('10:00:00'), 10);
    expect(top).toEqual([
      { account: 'alice', acceptedDifficulty: '3000' },
      { account: 'bob', acceptedDifficulty: '3000' },
    ]);
    expect(await topWindowAccounts(database.db, 'scrypt', T('09:50:00'), T('10:00:00'), 1)).toHaveLength(1);
  });

  it('all-time figures come from the workers running totals', async () => {
    await upsertWorkers(database.db, [
      activity('alice', 'rig1', { acceptedDifficulty: '5' }),
      activity('alice', 'rig2', { acceptedDifficulty: '7' }),
      activity('bob', 'rig1', { acceptedDifficulty: '20' }),
      activity('carol', 'rig1', { acceptedDifficulty: '0' }), // never had an accepted share
      activity('alice', 'rig1', { algorithm: 'x11', acceptedDifficulty: '1' }),
      activity('erin', 'rig1', { algorithm: 'x11', acceptedDifficulty: '2' }),
    ]);
    expect(await allTimeDifficultyByAlgorithm(database.db)).toEqual(
      new Map([
        ['scrypt', '32'],
        ['x11', '3'],
      ]),
    );
    expect(await topAllTimeAccounts(database.db, 'scrypt', 10)).toEqual([
      { account: 'bob', acceptedDifficulty: '20' },
      { account: 'alice', acceptedDifficulty: '12' },
    ]);
  });

  it('recordShareBatch is true once per id', async () => {
    const batch = {
      id: '0b6f7f5e-2f0d-4d7e-9b3a-1c2d3e4f5a6b',
      node: 'node-1',
      algorithm: 'scrypt' as const,
      intervalStart: T('10:00:00'),
      intervalEnd: T('10:00:05'),
    };
    expect(await recordShareBatch(database.db, batch)).toBe(true);
    expect(await recordShareBatch(database.db, batch)).toBe(false);
    expect(await recordShareBatch(database.db, { ...batch, id: '0b6f7f5e-2f0d-4d7e-9b3a-1c2d3e4f5a6c' })).toBe(true);
  });

  it('recordBlock records a block once by id and by hash; rejected blocks are not counted', async () => {
    expect(await recordBlock(database.db, block())).toBe(true);
    expect(await recordBlock(database.db, block())).toBe(false);
    expect(await recordBlock(database.db, block({ id: '6f1c8a8e-6a3a-4c43-9d5e-6a0d3c2b1a02' }))).toBe(false);
    expect(await blockByHash(database.db, 'aa'.repeat(32))).toMatchObject({ height: 432n, reward: '625000000' });
    await recordBlock(
      database.db,
      block({
        id: '6f1c8a8e-6a3a-4c43-9d5e-6a0d3c2b1a03',
        hash: 'bb'.repeat(32),
        status: 'rejected',
        submit_error: 'high-hash',
      }),
    );
    await recordBlock(
      database.db,
      block({ id: '6f1c8a8e-6a3a-4c43-9d5e-6a0d3c2b1a04', hash: 'cc'.repeat(32), algorithm: 'sha256', coin: 'BTC' }),
    );
    expect(await countBlocksByAlgorithm(database.db)).toEqual(
      new Map([
        ['scrypt', 1],
        ['sha256', 1],
      ]),
    );
    const noReason = block({ id: '6f1c8a8e-6a3a-4c43-9d5e-6a0d3c2b1a05', hash: 'dd'.repeat(32), status: 'rejected' });
    expect(await sqlState(recordBlock(database.db, noReason))).toBe('23514');
  });

  it('savePoolStats replaces the snapshot of the same instant; hashrateBuckets averages per bucket', async () => {
    const snapshot = (taken: string, hashrate: string) => ({
      algorithm: 'scrypt' as const,
      taken_at: T(taken),
      hashrate,
      miners: 1,
      workers: 1,
      profit: '0',
      profit_avg_24h: '0',
      users: 4,
      blocks: 2,
      total_hashes: '123',
    });
    await savePoolStats(database.db, snapshot('10:00:00', '100'));
    const replaced = await savePoolStats(database.db, { ...snapshot('10:00:00', '300'), users: 5 });
    expect(replaced).toMatchObject({ hashrate: '300', users: 5, blocks: 2, total_hashes: '123' });
    await savePoolStats(database.db, snapshot('10:29:00', '100'));
    await savePoolStats(database.db, snapshot('10:30:00', '7'));
    await savePoolStats(database.db, snapshot('11:30:00', '1000')); // at `to`: excluded
    await savePoolStats(database.db, { ...snapshot('10:15:00', '5'), algorithm: 'x11' });

    const buckets = await hashrateBuckets(database.db, 'scrypt', T('09:00:00'), T('11:30:00'), 1800);
    expect(buckets).toEqual([
      { start: T('10:00:00'), hashrate: '200.000' },
      { start: T('10:30:00'), hashrate: '7.000' },
    ]);
  });
});
