import type { AlgorithmKey } from '@lodestone/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../../schema.js';
import { dayPeriod, type WorkerPeriod, windowPeriod } from './rollups.js';
import { accountWorkerIds, BATCH_MINUTE, bin, deltaRows, withoutJit } from './sql.js';

/**
 * The miner dashboard's statistics (docs/dashboard.md, "Mining API") and the worker rollups behind
 * them (migration 0005). Every reader is one SQL statement, so it sees one snapshot: the rollup
 * tables plus the not-yet-rolled part of the minute rows ("deltas" in minutes of unrolled share
 * batches) always add up to what the minute rows hold, whether the rollup job ran a second ago or
 * never.
 */

/** True (in SQL) when the job has the period's totals complete. */
function periodListed(period: WorkerPeriod): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from worker_total_periods
                               where kind = ${period.kind} and period_from = ${period.from} and minutes = ${period.minutes})`;
}

/**
 * True (in SQL) when every minute of the algorithm not rolled up yet falls in `from` ≤ minute < `to`: each worker's
 * unrolled figures (migration 0034) are then wholly inside the window and the 24 hours, and a reader adds them as
 * they are. A minute row differs from its rollups only in a minute of an unrolled batch (migration 0005), so the
 * batches tell. False for the few seconds of a late batch or while the job is behind by a window; the reader then
 * sums the minute rows it needs instead.
 */
function unrolledWithin(algorithm: AlgorithmKey, from: Date, to: Date): RawBuilder<boolean> {
  return sql<boolean>`not exists (select 1 from share_batches b
                                  where b.rolled_at is null and b.algorithm = ${algorithm}
                                    and (${BATCH_MINUTE} < ${from} or ${BATCH_MINUTE} >= ${to}))`;
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
  /** Only the solo ports' workers (true) or only the pool ports' (false); every worker when absent. */
  solo?: boolean;
  /** Only this worker (one worker's view); every worker when absent. */
  workerId?: bigint;
}

export interface AccountMiningTotals {
  totalWorkers: number;
  /** Workers with an accepted share in the window. */
  activeWorkers: number;
  /** Σ accepted difficulty in the window, decimal text. */
  windowDifficulty: string;
  /** The part of it mined on pool ports: what PPS pays (solo ports' shares are paid nothing; docs/solo.md). */
  ppsWindowDifficulty: string;
  /** Σ accepted difficulty from `dayFrom` to `to` (the account's, removed workers' included). */
  dayDifficulty: string;
  /** When its oldest worker on the algorithm was first seen; null: no worker. */
  firstSeenAt: Date | null;
}

/**
 * The account's figures for the summary cards, in one snapshot. `dayFrom` must be a half-hour
 * boundary. The window comes from the workers' window totals and unrolled figures when the job has the
 * totals for this window and every unrolled minute is inside it (one row per worker), else from the
 * minute rows.
 */
export async function accountMiningTotals(db: Executor, range: MiningRange): Promise<AccountMiningTotals> {
  return withoutJit(
    db,
    async (trx) => (await miningTotalsFromPeriods(trx, range)) ?? miningTotalsFromMinutes(trx, range),
  );
}

type TotalsRow = {
  total: bigint;
  active: bigint;
  window_difficulty: string;
  pps_window_difficulty: string;
  day_difficulty: string;
  first_seen: Date | null;
};

function totalsOf(row: TotalsRow | undefined): AccountMiningTotals {
  return {
    totalWorkers: Number(row?.total ?? 0n),
    activeWorkers: Number(row?.active ?? 0n),
    windowDifficulty: row?.window_difficulty ?? '0',
    ppsWindowDifficulty: row?.pps_window_difficulty ?? '0',
    dayDifficulty: row?.day_difficulty ?? '0',
    firstSeenAt: row?.first_seen ?? null,
  };
}

/** The account's 24 hours: its half hours plus the deltas of its workers (a scalar subquery). */
function accountDay(range: MiningRange, deltaSum: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(select coalesce(sum(a.accepted_difficulty), 0) from account_stats_half_hour a
                       where a.account = ${range.account} and a.algorithm = ${range.algorithm}
                         and a.half_hour >= ${range.dayFrom} and a.half_hour < ${range.to})
                     + ${deltaSum}`;
}

/** The totals from the workers' window totals and unrolled figures; undefined when those cannot answer (see above). */
async function miningTotalsFromPeriods(db: Executor, range: MiningRange): Promise<AccountMiningTotals | undefined> {
  const { account, algorithm } = range;
  const window = windowPeriod(range.windowFrom, range.windowMinutes);
  const { rows } = await sql<TotalsRow & { usable: boolean }>`
    with per_worker as (
      select coalesce(t.accepted_difficulty, 0) + w.unrolled_difficulty as difficulty,
             coalesce(t.valid, 0) + w.unrolled_valid as valid, w.unrolled_difficulty, w.first_seen_at, w.solo
        from workers w
        left join worker_period_totals t
               on t.kind = 'window' and t.period_from = ${window.from} and t.worker_id = w.id
       where w.account = ${account} and w.algorithm = ${algorithm}
    )
    select (select count(*) from per_worker) as total,
           (select count(*) from per_worker where valid > 0) as active,
           (select coalesce(sum(difficulty), 0) from per_worker) as window_difficulty,
           (select coalesce(sum(difficulty), 0) from per_worker where not solo) as pps_window_difficulty,
           (select min(first_seen_at) from per_worker) as first_seen,
           ${accountDay(range, sql`(select coalesce(sum(unrolled_difficulty), 0) from per_worker)`)} as day_difficulty,
           ${periodListed(window)} and ${unrolledWithin(algorithm, range.windowFrom, range.to)} as usable
  `.execute(db);
  return rows[0]?.usable ? totalsOf(rows[0]) : undefined;
}

async function miningTotalsFromMinutes(db: Executor, range: MiningRange): Promise<AccountMiningTotals> {
  const { account, algorithm } = range;
  const workerIds = accountWorkerIds(account, algorithm);
  const { rows } = await sql<TotalsRow>`
    with win as (
      select count(distinct s.worker_id) as active, coalesce(sum(s.accepted_difficulty), 0) as difficulty,
             coalesce(sum(s.accepted_difficulty) filter (where s.worker_id not in (${soloWorkerIds(range)})), 0)
               as pps_difficulty
        from worker_stats_minute s
       where s.worker_id in (${workerIds}) and s.algorithm = ${algorithm}
         and s.minute >= ${range.windowFrom} and s.minute < ${range.to} and s.valid > 0
    )
    select (select count(*) from workers where account = ${account} and algorithm = ${algorithm}) as total,
           (select min(first_seen_at) from workers where account = ${account} and algorithm = ${algorithm})
             as first_seen,
           win.active,
           win.difficulty as window_difficulty,
           win.pps_difficulty as pps_window_difficulty,
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
  /** Accepted shares in it (the mean share difficulty is acceptedDifficulty ÷ validShares). */
  validShares?: number;
}

/**
 * The first UTC half hour of the account's history on the algorithm before `to`, or null if it has none: where its
 * hashrate chart starts. The half-hour rows are kept for good, through worker removals; shares not rolled up yet
 * count too (read like accountDifficultyByHalfHour reads them).
 */
export async function accountFirstHalfHour(
  db: Executor,
  account: string,
  algorithm: AlgorithmKey,
  to: Date,
): Promise<Date | null> {
  const { rows } = await withoutJit(db, (trx) =>
    sql<{ start: Date | null }>`
    select min(x.start) as start from (
      (select a.half_hour as start from account_stats_half_hour a
        where a.account = ${account} and a.algorithm = ${algorithm} and a.half_hour < ${to}
        order by a.half_hour limit 1)
      union all
      select min(${bin(sql`s.minute`, 1800)}) ${deltaRows(algorithm, accountWorkerIds(account, algorithm), new Date(0), to)}
    ) x
  `.execute(trx),
  );
  return rows[0]?.start ?? null;
}

/** The outer half of the slot reads below: rows of (start, difficulty, valid) summed per start, in order. */
async function difficultySlots(db: Executor, rows: RawBuilder<unknown>): Promise<DifficultySlot[]> {
  const result = await withoutJit(db, (trx) =>
    sql<{ start: Date; difficulty: string; valid: string }>`
    select x.start, sum(x.difficulty) as difficulty, sum(x.valid) as valid from (${rows}) x
    group by x.start
    order by x.start
  `.execute(trx),
  );
  return result.rows.map((r) => ({ start: r.start, acceptedDifficulty: r.difficulty, validShares: Number(r.valid) }));
}

/**
 * The account's accepted difficulty and shares per UTC half hour for `from` ≤ half hour < `to` (both
 * half-hour boundaries); half hours without shares are absent.
 */
export function accountDifficultyByHalfHour(
  db: Executor,
  account: string,
  algorithm: AlgorithmKey,
  from: Date,
  to: Date,
): Promise<DifficultySlot[]> {
  return difficultySlots(
    db,
    sql`
      select a.half_hour as start, a.accepted_difficulty as difficulty, a.valid
        from account_stats_half_hour a
       where a.account = ${account} and a.algorithm = ${algorithm} and a.half_hour >= ${from} and a.half_hour < ${to}
      union all
      select ${bin(sql`s.minute`, 1800)}, s.accepted_difficulty - s.rolled_difficulty, s.valid - s.rolled_valid
        ${deltaRows(algorithm, accountWorkerIds(account, algorithm), from, to)}`,
  );
}

/**
 * Some workers' accepted difficulty and shares per UTC hour for `from` ≤ hour < `to` (hour
 * boundaries): their hour rows (kept 8 days) and what their minute rows hold beyond them, in one
 * snapshot; hours without shares are absent. One worker's chart (docs/dashboard.md, "One worker") and
 * a group's hashrate alert (docs/notifications.md): hours, because the rollup keeps hours per worker
 * and half hours only per account.
 */
export function workersDifficultyByHour(
  db: Executor,
  algorithm: AlgorithmKey,
  workerIds: readonly bigint[],
  from: Date,
  to: Date,
): Promise<DifficultySlot[]> {
  if (workerIds.length === 0) return Promise.resolve([]);
  const ids = sql.join(workerIds.map((id) => sql`${id}`));
  return difficultySlots(
    db,
    sql`
      select h.hour as start, h.accepted_difficulty as difficulty, h.valid
        from worker_stats_hour h
       where h.worker_id in (${ids}) and h.algorithm = ${algorithm} and h.hour >= ${from} and h.hour < ${to}
      union all
      select ${bin(sql`s.minute`, 3600)}, s.accepted_difficulty - s.rolled_difficulty, s.valid - s.rolled_valid
        ${deltaRows(algorithm, ids, from, to)}`,
  );
}

export interface WorkerMiningRow {
  /** Decimal text. */
  id: string;
  name: string;
  /** The label the miner gave it (docs/dashboard.md, "Worker groups"); null: none. */
  label: string | null;
  /** A solo port's worker (docs/solo.md). */
  solo: boolean;
  /** Σ accepted difficulty in the statistics window. */
  windowDifficulty: string;
  /** Σ accepted difficulty and share counts from `dayFrom` to `to` (counts exact below 2⁵³). */
  dayDifficulty: string;
  valid: number;
  invalid: number;
  stale: number;
  /** When the worker was first seen (its first share batch), if inside the 24 hours; null: before them. */
  firstSeenAt: Date | null;
  /** Its last accepted share; null: none recorded (or none since nodes report it). */
  lastAcceptedAt: Date | null;
}

/**
 * Every worker of the account on the algorithm with its window and 24-hour figures, by name.
 * `dayFrom` must be an hour boundary.
 *
 * The 24 hours (with the hour in progress) and the window come from the workers' period totals when
 * the rollup job has them for these very periods (one row per worker instead of 25 hour rows and 11
 * minute rows) and everything not rolled up yet from the workers' own unrolled figures, when those are
 * all inside the window; else from the worker hours, the minute rows and the minute-row deltas.
 */
export async function accountWorkerRows(db: Executor, range: MiningRange): Promise<WorkerMiningRow[]> {
  return withoutJit(db, async (trx) => {
    const fast = await workerRowsFromTotals(trx, range);
    // The totals are of another period (the hour just turned and the job has not summed the new one
    // yet, or it never ran), or a minute not rolled up is outside the window: read the 24 hours themselves.
    return fast ?? workerRowsFromHours(trx, range);
  });
}

/**
 * The workers' rows as one text, in the list's order (name, then id), built by PostgreSQL: the driver then reads
 * one value instead of 10,000 rows of eleven fields, which cost the list of 10,000 workers about 30 ms of the 100 its
 * answer may take. One line per worker, its fields apart by tabs: a third cheaper to build than the same rows as JSON
 * (10,000 rows: 35 ms against 47), and safe because no field can hold a tab or a line break (names are
 * [A-Za-z0-9_.-], labels refuse control characters: normalizeLabel and migration 0026). A label is written with a
 * leading `L` so that an empty field means none; instants go as epoch milliseconds (truncated, as the timestamptz
 * parser reads them), difficulties as exact text, the solo mark as t or f. `rows` is a select of the columns named
 * here; it may start with its own WITH.
 */
function workerListText(rows: RawBuilder<unknown>): RawBuilder<{ list: string | null }> {
  // concat_ws leaves a null out, which would shift the fields after it: a field that may be null is written empty.
  const ms = (column: string) => sql.raw(`coalesce(floor(extract(epoch from r.${column}) * 1000)::int8::text, '')`);
  return sql<{ list: string | null }>`
    select string_agg(concat_ws(E'\t',
             r.id, r.name, coalesce('L' || r.label, ''), ${ms('first_seen_at')}, ${ms('last_accepted_at')},
             r.window_difficulty, r.day_difficulty, r.valid, r.invalid, r.stale, case when r.solo then 't' else 'f' end
           ), E'\n' order by r.name collate "C", r.id) as list
      from (${rows}) r`;
}

function workerRows(list: string | null): WorkerMiningRow[] {
  if (list === null) return [];
  return list.split('\n').map((line) => {
    const [id = '', name = '', label = '', firstSeenAt = '', lastAcceptedAt = '', window = '', day = '', ...counts] =
      line.split('\t');
    const [valid = '0', invalid = '0', stale = '0', solo = 'f'] = counts;
    return {
      id,
      name,
      label: label === '' ? null : label.slice(1),
      solo: solo === 't',
      windowDifficulty: window,
      dayDifficulty: day,
      valid: Number(valid),
      invalid: Number(invalid),
      stale: Number(stale),
      firstSeenAt: firstSeenAt === '' ? null : new Date(Number(firstSeenAt)),
      lastAcceptedAt: lastAcceptedAt === '' ? null : new Date(Number(lastAcceptedAt)),
    };
  });
}

/** The ids of the account's solo workers on the algorithm (a subquery). */
function soloWorkerIds(range: MiningRange): RawBuilder<unknown> {
  return sql`select id from workers where account = ${range.account} and algorithm = ${range.algorithm} and solo`;
}

/** The workers the range names, as a subquery: the account's, of one kind of port or one worker when it says so. */
function rangeWorkerIds(range: MiningRange): RawBuilder<unknown> {
  return accountWorkerIds(range.account, range.algorithm, { solo: range.solo, id: range.workerId });
}

/** The same workers among the rows `w` of the workers table. */
function rangeFilter(range: MiningRange): RawBuilder<unknown> {
  const kind = range.solo === undefined ? sql`` : sql`and w.solo = ${range.solo}`;
  const one = range.workerId === undefined ? sql`` : sql`and w.id = ${range.workerId}`;
  return sql`${kind} ${one}`;
}

/**
 * A worker's first sight when it falls inside the 24 hours, else null: only young workers need it, and
 * not sending 10,000 timestamps nobody reads keeps the list fast.
 */
function youngSince(range: MiningRange): RawBuilder<Date | null> {
  return sql<Date | null>`case when w.first_seen_at > ${range.dayFrom} then w.first_seen_at end`;
}

/** Each worker's window: Σ accepted difficulty per worker in the statistics window (a CTE body). */
function windowByWorker(range: MiningRange): RawBuilder<unknown> {
  return sql`
    select s.worker_id, sum(s.accepted_difficulty) as difficulty
      from worker_stats_minute s
     where s.worker_id in (${rangeWorkerIds(range)}) and s.algorithm = ${range.algorithm}
       and s.minute >= ${range.windowFrom} and s.minute < ${range.to} and s.valid > 0
     group by s.worker_id`;
}

/**
 * One row per worker from the period totals (the 24 hours with the one in progress, and the window) and the workers'
 * own unrolled figures: no aggregation at all. Undefined when the job does not have both periods or some unrolled
 * minute is outside the window (unrolledWithin).
 */
async function workerRowsFromTotals(db: Executor, range: MiningRange): Promise<WorkerMiningRow[] | undefined> {
  const { account, algorithm } = range;
  const day = dayPeriod(range.dayFrom);
  const window = windowPeriod(range.windowFrom, range.windowMinutes);
  const { rows } = await workerListText(sql`
    select w.id, w.name, w.label, ${youngSince(range)} as first_seen_at, w.last_accepted_at,
           coalesce(wt.accepted_difficulty, 0) + w.unrolled_difficulty as window_difficulty,
           coalesce(t.accepted_difficulty, 0) + w.unrolled_difficulty as day_difficulty,
           coalesce(t.valid, 0) + w.unrolled_valid as valid,
           coalesce(t.invalid, 0) + w.unrolled_invalid as invalid,
           coalesce(t.stale, 0) + w.unrolled_stale as stale, w.solo
      from workers w
      left join worker_period_totals t on t.kind = 'day' and t.period_from = ${day.from} and t.worker_id = w.id
      left join worker_period_totals wt on wt.kind = 'window' and wt.period_from = ${window.from} and wt.worker_id = w.id
     where w.account = ${account} and w.algorithm = ${algorithm} ${rangeFilter(range)}
       and ${periodListed(day)} and ${periodListed(window)}
       and ${unrolledWithin(algorithm, range.windowFrom, range.to)}
  `).execute(db);
  // No workers: the periods are not there, or the account has none (which the other way finds too).
  const list = workerRows(rows[0]?.list ?? null);
  return list.length > 0 ? list : undefined;
}

/** The same rows from the worker hours of the whole period (24 or 25 rows per worker). */
async function workerRowsFromHours(db: Executor, range: MiningRange): Promise<WorkerMiningRow[]> {
  const { account, algorithm } = range;
  const workerIds = rangeWorkerIds(range);
  const { rows } = await workerListText(sql`
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
    select w.id, w.name, w.label, ${youngSince(range)} as first_seen_at, w.last_accepted_at,
           coalesce(win.difficulty, 0) as window_difficulty,
           coalesce(day.difficulty, 0) as day_difficulty,
           coalesce(day.valid, 0) as valid,
           coalesce(day.invalid, 0) as invalid,
           coalesce(day.stale, 0) as stale, w.solo
      from workers w
      left join win on win.worker_id = w.id
      left join day on day.worker_id = w.id
     where w.account = ${account} and w.algorithm = ${algorithm} ${rangeFilter(range)}
  `).execute(db);
  return workerRows(rows[0]?.list ?? null);
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
