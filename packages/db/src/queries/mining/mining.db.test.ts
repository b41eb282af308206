import type { AlgorithmKey } from '@lodestone/domain';
import { type Kysely, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../connection.js';
import type { DB, Executor } from '../../schema.js';
import {
  backendPid,
  createTestDatabase,
  emptyTestDatabase,
  someSessionWaitsFor,
  testEngines,
  workerUnrolledDrift,
} from '../../testing.js';
import { savePoolStats } from '../poolStats.js';
import { recordShareBatch } from '../shareBatches.js';
import { recordWorkerShares } from '../workerStats.js';
import { accountDifficultyByDay, mostActiveAlgorithmSince } from './history.js';
import {
  accountDifficultyByHalfHour,
  accountMiningTotals,
  accountWorkerRows,
  type MiningRange,
  miningRates,
} from './reads.js';
import { removeWorkers } from './removal.js';
import {
  dayPeriod,
  lockWorkerRollups,
  pruneWorkerHours,
  pruneWorkerMinutes,
  refreshWorkerPeriodTotals,
  rollUpWorkerStats,
  windowPeriod,
} from './rollups.js';

const T = (iso: string) => new Date(`2024-05-06T${iso}Z`);

interface Counts {
  account: string;
  name: string;
  difficulty?: string;
  valid?: number;
  invalid?: number;
  stale?: number;
  solo?: boolean;
}

let batchNumber = 0;

/**
 * What accounting does with a share batch (apps/server/src/jobs/accounting.ts), reduced to the
 * statistics: the batch row, the workers, and the minute of the batch's last instant.
 */
async function applyBatch(db: Kysely<DB>, end: Date, workers: Counts[], algorithm: AlgorithmKey = 'scrypt') {
  batchNumber += 1;
  await db.transaction().execute(async (trx) => {
    await recordShareBatch(trx, {
      id: `00000000-0000-4000-8000-${batchNumber.toString(16).padStart(12, '0')}`,
      node: 'node-1',
      algorithm,
      intervalStart: new Date(end.getTime() - 5000),
      intervalEnd: end,
    });
    const minute = new Date(Math.floor((end.getTime() - 1) / 60_000) * 60_000);
    await recordWorkerShares(
      trx,
      algorithm,
      minute,
      workers.map((w) => ({
        account: w.account,
        algorithm,
        name: w.name,
        seenAt: new Date(end.getTime() - 5000),
        lastShareAt: new Date(end.getTime() - 1000),
        lastAcceptedAt: (w.valid ?? 0) > 0 ? new Date(end.getTime() - 1000) : null,
        acceptedDifficulty: w.difficulty ?? '0',
        counts: { valid: w.valid ?? 0, invalid: w.invalid ?? 0, stale: w.stale ?? 0 },
        ...(w.solo && { solo: true }),
      })),
    );
  });
}

async function rollUp(db: Kysely<DB>, completeBefore: Date, maxBatches = 10_000) {
  return db.transaction().execute(async (trx) => {
    await lockWorkerRollups(trx);
    return rollUpWorkerStats(trx, { completeBefore, now: completeBefore, maxBatches });
  });
}

/** A promise and what settles it: one side of a test waits until the other opens it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** The reference: the account's figures summed straight from the minute rows. */
async function fromMinutes(db: Executor, account: string, from: Date, to: Date) {
  const { rows } = await sql<{ d: string; v: string; i: string; s: string }>`
    select coalesce(sum(s.accepted_difficulty), 0) as d, coalesce(sum(s.valid), 0) as v,
           coalesce(sum(s.invalid), 0) as i, coalesce(sum(s.stale), 0) as s
      from worker_stats_minute s join workers w on w.id = s.worker_id
     where w.account = ${account} and s.minute >= ${from} and s.minute < ${to}
  `.execute(db);
  const r = rows[0];
  return { d: Number(r?.d), v: Number(r?.v), i: Number(r?.i), s: Number(r?.s) };
}

const range = (account: string, over: Partial<MiningRange> = {}): MiningRange => ({
  account,
  algorithm: 'scrypt',
  windowFrom: T('11:50:00'),
  windowMinutes: 10,
  dayFrom: T('00:00:00'),
  to: T('12:00:30'),
  ...over,
});

describe.each(testEngines())('mining queries and worker rollups on %s', (engine) => {
  let database: Database;
  let db: Kysely<DB>;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
    db = database.db;
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await emptyTestDatabase(db);
  });
  // Whatever a test did — batches, rollups, removals, a batch racing the job — each worker's unrolled figures are
  // what its minute rows hold beyond the rollups (migration 0034).
  afterEach(async () => {
    expect(await workerUnrolledDrift(db)).toEqual([]);
  });

  /** Traffic over two hours and a bit: alice has rig1 and rig2, bob one rig. */
  async function traffic() {
    await applyBatch(db, T('10:10:05'), [{ account: 'alice', name: 'rig1', difficulty: '100.5', valid: 10, stale: 1 }]);
    await applyBatch(db, T('10:40:00'), [
      { account: 'alice', name: 'rig1', difficulty: '50', valid: 5, invalid: 2 },
      { account: 'alice', name: 'rig2', difficulty: '25', valid: 1 },
      { account: 'bob', name: 'rig1', difficulty: '7', valid: 7 },
    ]);
    await applyBatch(db, T('11:59:10'), [{ account: 'alice', name: 'rig1', difficulty: '0.25', valid: 1 }]);
    // The current minute (12:00): not complete, so not rolled yet.
    await applyBatch(db, T('12:00:20'), [{ account: 'alice', name: 'rig2', difficulty: '3', valid: 3 }]);
  }

  it('rolls complete minutes into hours and half hours exactly once', async () => {
    await traffic();
    expect(await rollUp(db, T('12:00:00'))).toEqual({ batches: 3, rows: 5 });
    const hours = await db
      .selectFrom('worker_stats_hour as h')
      .innerJoin('workers as w', 'w.id', 'h.worker_id')
      .select([
        'w.account',
        'w.name',
        'h.hour',
        'h.accepted_difficulty',
        'h.valid',
        'h.invalid',
        'h.stale',
        'h.active_minutes',
      ])
      .orderBy('w.account')
      .orderBy('w.name')
      .orderBy('h.hour')
      .execute();
    expect(hours.map((h) => ({ ...h, accepted_difficulty: Number(h.accepted_difficulty) }))).toEqual([
      {
        account: 'alice',
        name: 'rig1',
        hour: T('10:00:00'),
        accepted_difficulty: 150.5,
        valid: 15,
        invalid: 2,
        stale: 1,
        active_minutes: 2,
      },
      {
        account: 'alice',
        name: 'rig1',
        hour: T('11:00:00'),
        accepted_difficulty: 0.25,
        valid: 1,
        invalid: 0,
        stale: 0,
        active_minutes: 1,
      },
      {
        account: 'alice',
        name: 'rig2',
        hour: T('10:00:00'),
        accepted_difficulty: 25,
        valid: 1,
        invalid: 0,
        stale: 0,
        active_minutes: 1,
      },
      {
        account: 'bob',
        name: 'rig1',
        hour: T('10:00:00'),
        accepted_difficulty: 7,
        valid: 7,
        invalid: 0,
        stale: 0,
        active_minutes: 1,
      },
    ]);
    const halves = await db
      .selectFrom('account_stats_half_hour')
      .select(['account', 'half_hour', 'accepted_difficulty', 'valid', 'worker_minutes'])
      .orderBy('account')
      .orderBy('half_hour')
      .execute();
    expect(halves.map((h) => ({ ...h, accepted_difficulty: Number(h.accepted_difficulty) }))).toEqual([
      { account: 'alice', half_hour: T('10:00:00'), accepted_difficulty: 100.5, valid: 10n, worker_minutes: 1 },
      { account: 'alice', half_hour: T('10:30:00'), accepted_difficulty: 75, valid: 6n, worker_minutes: 2 },
      { account: 'alice', half_hour: T('11:30:00'), accepted_difficulty: 0.25, valid: 1n, worker_minutes: 1 },
      { account: 'bob', half_hour: T('10:30:00'), accepted_difficulty: 7, valid: 7n, worker_minutes: 1 },
    ]);
    const unrolled = await db
      .selectFrom('share_batches')
      .select('interval_end')
      .where('rolled_at', 'is', null)
      .execute();
    expect(unrolled).toEqual([{ interval_end: T('12:00:20') }]);

    // Again: nothing left to roll, nothing changes.
    expect(await rollUp(db, T('12:00:00'))).toEqual({ batches: 0, rows: 0 });
    expect(await db.selectFrom('account_stats_half_hour').select('accepted_difficulty').execute()).toHaveLength(4);
    // The next minute's run takes the 12:00 batch.
    expect(await rollUp(db, T('12:01:00'))).toEqual({ batches: 1, rows: 1 });
  });

  it('reads the same figures before rolling up, after, and around a late batch', async () => {
    await traffic();
    const read = async () => ({
      totals: await accountMiningTotals(db, range('alice')),
      halves: await accountDifficultyByHalfHour(db, 'alice', 'scrypt', T('10:00:00'), T('12:30:00')),
      workers: await accountWorkerRows(db, range('alice')),
    });
    const before = await read();
    expect(before.totals).toEqual({
      totalWorkers: 2,
      activeWorkers: 2,
      // 11:59 and 12:00 are in the window [11:50, 12:00:30)
      windowDifficulty: '3.25',
      ppsWindowDifficulty: '3.25',
      dayDifficulty: '178.75',
      firstSeenAt: T('10:10:00'), // rig1's first batch
    });
    const reference = await fromMinutes(db, 'alice', T('00:00:00'), T('12:00:30'));
    expect(reference.d).toBe(178.75);
    expect(before.halves.map((h) => [h.start.toISOString().slice(11, 16), Number(h.acceptedDifficulty)])).toEqual([
      ['10:00', 100.5],
      ['10:30', 75],
      ['11:30', 0.25],
      ['12:00', 3],
    ]);
    expect(before.workers.map((w) => ({ ...w, id: undefined }))).toEqual([
      {
        id: undefined,
        name: 'rig1',
        label: null,
        solo: false,
        windowDifficulty: '0.25',
        dayDifficulty: '150.75',
        valid: 16,
        invalid: 2,
        stale: 1,
        firstSeenAt: T('10:10:00'),
        lastAcceptedAt: T('11:59:09'),
      },
      {
        id: undefined,
        name: 'rig2',
        label: null,
        solo: false,
        windowDifficulty: '3',
        dayDifficulty: '28',
        valid: 4,
        invalid: 0,
        stale: 0,
        firstSeenAt: T('10:39:55'),
        lastAcceptedAt: T('12:00:19'),
      },
    ]);

    await rollUp(db, T('12:00:00'));
    expect(await read()).toEqual(before);

    // A batch of 10:40 delivered late (a node cut off from the bus) adds to a rolled minute.
    await applyBatch(db, T('10:40:00'), [{ account: 'alice', name: 'rig1', difficulty: '1000', valid: 1, invalid: 1 }]);
    const late = await read();
    expect(late.totals.dayDifficulty).toBe('1178.75');
    // 10:30: rig1's 5 and rig2's 1 accepted shares, and the late one: 7.
    expect(late.halves[1]).toEqual({ start: T('10:30:00'), acceptedDifficulty: '1075', validShares: 7 });
    expect(late.workers[0]).toMatchObject({ name: 'rig1', dayDifficulty: '1150.75', valid: 17, invalid: 3 });
    expect(await rollUp(db, T('12:00:00'))).toEqual({ batches: 1, rows: 1 });
    const after = await read();
    expect(after.totals).toEqual(late.totals);
    expect(after.halves.map((h) => Number(h.acceptedDifficulty))).toEqual(
      late.halves.map((h) => Number(h.acceptedDifficulty)),
    );
    expect(after.workers).toEqual(late.workers);
    expect((await fromMinutes(db, 'alice', T('00:00:00'), T('12:00:30'))).d).toBe(1178.75);
  });

  it('reads the workers’ 24 hours and window from their period totals once the job has them, with the same result', async () => {
    await traffic();
    // Now 12:00:30: the 24 hours are 2024-05-05 12:00 – 12:00 today, then the hour in progress; the
    // window is 11:50 – 12:00:30.
    const r = range('alice', { dayFrom: new Date('2024-05-05T12:00:00Z') });
    const periods = [dayPeriod(r.dayFrom), windowPeriod(r.windowFrom, 10)];
    const expected = await accountWorkerRows(db, r); // no totals yet: from the hours, minutes and deltas
    const expectedTotals = await accountMiningTotals(db, r);
    await rollUp(db, T('12:00:00'));
    const refresh = (wanted = periods) =>
      db.transaction().execute(async (trx) => {
        await lockWorkerRollups(trx);
        return refreshWorkerPeriodTotals(trx, wanted);
      });
    expect(await refresh()).toBe(2);
    expect(await refresh()).toBe(0);
    const totals = await db
      .selectFrom('worker_period_totals as t')
      .innerJoin('workers as w', 'w.id', 't.worker_id')
      .select(['t.kind', 'w.account', 'w.name', 't.accepted_difficulty', 't.valid'])
      .orderBy('t.kind')
      .orderBy('w.account')
      .orderBy('w.name')
      .execute();
    expect(totals).toEqual([
      { kind: 'day', account: 'alice', name: 'rig1', accepted_difficulty: '150.75', valid: 16n },
      { kind: 'day', account: 'alice', name: 'rig2', accepted_difficulty: '25', valid: 1n },
      { kind: 'day', account: 'bob', name: 'rig1', accepted_difficulty: '7', valid: 7n },
      // The window's rolled part: 11:59 (12:00 is not rolled up yet, a delta).
      { kind: 'window', account: 'alice', name: 'rig1', accepted_difficulty: '0.25', valid: 1n },
    ]);
    expect(await accountWorkerRows(db, r)).toEqual(expected);
    expect(await accountMiningTotals(db, r)).toEqual(expectedTotals);
    // Proof that the totals are what is read: without the rows they sum, nothing changes.
    await sql`delete from worker_stats_hour where hour < ${T('12:00:00')}`.execute(db);
    await sql`delete from worker_stats_minute where minute < ${T('12:00:00')}`.execute(db);
    expect(await accountWorkerRows(db, r)).toEqual(expected);
    expect(await accountMiningTotals(db, r)).toEqual(expectedTotals);

    // A late batch in both periods: a delta first, then in the totals once rolled up.
    await applyBatch(db, T('11:59:30'), [{ account: 'alice', name: 'rig1', difficulty: '1000', valid: 1 }]);
    const late = await accountWorkerRows(db, r);
    expect(late[0]).toMatchObject({ name: 'rig1', windowDifficulty: '1000.25', dayDifficulty: '1150.75', valid: 17 });
    const lateTotals = await accountMiningTotals(db, r);
    expect(lateTotals).toMatchObject({ windowDifficulty: '1003.25', activeWorkers: 2 });
    await rollUp(db, T('12:00:00'));
    expect(await accountWorkerRows(db, r)).toEqual(late);
    expect(await accountMiningTotals(db, r)).toEqual(lateTotals);

    // The day's totals hold the hour in progress too: rolling up its first minute (rig2's 3) moves it
    // from the deltas into them, and the answer stays the same.
    expect(await rollUp(db, T('12:01:00'))).toEqual({ batches: 1, rows: 1 });
    const rig2Day = await db
      .selectFrom('worker_period_totals as t')
      .innerJoin('workers as w', 'w.id', 't.worker_id')
      .select(['t.accepted_difficulty', 't.valid'])
      .where('t.kind', '=', 'day')
      .where('w.account', '=', 'alice')
      .where('w.name', '=', 'rig2')
      .executeTakeFirstOrThrow();
    expect(rig2Day).toEqual({ accepted_difficulty: '28', valid: 4n });
    expect(await accountWorkerRows(db, r)).toEqual(late);
    expect(await accountMiningTotals(db, r)).toEqual(lateTotals);

    // Periods no longer wanted are dropped; a reader whose periods are missing reads the rows
    // themselves — of which only the late batch's 11:59 row and its hour are left since the deletion.
    expect(await refresh([dayPeriod(new Date('2024-05-05T13:00:00Z'))])).toBe(1);
    expect(await db.selectFrom('worker_total_periods').select('kind').execute()).toEqual([{ kind: 'day' }]);
    expect((await accountWorkerRows(db, r))[0]).toMatchObject({ name: 'rig1', dayDifficulty: '1000' });
    expect((await accountMiningTotals(db, r)).windowDifficulty).toBe('1003');
  });

  it('adds what is not rolled up from the workers’ own figures while all of it is in the window, else from the minute rows', async () => {
    await traffic();
    const r = range('alice', { dayFrom: new Date('2024-05-05T12:00:00Z') });
    await rollUp(db, T('12:00:00'));
    await db.transaction().execute(async (trx) => {
      await lockWorkerRollups(trx);
      await refreshWorkerPeriodTotals(trx, [dayPeriod(r.dayFrom), windowPeriod(r.windowFrom, 10)]);
    });
    const read = async () => ({ workers: await accountWorkerRows(db, r), totals: await accountMiningTotals(db, r) });
    const expected = await read();
    expect(expected.workers[1]).toMatchObject({ name: 'rig2', windowDifficulty: '3', dayDifficulty: '28', valid: 4 });
    // Proof of which figures are read: rig2's unrolled figures (its 12:00 shares), changed behind the minute rows'
    // back, show in both periods while every unrolled minute (12:00) is inside the window …
    const skew = (by: number) =>
      sql`update workers set unrolled_difficulty = unrolled_difficulty + ${by} where account = 'alice' and name = 'rig2'`.execute(
        db,
      );
    await skew(1000);
    expect((await read()).workers[1]).toMatchObject({ windowDifficulty: '1003', dayDifficulty: '1028' });
    expect((await read()).totals).toMatchObject({ windowDifficulty: '1003.25', dayDifficulty: '1178.75' });
    // … and not once a minute before the window is unrolled (a late 10:40 batch): then the minute rows are summed.
    await applyBatch(db, T('10:40:00'), [{ account: 'alice', name: 'rig1', difficulty: '1000', valid: 1 }]);
    const late = await read();
    expect(late.workers[1]).toEqual(expected.workers[1]);
    expect(late.workers[0]).toMatchObject({ name: 'rig1', windowDifficulty: '0.25', dayDifficulty: '1150.75' });
    expect(late.totals).toMatchObject({ windowDifficulty: '3.25', dayDifficulty: '1178.75' });
    await skew(-1000);
    // A batch of a minute after the reader's (a node's clock ahead) is not in its figures either.
    await rollUp(db, T('12:00:00'));
    await applyBatch(db, T('12:01:10'), [{ account: 'alice', name: 'rig2', difficulty: '50', valid: 1 }]);
    expect((await read()).workers[1]).toEqual({ ...expected.workers[1], lastAcceptedAt: T('12:01:09') });
  });

  it('takes at most maxBatches per run, oldest first', async () => {
    await traffic();
    expect(await rollUp(db, T('12:00:00'), 2)).toEqual({ batches: 2, rows: 4 });
    expect((await accountMiningTotals(db, range('alice'))).dayDifficulty).toBe('178.75');
    expect(await rollUp(db, T('12:00:00'), 2)).toEqual({ batches: 1, rows: 1 });
    expect((await accountMiningTotals(db, range('alice'))).dayDifficulty).toBe('178.75');
  });

  it('removes workers with their rows and keeps the account history', async () => {
    await traffic();
    await rollUp(db, T('12:00:00'));
    await applyBatch(db, T('12:00:25'), [{ account: 'alice', name: 'rig2', difficulty: '2', valid: 2 }]);
    const halvesBefore = await accountDifficultyByHalfHour(db, 'alice', 'scrypt', T('10:00:00'), T('12:30:00'));

    // rig2 has no accepted share since 12:00:30? It has (12:00); rig1 has none since 12:00 → offline.
    const offline = await db.transaction().execute(async (trx) => {
      await lockWorkerRollups(trx);
      return removeWorkers(trx, 'alice', 'scrypt', { offlineSince: T('12:00:00') });
    });
    expect(offline.map((w) => w.name)).toEqual(['rig1']);
    const rig2 = await db.selectFrom('workers').select('id').where('name', '=', 'rig2').executeTakeFirstOrThrow();
    const one = await db.transaction().execute(async (trx) => {
      await lockWorkerRollups(trx);
      return removeWorkers(trx, 'alice', 'scrypt', { id: rig2.id });
    });
    expect(one).toEqual([{ id: rig2.id, name: 'rig2' }]);

    expect(await db.selectFrom('workers').select('account').execute()).toEqual([{ account: 'bob' }]);
    expect(await db.selectFrom('worker_stats_hour').select('worker_id').execute()).toHaveLength(1);
    // The account's half hours still add up to what it mined, the unrolled 12:00 minute included.
    const halvesAfter = await accountDifficultyByHalfHour(db, 'alice', 'scrypt', T('10:00:00'), T('12:30:00'));
    expect(halvesAfter).toEqual(halvesBefore);
    expect(halvesAfter.at(-1)).toEqual({ start: T('12:00:00'), acceptedDifficulty: '5', validShares: 5 });
    // Rolling the 12:00 batches now adds nothing for alice (her rows are gone) and keeps bob's.
    await rollUp(db, T('12:01:00'));
    expect(await accountDifficultyByHalfHour(db, 'alice', 'scrypt', T('10:00:00'), T('12:30:00'))).toEqual(halvesAfter);
    expect((await accountMiningTotals(db, range('alice'))).totalWorkers).toBe(0);

    // A worker of another account or algorithm is not found under this one.
    const bob = await db.selectFrom('workers').select('id').executeTakeFirstOrThrow();
    const none = await db.transaction().execute(async (trx) => {
      await lockWorkerRollups(trx);
      return [
        ...(await removeWorkers(trx, 'alice', 'scrypt', { id: bob.id })),
        ...(await removeWorkers(trx, 'bob', 'sha256', { id: bob.id })),
      ];
    });
    expect(none).toEqual([]);
  });

  it('prunes only wholly rolled minute rows, and old hours', async () => {
    await traffic();
    await rollUp(db, T('12:00:00'));
    await applyBatch(db, T('10:40:00'), [{ account: 'alice', name: 'rig1', difficulty: '1', valid: 1 }]); // late: dirty again
    // Rolled rows before 12:00 go (rig1 at 10:10 and 11:59, rig2 and bob at 10:39); rig1's 10:39 row
    // has the late delta and the 12:00 row is not rolled yet: both stay.
    expect(await pruneWorkerMinutes(db, 'scrypt', T('12:00:00'), 1000)).toBe(4);
    const left = await db.selectFrom('worker_stats_minute').select('minute').orderBy('minute').execute();
    expect(left.map((r) => r.minute.toISOString().slice(11, 16))).toEqual(['10:39', '12:00']);
    expect(await pruneWorkerMinutes(db, 'sha256', T('12:00:00'), 1000)).toBe(0);
    expect(await pruneWorkerHours(db, T('11:00:00'), 2)).toBe(2);
    expect(await pruneWorkerHours(db, T('11:00:00'), 2)).toBe(1);
    expect(await pruneWorkerHours(db, T('11:00:00'), 2)).toBe(0);
    // The figures of what is left still read from the rollups and the deltas.
    expect((await accountMiningTotals(db, range('alice', { dayFrom: T('11:00:00') }))).dayDifficulty).toBe('3.25');
  });

  it('gives days in a time zone and the most active algorithm from the rollups', async () => {
    // 23:40 UTC on the 5th is 01:40 on the 6th in Madrid (UTC+2 in May).
    await applyBatch(db, new Date('2024-05-05T23:40:00Z'), [
      { account: 'alice', name: 'rig1', difficulty: '10', valid: 1 },
    ]);
    await applyBatch(db, T('10:00:00'), [{ account: 'alice', name: 'rig1', difficulty: '5', valid: 1 }]);
    await applyBatch(db, T('10:00:00'), [{ account: 'alice', name: 'asic', difficulty: '1', valid: 1 }], 'sha256');
    await applyBatch(db, T('10:01:00'), [{ account: 'alice', name: 'asic', difficulty: '1', valid: 1 }], 'sha256');
    await rollUp(db, T('10:00:00'));
    const days = (timeZone: string) =>
      accountDifficultyByDay(db, {
        account: 'alice',
        algorithm: 'scrypt',
        from: new Date('2024-05-05T00:00:00Z'),
        to: T('12:00:00'),
        timeZone,
      });
    expect(await days('UTC')).toEqual([
      { day: '2024-05-05', acceptedDifficulty: '10' },
      { day: '2024-05-06', acceptedDifficulty: '5' },
    ]);
    expect(await days('Europe/Madrid')).toEqual([{ day: '2024-05-06', acceptedDifficulty: '15' }]);
    // Two worker-minutes each (sha256: one rolled, one not yet): the most recent wins.
    expect(await mostActiveAlgorithmSince(db, 'alice', new Date('2024-05-01T00:00:00Z'))).toBe('sha256');
    expect(await mostActiveAlgorithmSince(db, 'alice', T('09:00:00'))).toBe('sha256');
    expect(await mostActiveAlgorithmSince(db, 'nobody', T('09:00:00'))).toBeUndefined();
  });

  it('reads the newest PPS rate and BTC price', async () => {
    expect(await miningRates(db, 'scrypt')).toEqual({ profit: undefined, btcUsd: undefined });
    for (const [at, profit] of [
      ['10:00:00', '0.000001'],
      ['10:00:20', '0.000002'],
    ] as const) {
      await savePoolStats(db, {
        algorithm: 'scrypt',
        taken_at: T(at),
        hashrate: '0',
        miners: 0,
        workers: 0,
        profit,
        profit_avg_24h: profit,
      });
    }
    await db
      .insertInto('prices')
      .values([
        { ticker: 'BTC', taken_at: T('09:00:00'), usd: '90000', source: 'test' },
        { ticker: 'BTC', taken_at: T('10:00:00'), usd: '100000.5', source: 'test' },
        { ticker: 'LTC', taken_at: T('11:00:00'), usd: '80', source: 'test' },
      ])
      .execute();
    expect(await miningRates(db, 'scrypt')).toEqual({ profit: '0.000002', btcUsd: '100000.5' });
    expect((await miningRates(db, 'sha256')).profit).toBeUndefined();
  });

  it.runIf(engine === 'postgres')(
    'locks workers in accounting’s order: a pool port’s before the solo port’s of the same name',
    async () => {
      // The solo port's rig1 is created first, so it has the lower id: an order by id would lock it first.
      await applyBatch(db, T('10:40:00'), [{ account: 'alice', name: 'rig1', difficulty: '5', valid: 1, solo: true }]);
      await applyBatch(db, T('10:40:00'), [{ account: 'alice', name: 'rig1', difficulty: '7', valid: 1 }]);
      // Accounting's transaction as far as its first lock: the pool port's worker.
      const held = gate();
      const lockedPool = gate();
      let holder = 0;
      const accounting = db.transaction().execute(async (trx) => {
        holder = await backendPid(trx);
        await sql`select id from workers where account = 'alice' and name = 'rig1' and not solo for update`.execute(
          trx,
        );
        lockedPool.open();
        await held.opened;
        // Then the solo port's, as upsertWorkers takes them: free, because the job waits for the pool's first.
        await sql`select id from workers where account = 'alice' and name = 'rig1' and solo for update`.execute(trx);
      });
      await lockedPool.opened;
      const rolling = rollUp(db, T('12:00:00'));
      await someSessionWaitsFor(db, holder);
      held.open();
      // Neither is chosen as a deadlock's victim: both finish, and the job rolled both workers' rows.
      await accounting;
      expect(await rolling).toEqual({ batches: 2, rows: 2 });
    },
  );

  it.runIf(engine === 'postgres')('loses nothing to a batch committing while the rollup runs', async () => {
    await traffic();
    // Hold a late batch's transaction open after it has written alice.rig1's 10:39 row; the rollup
    // must wait for that row, then roll what it sees, and the batch's own row stays unrolled.
    const held = gate();
    const wrote = gate();
    let holder = 0;
    const batch = db.transaction().execute(async (trx) => {
      holder = await backendPid(trx);
      await recordShareBatch(trx, {
        id: '00000000-0000-4000-8000-00000000ffff',
        node: 'node-2',
        algorithm: 'scrypt',
        intervalStart: T('10:39:55'),
        intervalEnd: T('10:40:00'),
      });
      await recordWorkerShares(trx, 'scrypt', T('10:39:00'), [
        {
          account: 'alice',
          algorithm: 'scrypt',
          name: 'rig1',
          seenAt: T('10:39:55'),
          lastShareAt: T('10:39:59'),
          acceptedDifficulty: '500',
          counts: { valid: 5, invalid: 0, stale: 0 },
        },
      ]);
      wrote.open();
      await held.opened;
    });
    await wrote.opened;
    let finished = false;
    const rolling = rollUp(db, T('12:00:00')).then((result) => {
      finished = true;
      return result;
    });
    // PostgreSQL shows the rollup's session blocked by the batch's (a lock wait), not merely slow.
    await someSessionWaitsFor(db, holder);
    expect(finished).toBe(false); // waiting for the batch's row lock
    held.open();
    await batch;
    // It rolled the three batches it saw, the row with the held batch's 500 included …
    expect(await rolling).toEqual({ batches: 3, rows: 5 });
    // … and the held batch stays unrolled until the next run, which finds nothing more to add.
    expect(await rollUp(db, T('12:00:00'))).toEqual({ batches: 1, rows: 0 });
    const totals = await accountMiningTotals(db, range('alice'));
    expect(totals.dayDifficulty).toBe('678.75');
    const { rows } = await sql<{
      d: string;
    }>`select sum(accepted_difficulty) as d from account_stats_half_hour where account = 'alice'`.execute(db);
    // Everything complete is rolled by now, and exactly once: the current minute's 3 is still a delta.
    expect(Number(rows[0]?.d)).toBe(675.75);
  });
});
