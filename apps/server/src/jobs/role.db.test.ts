import type { Database } from '@lodestone/db';
import { createTestDatabase, testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InProcessBus } from '../bus/inProcess.js';
import { startJobsRole } from './role.js';
import { foundBlock, poolStatsRollup, recordingLog, shareBatch, shareCounts } from './testing.js';

describe.each(testEngines())('jobs role on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });

  it('applies what stratum publishes, rolls up at start, and stops after the bus has drained', async () => {
    const bus = new InProcessBus();
    const log = recordingLog();
    const role = await startJobsRole({ database, bus, log, jobs: [poolStatsRollup()] });
    const now = Date.now();
    await bus.publishShareBatch(
      shareBatch(new Date(now - 3 * 60_000).toISOString(), [
        shareCounts('alice', 'rig1', { acceptedDifficulty: 600, valid: 3 }),
      ]),
    );
    await bus.publishFoundBlock(foundBlock({ hash: '77'.repeat(32) }));
    await bus.close(); // delivers everything queued
    await role.stop();

    const stats = await database.db
      .selectFrom('worker_stats_minute')
      .select(['accepted_difficulty', 'valid'])
      .execute();
    expect(stats).toEqual([{ accepted_difficulty: '600', valid: 3 }]);
    expect(await database.db.selectFrom('blocks').select('hash').execute()).toEqual([{ hash: '77'.repeat(32) }]);
    // the rollup ran at start (and again for scrypt's first shares): a snapshot per algorithm each time
    const snapshots = await database.db.selectFrom('pool_stats').select('algorithm').execute();
    expect(new Set(snapshots.map((s) => s.algorithm)).size).toBe(6);
    expect(snapshots.length % 6).toBe(0);
    expect(role.status()).toEqual([expect.objectContaining({ name: 'pool-stats-rollup', failures: 0 })]);
    expect(role.status()[0]?.runs).toBeGreaterThanOrEqual(1);
    expect(log.entries.filter((e) => e.level === 'error')).toEqual([]);
  });

  it("snapshots the pool stats as soon as an algorithm's first shares are applied, not at the next instant", async () => {
    const bus = new InProcessBus();
    // An hour between instants: only the start and the first shares can make this rollup run.
    const rollup = { ...poolStatsRollup(), name: 'hourly-rollup', everyMs: 3_600_000 };
    const role = await startJobsRole({ database, bus, log: recordingLog(), jobs: [rollup] });
    const miners = () =>
      database.db
        .selectFrom('pool_stats')
        .select(['miners', 'workers'])
        .where('algorithm', '=', 'sha256')
        .orderBy('taken_at', 'desc')
        .executeTakeFirst();
    try {
      await vi.waitFor(() => expect(role.status()[0]?.runs).toBe(1)); // the run at start
      expect((await miners())?.miners).toBe(0);
      const batch = shareBatch(new Date().toISOString(), [
        shareCounts('bob', 'rig1', { acceptedDifficulty: 9, valid: 1 }),
      ]);
      await bus.publishShareBatch({ ...batch, algorithm: 'sha256' });
      await vi.waitFor(async () => expect(await miners()).toEqual({ miners: 1, workers: 1 }), { timeout: 10_000 });
      // A second batch of the same algorithm wakes nothing: its shares show at the next instant.
      await bus.publishShareBatch({ ...batch, id: crypto.randomUUID(), algorithm: 'sha256' });
      await bus.close();
      expect(role.status()[0]?.runs).toBe(2);
    } finally {
      await role.stop();
    }
  });
});
