import {
  type DB,
  dayPeriod,
  lockWorkerRollups,
  pruneWorkerConnections,
  pruneWorkerHours,
  pruneWorkerMinutes,
  pruneWorkerRejects,
  type RollUpResult,
  refreshWorkerPeriodTotals,
  rollUpWorkerStats,
  windowPeriod,
} from '@lodestone/db';
import { ALGORITHMS, DEFAULT_STATS_WINDOW_MINUTES, statsWindow } from '@lodestone/domain';
import type { Kysely } from 'kysely';
import type { JobDefinition } from './types.js';

/**
 * Worker statistics rolled up (migration 0005, docs/dashboard.md "Mining API"): per-minute rows of
 * complete minutes into worker_stats_hour and account_stats_half_hour, then old rows deleted. The
 * dashboard reads rollups plus whatever is not rolled yet, so its figures are the same before and
 * after a run; the job only keeps those reads small.
 */

/** Minute rows are kept this long: the 24-hour figures and chart need 25 hours; the rest is margin. */
export const MINUTE_RETENTION_HOURS = 48;
/** Worker-hour rows are kept this long: the dashboard needs 25 hours; a week more serves support. */
export const WORKER_HOUR_RETENTION_HOURS = 8 * 24;
/**
 * Batches rolled per transaction. A pool flushes a batch per node and algorithm every 5 s, so a
 * minute is a few dozen; a backlog (the job was down) is worked off in chunks that keep each
 * transaction, and the row locks it holds against accounting, short.
 */
export const ROLLUP_BATCHES_PER_TRANSACTION = 500;
/** Rows deleted per statement: small enough not to hold locks or bloat one transaction. */
export const DELETE_CHUNK = 5000;
/** A run stops rolling and pruning after this long and leaves the rest to the next minute. */
export const RUN_BUDGET_MS = 40_000;

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

export interface WorkerRollupOptions {
  /** STATS_WINDOW_MINUTES: the window the workers' window totals are kept for (default 10). */
  windowMinutes?: number;
  minuteRetentionHours?: number;
  workerHourRetentionHours?: number;
  batchesPerTransaction?: number;
  deleteChunk?: number;
  budgetMs?: number;
}

export interface WorkerRollupRun extends RollUpResult {
  /** Worker periods computed: the next hour's 24 hours once an hour, the next statistics window each minute. */
  periodsComputed: number;
  minutesDeleted: number;
  /** Worker-hour rows deleted, with the refusal-by-reason rows of the same hours. */
  hoursDeleted: number;
  /** True when the budget or the stop signal cut the run short. */
  unfinished: boolean;
}

/**
 * One run at `now`: brings the workers' period totals up to date; rolls every share
 * batch of a complete minute (before the minute `now` is in) still unrolled, oldest first; then
 * deletes minute rows older than the retention that are wholly rolled up (a row a late batch touched
 * waits for its roll-up), and worker-hour rows older than theirs. Idempotent: a second run at the
 * same instant finds nothing to do.
 */
export async function runWorkerRollup(
  db: Kysely<DB>,
  now: Date,
  options: WorkerRollupOptions & { signal?: AbortSignal } = {},
): Promise<WorkerRollupRun> {
  const started = performance.now();
  const budget = options.budgetMs ?? RUN_BUDGET_MS;
  const stop = () => options.signal?.aborted === true || performance.now() - started > budget;
  const perTransaction = options.batchesPerTransaction ?? ROLLUP_BATCHES_PER_TRANSACTION;
  const chunk = options.deleteChunk ?? DELETE_CHUNK;
  const completeBefore = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
  const hour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const run: WorkerRollupRun = {
    batches: 0,
    rows: 0,
    periodsComputed: 0,
    minutesDeleted: 0,
    hoursDeleted: 0,
    unfinished: false,
  };

  // First the workers' period totals the dashboard reads: this hour's 24 hours and the next hour's
  // (one new each hour), this minute's statistics window and the next minute's (one new each minute).
  // Computed a period ahead, so a reader at the turn of an hour or minute finds its period ready;
  // until a period is there, readers take the hour or minute rows, slower.
  const windowMinutes = options.windowMinutes ?? DEFAULT_STATS_WINDOW_MINUTES;
  const thisWindow = completeBefore.getTime() - windowMinutes * MINUTE_MS;
  run.periodsComputed = await db.transaction().execute(async (trx) => {
    await lockWorkerRollups(trx);
    return refreshWorkerPeriodTotals(trx, [
      dayPeriod(new Date(hour - 24 * HOUR_MS)),
      dayPeriod(new Date(hour - 23 * HOUR_MS)),
      windowPeriod(new Date(thisWindow), windowMinutes),
      windowPeriod(new Date(thisWindow + MINUTE_MS), windowMinutes),
    ]);
  });

  for (;;) {
    const step = await db.transaction().execute(async (trx) => {
      await lockWorkerRollups(trx);
      return rollUpWorkerStats(trx, { completeBefore, now, maxBatches: perTransaction });
    });
    run.batches += step.batches;
    run.rows += step.rows;
    if (step.batches < perTransaction) break;
    if (stop()) {
      run.unfinished = true;
      return run;
    }
  }

  // Retention counts from the hour, so a whole hour of minute rows goes at once and the minute rows
  // never hold half an hour the hourly rows lack.
  const minutesBefore = new Date(hour - (options.minuteRetentionHours ?? MINUTE_RETENTION_HOURS) * HOUR_MS);
  for (const { key } of ALGORITHMS) {
    for (;;) {
      const deleted = await pruneWorkerMinutes(db, key, minutesBefore, chunk);
      run.minutesDeleted += deleted;
      if (deleted < chunk) break;
      if (stop()) {
        run.unfinished = true;
        return run;
      }
    }
  }
  const hoursBefore = new Date(hour - (options.workerHourRetentionHours ?? WORKER_HOUR_RETENTION_HOURS) * HOUR_MS);
  // The refusals by reason and the connection history are kept as long as the hour rows they sit beside.
  for (const prune of [pruneWorkerHours, pruneWorkerRejects, pruneWorkerConnections]) {
    for (;;) {
      const deleted = await prune(db, hoursBefore, chunk);
      run.hoursDeleted += deleted;
      if (deleted < chunk) break;
      if (stop()) {
        run.unfinished = true;
        return run;
      }
    }
  }
  return run;
}

/**
 * The rollup as a job: every minute, a few seconds after the minute turns (the batches of the minute
 * that just ended are flushed and applied by then; later ones are rolled the minute after), and at
 * start so a restarted server works off what piled up. Singleton: with two jobs processes one rolls,
 * the other stands by (the rollup lock would make a second one wait anyway). Its retry policy is the
 * next minute: a failed run changed nothing (each step is one transaction) or finished some steps,
 * which the next run does not repeat.
 */
export function workerRollupJob(options: WorkerRollupOptions = {}): JobDefinition {
  statsWindow(new Date(0), options.windowMinutes ?? DEFAULT_STATS_WINDOW_MINUTES); // refuse a bad window at start-up
  return {
    name: 'worker-rollup',
    everyMs: MINUTE_MS,
    offsetMs: 5_000,
    runOnStart: true,
    singleton: true,
    async run({ database, now, signal, log }) {
      const result = await runWorkerRollup(database.db, now, { ...options, signal });
      if (result.unfinished)
        log.warn({ job: 'worker-rollup', ...result }, 'worker rollup did not finish; continuing next minute');
      else log.debug({ job: 'worker-rollup', ...result }, 'worker statistics rolled up');
    },
  };
}
