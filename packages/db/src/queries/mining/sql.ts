import type { AlgorithmKey } from '@lodestone/domain';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB, Executor } from '../../schema.js';

/**
 * SQL pieces shared by the worker rollups (rollups.ts), worker removal (removal.ts) and the
 * dashboard's reads (reads.ts, history.ts): bins on UTC, the minute a share batch counts in, and
 * whether a minute row still holds shares the rollups do not have.
 */

/** Bins start at this instant: whole UTC minutes, half hours and hours. */
const ORIGIN = sql.raw(`timestamptz '2000-01-01 00:00:00+00'`);

/**
 * The minute a share batch `b`'s counts went to: accounting's batchMinute, the UTC minute of the
 * batch's last instant.
 */
export const BATCH_MINUTE = sql`date_bin('1 minute', greatest(b.interval_start, b.interval_end - interval '1 millisecond'), ${ORIGIN})`;

/** A minute row holds shares the rollups do not have yet. */
export const DIRTY = sql.raw(
  '(s.accepted_difficulty <> s.rolled_difficulty or s.valid <> s.rolled_valid' +
    ' or s.invalid <> s.rolled_invalid or s.stale <> s.rolled_stale)',
);
/**
 * What a minute row (alias s) holds beyond its rollups: the differences the rollups add (d_difficulty,
 * d_valid, d_invalid, d_stale) and whether the worker newly counts as active in that minute (d_active).
 */
export const UNROLLED_DELTAS = sql.raw(
  's.accepted_difficulty - s.rolled_difficulty as d_difficulty, s.valid - s.rolled_valid as d_valid,' +
    ' s.invalid - s.rolled_invalid as d_invalid, s.stale - s.rolled_stale as d_stale,' +
    ' (s.valid > 0)::int - (s.rolled_valid > 0)::int as d_active',
);
/** The UNROLLED_DELTAS of a group of minute rows summed, in the rollup tables' column order. */
export const SUMMED_DELTAS = sql.raw('sum(d_difficulty), sum(d_valid), sum(d_invalid), sum(d_stale), sum(d_active)');
/** Adds an insert's rows (alias h: worker_stats_hour) to the worker-hour rows already there. */
export const ADD_TO_WORKER_HOUR = sql.raw(
  'on conflict (worker_id, hour) do update set' +
    ' accepted_difficulty = h.accepted_difficulty + excluded.accepted_difficulty,' +
    ' valid = h.valid + excluded.valid, invalid = h.invalid + excluded.invalid,' +
    ' stale = h.stale + excluded.stale, active_minutes = h.active_minutes + excluded.active_minutes',
);
/**
 * Adds an insert's rows (alias a: account_stats_half_hour) to the half-hour rows already there: the
 * conflict clause of every write that folds minutes into an account's half hours.
 */
export const ADD_TO_ACCOUNT_HALF_HOUR = sql.raw(
  'on conflict (account, algorithm, half_hour) do update set' +
    ' accepted_difficulty = a.accepted_difficulty + excluded.accepted_difficulty,' +
    ' valid = a.valid + excluded.valid, invalid = a.invalid + excluded.invalid,' +
    ' stale = a.stale + excluded.stale, worker_minutes = a.worker_minutes + excluded.worker_minutes',
);
/** A minute row wholly rolled up (retention may delete it). */
export const CLEAN = sql.raw(
  'accepted_difficulty = rolled_difficulty and valid = rolled_valid' +
    ' and invalid = rolled_invalid and stale = rolled_stale',
);

/** Start of the UTC-aligned `seconds`-long bin a timestamptz expression falls in. */
export function bin(expression: RawBuilder<unknown>, seconds: number): RawBuilder<Date> {
  return sql<Date>`date_bin(${sql.raw(`'${seconds} seconds'`)}, ${expression}, ${ORIGIN})`;
}

/**
 * Runs a read with PostgreSQL's JIT compiler off. The dashboard's reads are planned as costly (they
 * scan tens of thousands of rows), which crosses jit_above_cost, and compiling them then takes
 * longer (about 50 ms) than running them. Inside the caller's transaction when given one.
 */
export async function withoutJit<T>(db: Executor, read: (db: Executor) => Promise<T>): Promise<T> {
  if (db.isTransaction) {
    await sql`set local jit = off`.execute(db);
    return read(db);
  }
  return (db as Kysely<DB>).transaction().execute(async (trx) => {
    await sql`set local jit = off`.execute(trx);
    return read(trx);
  });
}

/**
 * `from … where …` of the minute rows `s` with deltas of the given workers (a subquery of ids) in
 * `from` ≤ minute < `to`. It starts from the minutes of unrolled batches (a minute or two, normally)
 * and finds their rows through the (algorithm, minute) index, so it reads those minutes only, however
 * many days of minute rows the table holds.
 */
export function deltaRows(
  algorithm: AlgorithmKey,
  workerIds: RawBuilder<unknown>,
  from: Date,
  to: Date,
): RawBuilder<unknown> {
  // The minute rows are read per unrolled minute (a lateral subquery that `offset 0` keeps from being
  // flattened into a join): the planner cannot know how few rows those minutes hold, and while the
  // table is small (a pool's first hours) it would otherwise scan all of it.
  return sql`
    from (select distinct ${BATCH_MINUTE} as minute
            from share_batches b where b.rolled_at is null and b.algorithm = ${algorithm}) u
    cross join lateral (select * from worker_stats_minute s
                         where s.algorithm = ${algorithm} and s.minute = u.minute and ${DIRTY} offset 0) s
   where s.worker_id in (${workerIds}) and s.minute >= ${from} and s.minute < ${to}`;
}

/**
 * The ids of an account's workers on an algorithm (only those of one kind of port, `solo`, or only one worker, `id`,
 * when given), as a subquery written out where it is used: the planner then knows how many there are (a CTE would
 * hide it and, at 10,000 workers, lead it to probe the minute table once per worker instead of reading the window's
 * rows in one range).
 */
export function accountWorkerIds(
  account: string,
  algorithm: AlgorithmKey,
  only: { solo?: boolean; id?: bigint } = {},
): RawBuilder<unknown> {
  const kind = only.solo === undefined ? sql`` : sql` and solo = ${only.solo}`;
  const one = only.id === undefined ? sql`` : sql` and id = ${only.id}`;
  return sql`select id from workers where account = ${account} and algorithm = ${algorithm}${kind}${one}`;
}
