import type { Database } from '@lodestone/db';

/** The part of a pino logger the jobs use (Fastify's `app.log` and `pino()` both fit). */
export interface Log {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** What a job's run gets. */
export interface JobContext {
  database: Database;
  log: Log;
  /** The instant this run was scheduled for (tests pass their own). */
  now: Date;
  /** Aborted when the scheduler stops; long runs should check it between steps. */
  signal: AbortSignal;
}

/**
 * A periodic job, declared as data. Runs happen at the instants where
 * `(epoch ms − offsetMs) mod everyMs = 0`, so every process agrees on them; a run still going at the
 * next instant makes the scheduler skip that instant (never two runs of one job at once). A failed
 * run is logged and counted and simply happens again at the next instant: jobs are written to be
 * idempotent (the rollup rewrites the snapshot of its minute), so that is their retry policy.
 */
export interface JobDefinition {
  name: string;
  everyMs: number;
  /** Shift of the run instants within the period. Default 0. */
  offsetMs?: number;
  /** Also run once right after start. Default false. */
  runOnStart?: boolean;
  /**
   * Also run as soon as accounting applies the first accepted shares of an algorithm since this
   * process started (the pool stats: a new pool, or the first miner after a restart, shows at once
   * instead of at the next instant). Default false.
   */
  runOnNewAlgorithm?: boolean;
  /**
   * At most one process in the cluster runs this job at a time: on PostgreSQL a run first takes
   * `pg_try_advisory_lock` on a key derived from the name and stands by (skips) when another process
   * holds it. PGlite is one process by construction. Default true.
   */
  singleton?: boolean;
  run(ctx: JobContext): Promise<void>;
}
