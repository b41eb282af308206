import type { Database } from '@lodestone/db';
import { createTestDatabase, testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    // the rollup ran once at start: a snapshot per algorithm
    const snapshots = await database.db.selectFrom('pool_stats').select('algorithm').execute();
    expect(snapshots).toHaveLength(6);
    expect(role.status()).toEqual([expect.objectContaining({ name: 'pool-stats-rollup', failures: 0 })]);
    expect(role.status()[0]?.runs).toBeGreaterThanOrEqual(1);
    expect(log.entries.filter((e) => e.level === 'error')).toEqual([]);
  });
});
