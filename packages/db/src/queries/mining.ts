import { ALGORITHM_KEYS, type AlgorithmKey } from '@lodestone/domain';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { DB, Executor, WorkerPeriodKind } from '../schema.js';

/**
 * The miner dashboard's statistics (docs/dashboard.md, "Mining API") and the worker rollups behind
 * them (migration 0005). Every reader is one SQL statement, so it sees one snapshot: the rollup
 * tables plus the not-yet-rolled part of the minute rows ("deltas" in minutes of unrolled share
 * batches) always add up to what the minute rows hold, whether the rollup job ran a second ago or
 * never.
 */

/** Bins start at this instant: whole UTC minutes, half hours and hours. */
const ORIGIN = sql.raw(`timestamptz '2000-01-01 00:00:00+00'`);

/**
 * The minute a share batch `b`'s counts went to: accounting's batchMinute, the UTC minute of the
 * batch's last instant.
 */
const BATCH_MINUTE = sql`date_bin('1 minute', greatest(b.interval_start, b.interval_end - interval '1 millisecond'), ${ORIGIN})`;

/** A minute row holds shares the rollups do not have yet. */
const DIRTY = sql.raw(
  '(s.accepted_difficulty <> s.rolled_difficulty or s.valid <> s.rolled_valid' +
    ' or s.invalid <> s.rolled_invalid or s.stale <> s.rolled_stale)',
);
/** A minute row wholly rolled up (retention may delete it). */
const CLEAN = sql.raw(
  'accepted_difficulty = rolled_difficulty and valid = rolled_valid' +
    ' and invalid = rolled_invalid and stale = rolled_stale',
);

/** Start of the UTC-aligned `seconds`-long bin a timestamptz expression falls in. */
function bin(expression: RawBuilder<unknown>, seconds: number): RawBuilder<Date> {
  return sql<Date>`date_bin(${sql.raw(`'${seconds} seconds'`)}, ${expression}, ${ORIGIN})`;
}

/**
 * Runs a read with PostgreSQL's JIT compiler off. The dashboard's reads are planned as costly (they
 * scan tens of thousands of rows), which crosses jit_above_cost, and compiling them then takes
 * longer (about 50 ms) than running them. Inside the caller's transaction when given one.
 */
async function withoutJit<T>(db: Executor, read: (db: Executor) => Promise<T>): Promise<T> {
  if (db.isTransaction) {
    await sql`set local jit = off`.execute(db);
    return read(db);
  }
  return (db as Kysely<DB>).transaction().execute(async (trx) => {
    await sql`set local jit = off`.execute(trx);
    return read(trx);
  });
}

// ── the rollup ──────────────────────────────────────────────────────────────────────────────────

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
 * Rolls up to `maxBatches` share batches of minutes before `completeBefore` (oldest first): the
 * dirty minute rows of their minutes are locked (in the order accounting locks workers, so the two
 * never deadlock), their deltas added to worker_stats_hour and account_stats_half_hour, rolled_*
 * set to the rows' values (and added to every worker period they fall in), and
 * the batches marked rolled at `now` — one statement, inside the caller's transaction, which must
 * hold lockWorkerRollups. Running it again changes nothing.
 */
export async function rollUpWorkerStats(
  trx: Transaction<DB>,
  options: { completeBefore: Date; now: Date; maxBatches: number },
): Promise<RollUpResult> {
  const { rows } = await sql<{ batches: string | number | bigint; rows: string | number | bigint }>`
    with batch as materialized (
      select b.id, b.algorithm, ${BATCH_MINUTE} as minute
        from share_batches b
       where b.rolled_at is null
         and greatest(b.interval_start, b.interval_end - interval '1 millisecond') < ${options.completeBefore}
       order by b.interval_end, b.id
       limit ${options.maxBatches}
    ),
    minutes as (select distinct algorithm, minute from batch),
    locked as materialized (
      select s.worker_id, w.account, s.algorithm, s.minute,
             s.accepted_difficulty, s.valid, s.invalid, s.stale,
             s.accepted_difficulty - s.rolled_difficulty as d_difficulty,
             s.valid - s.rolled_valid as d_valid,
             s.invalid - s.rolled_invalid as d_invalid,
             s.stale - s.rolled_stale as d_stale,
             (s.valid > 0)::int - (s.rolled_valid > 0)::int as d_active
        from worker_stats_minute s
        join minutes m on m.algorithm = s.algorithm and m.minute = s.minute
        join workers w on w.id = s.worker_id
       where ${DIRTY}
       order by w.account collate "C", w.name collate "C", s.minute
         for update of s
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
      select worker_id, algorithm, ${bin(sql`minute`, 3600)}, sum(d_difficulty), sum(d_valid), sum(d_invalid),
             sum(d_stale), sum(d_active)
        from locked
       group by 1, 2, 3
      on conflict (worker_id, hour) do update set
             accepted_difficulty = h.accepted_difficulty + excluded.accepted_difficulty,
             valid = h.valid + excluded.valid,
             invalid = h.invalid + excluded.invalid,
             stale = h.stale + excluded.stale,
             active_minutes = h.active_minutes + excluded.active_minutes
    ),
    accounts as (
      insert into account_stats_half_hour as a
             (account, algorithm, half_hour, accepted_difficulty, valid, invalid, stale, worker_minutes)
      select account, algorithm, ${bin(sql`minute`, 1800)}, sum(d_difficulty), sum(d_valid), sum(d_invalid),
             sum(d_stale), sum(d_active)
        from locked
       group by 1, 2, 3
      on conflict (account, algorithm, half_hour) do update set
             accepted_difficulty = a.accepted_difficulty + excluded.accepted_difficulty,
             valid = a.valid + excluded.valid,
             invalid = a.invalid + excluded.invalid,
             stale = a.stale + excluded.stale,
             worker_minutes = a.worker_minutes + excluded.worker_minutes
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

// ── removing workers ────────────────────────────────────────────────────────────────────────────

export interface RemovedWorker {
  id: bigint;
  name: string;
}

/** Which workers of an account and algorithm to remove: one by id, or all without an accepted share since a time. */
export type WorkerSelection = { id: bigint } | { offlineSince: Date };

/**
 * Deletes workers of one account and algorithm with their minute and hour rows (the foreign keys
 * cascade), in the caller's transaction, which must hold lockWorkerRollups. The account's own
 * history is kept: the workers' deltas not rolled up yet are added to account_stats_half_hour first,
 * so the account's chart and averages do not change. Workers are locked in the order accounting
 * locks them. Returns what was removed, by name.
 */
export async function removeWorkers(
  trx: Transaction<DB>,
  account: string,
  algorithm: AlgorithmKey,
  selection: WorkerSelection,
): Promise<RemovedWorker[]> {
  const which =
    'id' in selection
      ? sql`w.id = ${selection.id}`
      : sql`not exists (select 1 from worker_stats_minute s
                         where s.worker_id = w.id and s.minute >= ${selection.offlineSince} and s.valid > 0)`;
  const { rows } = await sql<RemovedWorker>`
    with gone as materialized (
      select w.id from workers w
       where w.account = ${account} and w.algorithm = ${algorithm} and ${which}
       order by w.name collate "C", w.id
         for update
    ),
    dirty as materialized (
      select s.minute,
             s.accepted_difficulty - s.rolled_difficulty as d_difficulty,
             s.valid - s.rolled_valid as d_valid,
             s.invalid - s.rolled_invalid as d_invalid,
             s.stale - s.rolled_stale as d_stale,
             (s.valid > 0)::int - (s.rolled_valid > 0)::int as d_active
        from worker_stats_minute s
       where s.worker_id in (select id from gone) and ${DIRTY}
         for update
    ),
    folded as (
      insert into account_stats_half_hour as a
             (account, algorithm, half_hour, accepted_difficulty, valid, invalid, stale, worker_minutes)
      select ${account}, ${algorithm}, ${bin(sql`minute`, 1800)}, sum(d_difficulty), sum(d_valid), sum(d_invalid),
             sum(d_stale), sum(d_active)
        from dirty
       group by 3
      on conflict (account, algorithm, half_hour) do update set
             accepted_difficulty = a.accepted_difficulty + excluded.accepted_difficulty,
             valid = a.valid + excluded.valid,
             invalid = a.invalid + excluded.invalid,
             stale = a.stale + excluded.stale,
             worker_minutes = a.worker_minutes + excluded.worker_minutes
    )
    delete from workers where id in (select id from gone) returning id, name
  `.execute(trx);
  return rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : Number(a.id - b.id)));
}

// ── readers ─────────────────────────────────────────────────────────────────────────────────────

/**
 * `from … where …` of the minute rows `s` with deltas of the given workers (a subquery of ids) in
 * `from` ≤ minute < `to`. It starts from the minutes of unrolled batches (a minute or two, normally)
 * and finds their rows through the (algorithm, minute) index, so it reads those minutes only, however
 * many days of minute rows the table holds.
 */
function deltaRows(algorithm: AlgorithmKey, workerIds: RawBuilder<unknown>, from: Date, to: Date): RawBuilder<unknown> {
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
 * The ids of an account's workers on an algorithm, as a subquery written out where it is used: the
 * planner then knows how many there are (a CTE would hide it and, at 10,000 workers, lead it to
 * probe the minute table once per worker instead of reading the window's rows in one range).
 */
function accountWorkerIds(account: string, algorithm: AlgorithmKey): RawBuilder<unknown> {
  return sql`select id from workers where account = ${account} and algorithm = ${algorithm}`;
}

/** True (in SQL) when the job has the period's totals complete. */
function periodListed(period: WorkerPeriod): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from worker_total_periods
                               where kind = ${period.kind} and period_from = ${period.from} and minutes = ${period.minutes})`;
}

export interface MiningRange {
  account: string;
  algorithm: AlgorithmKey;
  /** The statistics window: minutes `windowFrom` ≤ minute < `to`, `windowMinutes` complete ones and the current. */
  windowFrom: Date;
  windowMinutes: number;
  /** The 24-hour figures: from this hour boundary to `to`. */
  dayFrom: Date;
  to: Date;
}

export interface AccountMiningTotals {
  totalWorkers: number;
  /** Workers with an accepted share in the window. */
  activeWorkers: number;
  /** Σ accepted difficulty in the window, decimal text. */
  windowDifficulty: string;
  /** Σ accepted difficulty from `dayFrom` to `to` (the account's, removed workers' included). */
  dayDifficulty: string;
}

/**
 * The account's figures for the summary cards, in one snapshot. `dayFrom` must be a half-hour
 * boundary. The window comes from the workers' window totals when the job has them for this window
 * (one row per worker), else from the minute rows.
 */
export async function accountMiningTotals(db: Executor, range: MiningRange): Promise<AccountMiningTotals> {
  return withoutJit(
    db,
    async (trx) => (await miningTotalsFromPeriods(trx, range)) ?? miningTotalsFromMinutes(trx, range),
  );
}

type TotalsRow = { total: bigint; active: bigint; window_difficulty: string; day_difficulty: string };

function totalsOf(row: TotalsRow | undefined): AccountMiningTotals {
  return {
    totalWorkers: Number(row?.total ?? 0n),
    activeWorkers: Number(row?.active ?? 0n),
    windowDifficulty: row?.window_difficulty ?? '0',
    dayDifficulty: row?.day_difficulty ?? '0',
  };
}

/** The account's 24 hours: its half hours plus the deltas of its workers (a scalar subquery). */
function accountDay(range: MiningRange, deltaSum: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(select coalesce(sum(a.accepted_difficulty), 0) from account_stats_half_hour a
                       where a.account = ${range.account} and a.algorithm = ${range.algorithm}
                         and a.half_hour >= ${range.dayFrom} and a.half_hour < ${range.to})
                     + ${deltaSum}`;
}

async function miningTotalsFromPeriods(db: Executor, range: MiningRange): Promise<AccountMiningTotals | undefined> {
  const { account, algorithm } = range;
  const window = windowPeriod(range.windowFrom, range.windowMinutes);
  const { rows } = await sql<TotalsRow & { usable: boolean }>`
    with deltas as (
      select s.worker_id,
             sum(s.accepted_difficulty - s.rolled_difficulty) as difficulty,
             sum(s.accepted_difficulty - s.rolled_difficulty) filter (where s.minute >= ${range.windowFrom}) as window_difficulty,
             sum(s.valid - s.rolled_valid) filter (where s.minute >= ${range.windowFrom}) as window_valid
        ${deltaRows(algorithm, accountWorkerIds(account, algorithm), range.dayFrom, range.to)}
       group by s.worker_id
    ),
    per_worker as (
      select coalesce(t.accepted_difficulty, 0) + coalesce(d.window_difficulty, 0) as difficulty,
             coalesce(t.valid, 0) + coalesce(d.window_valid, 0) as valid
        from workers w
        left join worker_period_totals t
               on t.kind = 'window' and t.period_from = ${window.from} and t.worker_id = w.id
        left join deltas d on d.worker_id = w.id
       where w.account = ${account} and w.algorithm = ${algorithm}
    )
    select (select count(*) from per_worker) as total,
           (select count(*) from per_worker where valid > 0) as active,
           (select coalesce(sum(difficulty), 0) from per_worker) as window_difficulty,
           ${accountDay(range, sql`(select coalesce(sum(difficulty), 0) from deltas)`)} as day_difficulty,
           ${periodListed(window)} as usable
  `.execute(db);
  return rows[0]?.usable ? totalsOf(rows[0]) : undefined;
}

async function miningTotalsFromMinutes(db: Executor, range: MiningRange): Promise<AccountMiningTotals> {
  const { account, algorithm } = range;
  const workerIds = accountWorkerIds(account, algorithm);
  const { rows } = await sql<TotalsRow>`
    with win as (
      select count(distinct s.worker_id) as active, coalesce(sum(s.accepted_difficulty), 0) as difficulty
        from worker_stats_minute s
       where s.worker_id in (${workerIds}) and s.algorithm = ${algorithm}
         and s.minute >= ${range.windowFrom} and s.minute < ${range.to} and s.valid > 0
    )
    select (select count(*) from workers where account = ${account} and algorithm = ${algorithm}) as total,
           win.active,
           win.difficulty as window_difficulty,
           ${accountDay(
             range,
             sql`(select coalesce(sum(s.accepted_difficulty - s.rolled_difficulty), 0)
                  ${deltaRows(algorithm, workerIds, range.dayFrom, range.to)})`,
           )} as day_difficulty
      from win
  `.execute(db);
  return totalsOf(rows[0]);
}

export interface DifficultySlot {
  /** Start of the UTC half hour. */
  start: Date;
  /** Σ accepted difficulty in it, decimal text. */
  acceptedDifficulty: string;
}

/**
 * The account's accepted difficulty per UTC half hour for `from` ≤ half hour < `to` (both half-hour
 * boundaries); half hours without shares are absent.
 */
export async function accountDifficultyByHalfHour(
  db: Executor,
  account: string,
  algorithm: AlgorithmKey,
  from: Date,
  to: Date,
): Promise<DifficultySlot[]> {
  const { rows } = await withoutJit(db, (trx) =>
    sql<{ start: Date; difficulty: string }>`
    select x.start, sum(x.difficulty) as difficulty from (
      select a.half_hour as start, a.accepted_difficulty as difficulty
        from account_stats_half_hour a
       where a.account = ${account} and a.algorithm = ${algorithm} and a.half_hour >= ${from} and a.half_hour < ${to}
      union all
      select ${bin(sql`s.minute`, 1800)}, s.accepted_difficulty - s.rolled_difficulty
        ${deltaRows(algorithm, accountWorkerIds(account, algorithm), from, to)}
    ) x
    group by x.start
    order by x.start
  `.execute(trx),
  );
  return rows.map((r) => ({ start: r.start, acceptedDifficulty: r.difficulty }));
}

export interface WorkerMiningRow {
  id: bigint;
  name: string;
  /** Σ accepted difficulty in the statistics window. */
  windowDifficulty: string;
  /** Σ accepted difficulty and share counts from `dayFrom` to `to`. */
  dayDifficulty: string;
  valid: bigint;
  invalid: bigint;
  stale: bigint;
}

/**
 * Every worker of the account on the algorithm with its window and 24-hour figures, by name.
 * `dayFrom` must be an hour boundary.
 *
 * The 24 hours (with the hour in progress) and the window come from the workers' period totals when
 * the rollup job has them for these very periods (one row per worker instead of 25 hour rows and 11
 * minute rows), else from the worker hours and the minute rows; everything not rolled up yet from the
 * minute-row deltas.
 */
export async function accountWorkerRows(db: Executor, range: MiningRange): Promise<WorkerMiningRow[]> {
  return withoutJit(db, async (trx) => {
    const fast = await workerRowsFromTotals(trx, range);
    // The totals are of another period (the hour just turned and the job has not summed the new one
    // yet, or it never ran): read the 24 hours themselves.
    return fast ?? workerRowsFromHours(trx, range);
  });
}

type WorkerRowText = {
  id: bigint;
  name: string;
  window_difficulty: string;
  day_difficulty: string;
  valid: bigint | string;
  invalid: bigint | string;
  stale: bigint | string;
};

function workerRow(r: WorkerRowText): WorkerMiningRow {
  return {
    id: r.id,
    name: r.name,
    windowDifficulty: r.window_difficulty,
    dayDifficulty: r.day_difficulty,
    valid: BigInt(r.valid),
    invalid: BigInt(r.invalid),
    stale: BigInt(r.stale),
  };
}

/** Each worker's window: Σ accepted difficulty per worker in the statistics window (a CTE body). */
function windowByWorker(range: MiningRange): RawBuilder<unknown> {
  return sql`
    select s.worker_id, sum(s.accepted_difficulty) as difficulty
      from worker_stats_minute s
     where s.worker_id in (${accountWorkerIds(range.account, range.algorithm)}) and s.algorithm = ${range.algorithm}
       and s.minute >= ${range.windowFrom} and s.minute < ${range.to} and s.valid > 0
     group by s.worker_id`;
}

/**
 * One row per worker from the period totals (the 24 hours with the one in progress, and the window)
 * and the deltas; undefined when the job does not have both periods.
 */
async function workerRowsFromTotals(db: Executor, range: MiningRange): Promise<WorkerMiningRow[] | undefined> {
  const { account, algorithm } = range;
  const day = dayPeriod(range.dayFrom);
  const window = windowPeriod(range.windowFrom, range.windowMinutes);
  const { rows } = await sql<WorkerRowText>`
    with deltas as (
      select s.worker_id, sum(s.accepted_difficulty - s.rolled_difficulty) as difficulty,
             sum(s.valid - s.rolled_valid) as valid, sum(s.invalid - s.rolled_invalid) as invalid,
             sum(s.stale - s.rolled_stale) as stale,
             sum(s.accepted_difficulty - s.rolled_difficulty) filter (where s.minute >= ${range.windowFrom})
               as window_difficulty
        ${deltaRows(algorithm, accountWorkerIds(account, algorithm), range.dayFrom, range.to)}
       group by s.worker_id
    )
    select w.id, w.name,
           coalesce(wt.accepted_difficulty, 0) + coalesce(d.window_difficulty, 0) as window_difficulty,
           coalesce(t.accepted_difficulty, 0) + coalesce(d.difficulty, 0) as day_difficulty,
           coalesce(t.valid, 0) + coalesce(d.valid, 0) as valid,
           coalesce(t.invalid, 0) + coalesce(d.invalid, 0) as invalid,
           coalesce(t.stale, 0) + coalesce(d.stale, 0) as stale
      from workers w
      left join worker_period_totals t on t.kind = 'day' and t.period_from = ${day.from} and t.worker_id = w.id
      left join worker_period_totals wt on wt.kind = 'window' and wt.period_from = ${window.from} and wt.worker_id = w.id
      left join deltas d on d.worker_id = w.id
     where w.account = ${account} and w.algorithm = ${algorithm}
       and ${periodListed(day)} and ${periodListed(window)}
     order by w.name collate "C", w.id
  `.execute(db);
  // No rows: the periods are not there, or the account has no workers (which the other way finds too).
  return rows.length > 0 ? rows.map(workerRow) : undefined;
}

/** The same rows from the worker hours of the whole period (24 or 25 rows per worker). */
async function workerRowsFromHours(db: Executor, range: MiningRange): Promise<WorkerMiningRow[]> {
  const { account, algorithm } = range;
  const workerIds = accountWorkerIds(account, algorithm);
  const { rows } = await sql<WorkerRowText>`
    with win as (${windowByWorker(range)}),
    day as (
      select x.worker_id, sum(x.difficulty) as difficulty, sum(x.valid) as valid, sum(x.invalid) as invalid,
             sum(x.stale) as stale
        from (
          select h.worker_id, h.accepted_difficulty as difficulty, h.valid, h.invalid, h.stale
            from worker_stats_hour h
           where h.worker_id in (${workerIds}) and h.hour >= ${range.dayFrom} and h.hour < ${range.to}
          union all
          select s.worker_id, s.accepted_difficulty - s.rolled_difficulty, s.valid - s.rolled_valid,
                 s.invalid - s.rolled_invalid, s.stale - s.rolled_stale
            ${deltaRows(algorithm, workerIds, range.dayFrom, range.to)}
        ) x
       group by x.worker_id
    )
    select w.id, w.name,
           coalesce(win.difficulty, 0) as window_difficulty,
           coalesce(day.difficulty, 0) as day_difficulty,
           coalesce(day.valid, 0) as valid,
           coalesce(day.invalid, 0) as invalid,
           coalesce(day.stale, 0) as stale
      from workers w
      left join win on win.worker_id = w.id
      left join day on day.worker_id = w.id
     where w.account = ${account} and w.algorithm = ${algorithm}
     order by w.name collate "C", w.id
  `.execute(db);
  return rows.map(workerRow);
}

export interface MiningRates {
  /** The newest PPS rate of the algorithm (pool_stats.profit): BTC per H/s per day; undefined when none. */
  profit: string | undefined;
  /** The newest BTC price in US dollars; undefined when none. */
  btcUsd: string | undefined;
}

/** What the estimated revenue is valued at: two index probes. */
export async function miningRates(db: Executor, algorithm: AlgorithmKey): Promise<MiningRates> {
  const { rows } = await sql<{ profit: string | null; btc_usd: string | null }>`
    select (select profit from pool_stats where algorithm = ${algorithm} order by taken_at desc limit 1) as profit,
           (select usd from prices where ticker = 'BTC' order by taken_at desc limit 1) as btc_usd
  `.execute(db);
  return { profit: rows[0]?.profit ?? undefined, btcUsd: rows[0]?.btc_usd ?? undefined };
}

// ── longer histories for other screens (minute rows are kept 48 hours) ─────────────────────────

export interface DayDifficulty {
  /** The day in `timeZone`, 'YYYY-MM-DD'. */
  day: string;
  /** Σ accepted difficulty of the account on the algorithm that day, decimal text. */
  acceptedDifficulty: string;
}

/**
 * An account's accepted difficulty per day in `timeZone` for `from` ≤ t < `to` (half-hour
 * boundaries), from the half-hour rollups: exact for time zones on whole or half hours; in the few
 * zones on a quarter hour (Nepal, Chatham) a half hour counts on the day it starts. The account's
 * history includes workers removed since. Days without shares are absent.
 */
export async function accountDifficultyByDay(
  db: Executor,
  options: { account: string; algorithm: AlgorithmKey; from: Date; to: Date; timeZone: string },
): Promise<DayDifficulty[]> {
  const { account, algorithm, from, to } = options;
  const { rows } = await sql<{ day: string; difficulty: string }>`
    select to_char(x.t at time zone ${options.timeZone}, 'YYYY-MM-DD') as day, sum(x.difficulty) as difficulty
      from (
        select a.half_hour as t, a.accepted_difficulty as difficulty
          from account_stats_half_hour a
         where a.account = ${account} and a.algorithm = ${algorithm} and a.half_hour >= ${from} and a.half_hour < ${to}
        union all
        select s.minute, s.accepted_difficulty - s.rolled_difficulty
          ${deltaRows(algorithm, accountWorkerIds(account, algorithm), from, to)}
      ) x
     group by 1
     order by 1
  `.execute(db);
  return rows.map((r) => ({ day: r.day, acceptedDifficulty: r.difficulty }));
}

/**
 * The algorithm an account mined in the most worker-minutes with an accepted share since `since`
 * (counted from the half hour `since` falls in), from the rollups; ties go to the most recent.
 * Undefined when it mined nothing. The same measure as accountActivity's mostActiveAlgorithm, which
 * reads minute rows and so cannot look back further than their 48 hours.
 */
export async function mostActiveAlgorithmSince(
  db: Executor,
  account: string,
  since: Date,
): Promise<AlgorithmKey | undefined> {
  const { rows } = await sql<{ algorithm: AlgorithmKey }>`
    with unrolled as (
      select distinct b.algorithm, ${BATCH_MINUTE} as minute from share_batches b where b.rolled_at is null
    )
    select x.algorithm from (
      select a.algorithm, a.worker_minutes as minutes, a.half_hour as last
        from account_stats_half_hour a
       where a.account = ${account} and a.half_hour >= ${bin(sql`${since}::timestamptz`, 1800)}
         and a.worker_minutes > 0
      union all
      select s.algorithm, (s.valid > 0)::int - (s.rolled_valid > 0)::int, s.minute
        from worker_stats_minute s
        join unrolled u on u.algorithm = s.algorithm and u.minute = s.minute
       where s.worker_id in (select id from workers where account = ${account})
         and s.minute >= ${since} and s.valid > 0 and ${DIRTY}
    ) x
    group by x.algorithm
    having sum(x.minutes) > 0
    order by sum(x.minutes) desc, max(x.last) desc
    limit 1
  `.execute(db);
  return rows[0]?.algorithm;
}
