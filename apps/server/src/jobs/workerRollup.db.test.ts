import type { Account, Database } from '@lodestone/db';
import { createTestDatabase, emptyTestDatabase, testEngines, workerUnrolledDrift } from '@lodestone/db/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { powHashesPerDifficulty } from '../services/hashesPerDifficulty.js';
import { type MiningContext, readMiningChart, readMiningSummary, readMiningWorkers } from '../services/mining.js';
import { applyShareBatch } from './accounting.js';
import { shareBatch, shareCounts } from './testing.js';
import { MINUTE_RETENTION_HOURS, runWorkerRollup, workerRollupJob } from './workerRollup.js';

const NOW = new Date('2024-05-06T12:00:30Z');
const at = (msBefore: number) => new Date(NOW.getTime() - msBefore).toISOString();
const MIN = 60_000;
const HOUR = 3_600_000;

/** The reads only look at the account's name and fee discount. */
const alice = { id: 1n, username: 'alice', fee_discount: '0' } as Account;

describe.each(testEngines())('worker-rollup job on %s', (engine) => {
  let database: Database;
  let ctx: MiningContext;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
    ctx = {
      db: database.db,
      now: () => NOW,
      windowMinutes: 10,
      feePercent: 1,
      soloFeePercent: 1,
      hashesPerDifficulty: powHashesPerDifficulty,
    };
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await emptyTestDatabase(database.db);
  });
  afterEach(async () => {
    // Each worker's unrolled figures still match its minute rows (migration 0034).
    expect(await workerUnrolledDrift(database.db)).toEqual([]);
  });

  /** Three days of shares every 20 minutes from two rigs, plus the current minute. */
  async function history() {
    for (let ago = 3 * 24 * HOUR; ago >= 20 * MIN; ago -= 20 * MIN) {
      await applyShareBatch(
        database.db,
        shareBatch(at(ago), [
          shareCounts('alice', 'rig1', { acceptedDifficulty: 64, valid: 2, stale: ago % HOUR === 0 ? 1 : 0 }),
          shareCounts('alice', 'rig2', { acceptedDifficulty: 32.5, valid: 1, invalid: ago % (2 * HOUR) === 0 ? 1 : 0 }),
        ]),
      );
    }
    await applyShareBatch(
      database.db,
      shareBatch(at(5_000), [shareCounts('alice', 'rig1', { acceptedDifficulty: 128, valid: 4 })]),
    );
  }

  const read = async () => ({
    summary: await readMiningSummary(ctx, alice, 'scrypt'),
    chart: await readMiningChart(ctx, alice, 'scrypt', { timeZone: 'Asia/Kolkata', period: '24h' }),
    workers: await readMiningWorkers(ctx, alice, 'scrypt'),
  });

  it('rolls up, keeps what the dashboard reads, and the reads do not change', async () => {
    await history();
    const before = await read();
    expect(before.summary.total_workers).toBe(2);
    expect(before.chart.y_axis.filter((y) => y > 0)).toHaveLength(48);

    const run = await runWorkerRollup(database.db, NOW);
    // This hour's 24 hours and the next hour's, this minute's window and the next minute's.
    expect(run).toMatchObject({ unfinished: false, hoursDeleted: 0, periodsComputed: 4 });
    // Every batch but the current minute's, each with two rows.
    const batches = await database.db.selectFrom('share_batches').select('rolled_at').execute();
    expect(run.batches).toBe(batches.length - 1);
    expect(run.rows).toBe(2 * run.batches);
    // Minute rows older than 48 hours (counted from the hour) are gone; the rest stay.
    expect(run.minutesDeleted).toBeGreaterThan(0);
    const oldest = await database.db
      .selectFrom('worker_stats_minute')
      .select((eb) => eb.fn.min('minute').as('m'))
      .executeTakeFirstOrThrow();
    expect(new Date(oldest.m as unknown as Date).getTime()).toBeGreaterThanOrEqual(
      Date.parse('2024-05-06T12:00:00Z') - MINUTE_RETENTION_HOURS * HOUR,
    );

    expect(await read()).toEqual(before);

    // Idempotent: a second run at the same instant does nothing and changes nothing.
    const hours = await database.db
      .selectFrom('worker_stats_hour')
      .selectAll()
      .orderBy('worker_id')
      .orderBy('hour')
      .execute();
    expect(await runWorkerRollup(database.db, NOW)).toEqual({
      batches: 0,
      rows: 0,
      periodsComputed: 0,
      minutesDeleted: 0,
      hoursDeleted: 0,
      unfinished: false,
    });
    expect(
      await database.db.selectFrom('worker_stats_hour').selectAll().orderBy('worker_id').orderBy('hour').execute(),
    ).toEqual(hours);
    expect(await read()).toEqual(before);
  });

  it('deletes worker hours after 8 days and minute rows only once rolled up', async () => {
    await applyShareBatch(
      database.db,
      shareBatch(at(9 * 24 * HOUR), [shareCounts('alice', 'rig1', { acceptedDifficulty: 1, valid: 1 })]),
    );
    await applyShareBatch(
      database.db,
      shareBatch(at(7 * 24 * HOUR), [shareCounts('alice', 'rig1', { acceptedDifficulty: 2, valid: 1 })]),
    );
    // Rolled and pruned in separate runs: the first run of the day finds the old batches unrolled.
    const first = await runWorkerRollup(database.db, NOW);
    expect(first).toMatchObject({ batches: 2, rows: 2, minutesDeleted: 2, hoursDeleted: 1 });
    expect(await database.db.selectFrom('worker_stats_hour').select('accepted_difficulty').execute()).toEqual([
      { accepted_difficulty: '2' },
    ]);
    // The account's half hours are kept for good.
    const halves = await database.db.selectFrom('account_stats_half_hour').select('accepted_difficulty').execute();
    expect(halves.map((h) => h.accepted_difficulty).sort()).toEqual(['1', '2']);
  });

  it('stops at its budget and carries on at the next run', async () => {
    await history();
    const cut = await runWorkerRollup(database.db, NOW, { batchesPerTransaction: 5, budgetMs: -1 });
    expect(cut).toMatchObject({ batches: 5, unfinished: true, minutesDeleted: 0 });
    const rest = await runWorkerRollup(database.db, NOW, { batchesPerTransaction: 50 });
    expect(rest.unfinished).toBe(false);
    const unrolled = await database.db
      .selectFrom('share_batches')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .where('rolled_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(unrolled.n)).toBe(1); // the current minute's
  });

  it('is declared as a singleton job every minute, run at start', () => {
    expect(workerRollupJob()).toMatchObject({
      name: 'worker-rollup',
      everyMs: 60_000,
      offsetMs: 5_000,
      runOnStart: true,
      singleton: true,
    });
  });
});
