import { ALGORITHM_KEYS, type AlgorithmKey } from '@lodestone/domain';
import { sql, type Transaction } from 'kysely';
import type { DB, Executor, WorkerPeriodKind } from '../../schema.js';
import {
  ADD_TO_ACCOUNT_HALF_HOUR,
  ADD_TO_WORKER_HOUR,
  BATCH_MINUTE,
  bin,
  CLEAN,
  DIRTY,
  SUMMED_DELTAS,
  UNROLLED_DELTAS,
} from './sql.js';

/**
 * The worker rollups (migration 0005): minute rows rolled into half hours, hours and the per-period
 * totals the dashboard reads, and the retention of minute and hour rows.
 */

/**
 * The rollup job and worker removal both move minute-row deltas into the rollups; this transaction
 * lock makes them take turns, so neither adds a delta the other already moved. (Both also lock the
 * rows, but in different orders: the shared lock keeps them from deadlocking.) Arbitrary constant:
 * 'lode' 'roll' in ASCII.
 */
const ROLLUP_LOCK_KEY = '7813574265385479276';

/** Takes the rollup lock until the end of the transaction (waits for a rollup or removal in progress). */
export async function lockWorkerRollups(trx: Transaction<DB>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${ROLLUP_LOCK_KEY}::bigint)`.execute(trx);
}

export interface RollUpResult {
  /** Share batches marked rolled. */
  batches: number;
  /** Minute rows whose deltas were added to the rollups. */
  rows: number;
}

/**
 * Rolls up to `maxBatches` share batches of minutes before `completeBefore` (oldest first): the workers with dirty
 * minute rows in their minutes are locked first, in the order accounting locks workers (account and name in code
 * units, a pool port's worker before a solo port's of the same name; so the two never deadlock: accounting locks a
 * worker before its minute rows too), then those rows; their deltas are added to
 * worker_stats_hour, account_stats_half_hour and every worker period they fall in and subtracted from the workers'
 * unrolled figures, rolled_* set to the rows' values, and the batches marked rolled at `now`. Inside the caller's
 * transaction, which must hold lockWorkerRollups. Running it again changes nothing.
 */
export async function rollUpWorkerStats(
  trx: Transaction<DB>,
  options: { completeBefore: Date; now: Date; maxBatches: number },
): Promise<RollUpResult> {
  // The batches and their workers, locked. A batch committing after this statement's snapshot is not taken (it stays
  // for the next run), and rows it dirtied of workers not locked here are left dirty: their worker rows may be held by
  // accounting, which would wait for those very minute rows. (The lists go back as text: both engines read that.)
  const { rows: taken } = await sql<{ batches: string[] | null; workers: string[] | null }>`
    with batch as materialized (
      select b.id, b.algorithm, ${BATCH_MINUTE} as minute
        from share_batches b
       where b.rolled_at is null
         and greatest(b.interval_start, b.interval_end - interval '1 millisecond') < ${options.completeBefore}
       order by b.interval_end, b.id
       limit ${options.maxBatches}
    ),
    owners as materialized (
      select w.id from workers w
       where w.id in (select s.worker_id
                        from worker_stats_minute s
                        join (select distinct algorithm, minute from batch) m
                          on m.algorithm = s.algorithm and m.minute = s.minute
                       where ${DIRTY})
       order by w.account collate "C", w.name collate "C", w.solo, w.id
         for update
    )
    select (select array_agg(id::text) from batch) as batches, (select array_agg(id::text) from owners) as workers
  `.execute(trx);
  const batches = taken[0]?.batches ?? [];
  const workers = taken[0]?.workers ?? [];
  if (batches.length === 0) return { batches: 0, rows: 0 };
  const { rows } = await sql<{ batches: string | number | bigint; rows: string | number | bigint }>`
    with batch as materialized (
      select b.id, b.algorithm, ${BATCH_MINUTE} as minute from share_batches b where b.id = any(string_to_array(${batches.join(',')}, ',')::uuid[])
    ),
    minutes as (select distinct algorithm, minute from batch),
    locked as materialized (
      select s.worker_id, w.account, s.algorithm, s.minute,
             s.accepted_difficulty, s.valid, s.invalid, s.stale,
             ${UNROLLED_DELTAS}
        from worker_stats_minute s
        join minutes m on m.algorithm = s.algorithm and m.minute = s.minute
        join workers w on w.id = s.worker_id
       where ${DIRTY} and s.worker_id = any(string_to_array(${workers.join(',')}, ',')::int8[])
       order by w.account collate "C", w.name collate "C", w.solo, s.minute
         for update of s
    ),
    unrolled as (
      update workers w
         set unrolled_difficulty = w.unrolled_difficulty - d.difficulty, unrolled_valid = w.unrolled_valid - d.valid,
             unrolled_invalid = w.unrolled_invalid - d.invalid, unrolled_stale = w.unrolled_stale - d.stale
        from (select worker_id, sum(d_difficulty) as difficulty, sum(d_valid) as valid, sum(d_invalid) as invalid,
                     sum(d_stale) as stale
                from locked
               group by worker_id) d
       where w.id = d.worker_id
    ),
    marked as (
      update worker_stats_minute s
         set rolled_difficulty = l.accepted_difficulty, rolled_valid = l.valid,
             rolled_invalid = l.invalid, rolled_stale = l.stale
        from locked l
       where s.worker_id = l.worker_id and s.minute = l.minute
    ),
    hours as (
      insert into worker_stats_hour as h
             (worker_id, algorithm, hour, accepted_difficulty, valid, invalid, stale, active_minutes)
      select worker_id, algorithm, ${bin(sql`minute`, 3600)}, ${SUMMED_DELTAS} from locked group by 1, 2, 3
      ${ADD_TO_WORKER_HOUR}
    ),
    accounts as (
      insert into account_stats_half_hour as a
             (account, algorithm, half_hour, accepted_difficulty, valid, invalid, stale, worker_minutes)
      select account, algorithm, ${bin(sql`minute`, 1800)}, ${SUMMED_DELTAS} from locked group by 1, 2, 3
      ${ADD_TO_ACCOUNT_HALF_HOUR}
    ),
    periods as (
      insert into worker_period_totals as t (kind, period_from, worker_id, accepted_difficulty, valid, invalid, stale)
      select p.kind, p.period_from, l.worker_id, sum(l.d_difficulty), sum(l.d_valid), sum(l.d_invalid),
             sum(l.d_stale)
        from locked l
        join worker_total_periods p
          on l.minute >= p.period_from and l.minute < p.period_from + make_interval(mins => p.minutes)
       group by 1, 2, 3
      on conflict (kind, period_from, worker_id) do update set
             accepted_difficulty = t.accepted_difficulty + excluded.accepted_difficulty,
             valid = t.valid + excluded.valid,
             invalid = t.invalid + excluded.invalid,
             stale = t.stale + excluded.stale
    ),
    done as (
      update share_batches set rolled_at = ${options.now} where id in (select id from batch)
    )
    select (select count(*) from batch) as batches, (select count(*) from locked) as rows
  `.execute(trx);
  const row = rows[0];
  return { batches: Number(row?.batches ?? 0), rows: Number(row?.rows ?? 0) };
}

export interface WorkerPeriod {
  kind: WorkerPeriodKind;
  /** First minute (for 'day': first hour) of the period. */
  from: Date;
  minutes: number;
}

/**
 * The period a 'day' read wants: the 24 complete hours from `dayFrom` and the hour in progress after
 * them (25 hours). Holding the current hour too, its totals are all a reader needs of the rollups:
 * the roll-up adds each minute's deltas to it as they come.
 */
export function dayPeriod(dayFrom: Date): WorkerPeriod {
  return { kind: 'day', from: dayFrom, minutes: 1500 };
}

/** The period a statistics-window read wants: its complete minutes and the current one. */
export function windowPeriod(windowFrom: Date, windowMinutes: number): WorkerPeriod {
  return { kind: 'window', from: windowFrom, minutes: windowMinutes + 1 };
}

/**
 * Makes worker_period_totals hold exactly the `wanted` periods: periods no longer wanted are
 * deleted, missing ones computed from what is rolled up (a 'day' from the worker hours, a 'window'
 * from the minute rows' rolled_* values) and listed. Returns how many it computed. In the caller's
 * transaction, which must hold lockWorkerRollups (a roll-up meanwhile would add deltas to a period
 * being computed from values it already has).
 */
export async function refreshWorkerPeriodTotals(
  trx: Transaction<DB>,
  wanted: readonly WorkerPeriod[],
): Promise<number> {
  const key = (p: { kind: string; from: Date; minutes: number }) => `${p.kind}|${p.from.getTime()}|${p.minutes}`;
  const listed = await trx.selectFrom('worker_total_periods').selectAll().execute();
  const want = new Set(wanted.map(key));
  for (const p of listed) {
    if (want.has(key({ kind: p.kind, from: p.period_from, minutes: p.minutes }))) continue;
    await trx
      .deleteFrom('worker_total_periods')
      .where('kind', '=', p.kind)
      .where('period_from', '=', p.period_from)
      .execute();
    await trx
      .deleteFrom('worker_period_totals')
      .where('kind', '=', p.kind)
      .where('period_from', '=', p.period_from)
      .execute();
  }
  const have = new Set(listed.map((p) => key({ kind: p.kind, from: p.period_from, minutes: p.minutes })));
  let computed = 0;
  for (const p of wanted) {
    if (have.has(key(p))) continue;
    const to = new Date(p.from.getTime() + p.minutes * 60_000);
    if (p.kind === 'day') {
      if (p.from.getTime() % 3_600_000 !== 0 || p.minutes % 60 !== 0)
        throw new RangeError('a day period is whole hours');
      await sql`
        insert into worker_period_totals (kind, period_from, worker_id, accepted_difficulty, valid, invalid, stale)
        select 'day', ${p.from}, worker_id, sum(accepted_difficulty), sum(valid), sum(invalid), sum(stale)
          from worker_stats_hour
         where hour >= ${p.from} and hour < ${to}
         group by worker_id
      `.execute(trx);
    } else {
      // Naming every algorithm lets the range be read through the (algorithm, minute) index.
      await sql`
        insert into worker_period_totals (kind, period_from, worker_id, accepted_difficulty, valid, invalid, stale)
        select 'window', ${p.from}, worker_id, sum(rolled_difficulty), sum(rolled_valid), sum(rolled_invalid),
               sum(rolled_stale)
          from worker_stats_minute
         where algorithm in (${sql.join(ALGORITHM_KEYS)}) and minute >= ${p.from} and minute < ${to}
         group by worker_id
        having sum(rolled_valid) + sum(rolled_invalid) + sum(rolled_stale) > 0
      `.execute(trx);
    }
    await trx
      .insertInto('worker_total_periods')
      .values({ kind: p.kind, period_from: p.from, minutes: p.minutes })
      .execute();
    computed += 1;
  }
  return computed;
}

/**
 * Deletes up to `limit` minute rows of one algorithm older than `before` that are wholly rolled up;
 * returns how many. Rows with deltas are never deleted (the next rollup needs them).
 */
export async function pruneWorkerMinutes(
  db: Executor,
  algorithm: AlgorithmKey,
  before: Date,
  limit: number,
): Promise<number> {
  const result = await sql`
    delete from worker_stats_minute
     where (worker_id, minute) in (
       select worker_id, minute from worker_stats_minute
        where algorithm = ${algorithm} and minute < ${before} and ${CLEAN}
        limit ${limit})
  `.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Deletes up to `limit` worker-hour rows older than `before`; returns how many. */
export async function pruneWorkerHours(db: Executor, before: Date, limit: number): Promise<number> {
  const result = await sql`
    delete from worker_stats_hour
     where (worker_id, hour) in (select worker_id, hour from worker_stats_hour where hour < ${before} limit ${limit})
  `.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
