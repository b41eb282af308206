import { createHash } from 'node:crypto';
import type { Database, DB } from '@lodestone/db';
import { type Kysely, sql } from 'kysely';
import type { JobContext, JobDefinition, Log } from './types.js';

export interface JobStatus {
  name: string;
  running: boolean;
  /** Runs that completed, failed or not. */
  runs: number;
  failures: number;
  /** Instants skipped because the previous run was still going. */
  skippedBusy: number;
  /** Instants skipped because another process held the job's lock (this one stands by). */
  skippedLocked: number;
  lastStartedAt: Date | null;
  lastDurationMs: number | null;
  lastError: string | null;
}

export interface Scheduler {
  status(): JobStatus[];
  /** Runs a job now, outside its schedule, with the same rules (lock, no overlap). For tests and tools. */
  runNow(name: string, now?: Date): Promise<void>;
  /**
   * Asks for a run outside the schedule because something it reads changed: now, or, when a run is
   * going on (which may have read before the change), once more right after it. Never two at once.
   */
  wake(name: string): void;
  /** Cancels future runs, aborts the signal, and waits for runs in progress to finish. */
  stop(): Promise<void>;
}

export interface SchedulerOptions {
  jobs: readonly JobDefinition[];
  database: Database;
  log: Log;
  /**
   * Asked before every run: false stands the run by, as a lock held elsewhere does (the jobs lease
   * lapsed: this process may have been frozen past its deadline and another one leads now).
   */
  mayRun?: () => boolean;
}

/** The advisory lock key of a job: the first 8 bytes of SHA-256 of its name, as a signed int8. */
export function jobLockKey(name: string): bigint {
  const hex = createHash('sha256').update(`lodestone-job:${name}`).digest('hex').slice(0, 16);
  return BigInt.asIntN(64, BigInt(`0x${hex}`));
}

/** The first instant after `now` where (t − offset) is a multiple of `every`. */
export function nextRunAt(nowMs: number, everyMs: number, offsetMs = 0): number {
  return offsetMs + (Math.floor((nowMs - offsetMs) / everyMs) + 1) * everyMs;
}

interface Entry {
  job: JobDefinition;
  status: JobStatus;
  timer: NodeJS.Timeout | undefined;
  running: Promise<void> | undefined;
  /** Instants skipped while the current run goes on: one warning per overrun, not one per instant. */
  skippedThisRun: number;
  /** wake() came while a run was going on: run once more when it ends. */
  wokenWhileRunning: boolean;
}

/** Starts running `jobs` on their schedules. */
export function startScheduler({ jobs, database, log, mayRun = () => true }: SchedulerOptions): Scheduler {
  const names = new Set<string>();
  for (const job of jobs) {
    if (names.has(job.name)) throw new Error(`two jobs are named ${job.name}`);
    if (!(Number.isInteger(job.everyMs) && job.everyMs > 0)) throw new Error(`job ${job.name}: everyMs must be > 0`);
    names.add(job.name);
  }
  const abort = new AbortController();
  let stopped = false;
  const entries = new Map<string, Entry>(
    jobs.map((job) => [
      job.name,
      {
        job,
        timer: undefined,
        running: undefined,
        skippedThisRun: 0,
        wokenWhileRunning: false,
        status: {
          name: job.name,
          running: false,
          runs: 0,
          failures: 0,
          skippedBusy: 0,
          skippedLocked: 0,
          lastStartedAt: null,
          lastDurationMs: null,
          lastError: null,
        },
      },
    ]),
  );

  const locks = database.engine === 'postgres' ? new JobLocks(database, log) : undefined;

  async function runLocked(job: JobDefinition, ctx: JobContext): Promise<'ran' | 'locked'> {
    if (!mayRun()) return 'locked';
    if (job.singleton === false || locks === undefined) {
      await job.run(ctx);
      return 'ran';
    }
    const key = jobLockKey(job.name);
    if (!(await locks.tryLock(key))) return 'locked';
    try {
      await job.run(ctx);
      return 'ran';
    } finally {
      await locks.unlock(key);
    }
  }

  function trigger(entry: Entry, now: Date): Promise<void> {
    const { job, status } = entry;
    if (entry.running) {
      status.skippedBusy++;
      // A run that hangs (a node or API that never answers) would otherwise warn at every instant.
      if (entry.skippedThisRun++ === 0) {
        log.warn({ job: job.name }, 'job still running at its next instant; skipping instants until it ends');
      }
      return entry.running;
    }
    const started = performance.now();
    const ctx: JobContext = { database, log, now, signal: abort.signal };
    status.running = true;
    entry.running = runLocked(job, ctx)
      .then(
        (outcome) => {
          if (outcome === 'locked') {
            status.skippedLocked++;
            log.debug({ job: job.name }, 'another process holds the job lock; standing by');
            return;
          }
          status.runs++;
          status.lastStartedAt = new Date(started);
          status.lastDurationMs = performance.now() - started;
          status.lastError = null;
        },
        (error: unknown) => {
          status.runs++;
          status.failures++;
          status.lastStartedAt = new Date(started);
          status.lastDurationMs = performance.now() - started;
          status.lastError = error instanceof Error ? error.message : String(error);
          log.error({ job: job.name, err: error, failures: status.failures }, 'job failed; it runs again next time');
        },
      )
      .finally(() => {
        status.running = false;
        entry.running = undefined;
        if (entry.skippedThisRun > 0)
          log.info({ job: job.name, skipped: entry.skippedThisRun }, 'overrunning job ended');
        entry.skippedThisRun = 0;
        if (entry.wokenWhileRunning) {
          entry.wokenWhileRunning = false;
          if (!stopped) void trigger(entry, new Date());
        }
      });
    return entry.running;
  }

  function schedule(entry: Entry): void {
    if (stopped) return;
    const { everyMs, offsetMs = 0 } = entry.job;
    const at = nextRunAt(Date.now(), everyMs, offsetMs);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      void trigger(entry, new Date(at));
      schedule(entry);
    }, at - Date.now());
  }

  for (const entry of entries.values()) {
    if (entry.job.runOnStart) void trigger(entry, new Date());
    schedule(entry);
  }

  return {
    status: () => [...entries.values()].map((e) => ({ ...e.status })),
    runNow(name, now = new Date()) {
      const entry = entries.get(name);
      if (!entry) return Promise.reject(new Error(`no job named ${name}`));
      if (stopped) return Promise.reject(new Error('the scheduler is stopped'));
      return trigger(entry, now);
    },
    wake(name) {
      const entry = entries.get(name);
      if (!entry) throw new Error(`no job named ${name}`);
      if (stopped) return;
      if (entry.running) entry.wokenWhileRunning = true;
      else void trigger(entry, new Date());
    },
    async stop() {
      stopped = true;
      for (const entry of entries.values()) {
        if (entry.timer) clearTimeout(entry.timer);
        entry.timer = undefined;
      }
      abort.abort();
      await Promise.all([...entries.values()].map((e) => e.running));
      await locks?.close();
    },
  };
}

/**
 * The singleton jobs' PostgreSQL session locks, all on one connection the scheduler keeps: a job
 * holds no connection while it runs besides what its own queries take. (A connection per running job,
 * held while the job's queries waited for another, deadlocked the jobs role at start-up: eleven jobs
 * on a pool of ten.) When that connection breaks, the locks it held are gone with it: the jobs running
 * under them finish, and the next lock opens a new connection.
 */
class JobLocks {
  private held: Promise<HeldConnection> | undefined;

  constructor(
    private readonly database: Database,
    private readonly log: Log,
  ) {}

  async tryLock(key: bigint): Promise<boolean> {
    try {
      const connection = await this.connection();
      const { rows } = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_lock(${key.toString()}::bigint) as locked`.execute(connection.db);
      return rows[0]?.locked === true;
    } catch (error) {
      this.log.warn({ err: error }, 'job lock connection failed; the job waits for its next instant');
      await this.close();
      return false;
    }
  }

  async unlock(key: bigint): Promise<void> {
    const held = this.held;
    if (held === undefined) return;
    try {
      await sql`select pg_advisory_unlock(${key.toString()}::bigint)`.execute((await held).db);
    } catch (error) {
      // The session is gone, and its locks with it.
      this.log.warn({ err: error }, 'job lock connection failed while unlocking; its locks ended with it');
      await this.close();
    }
  }

  async close(): Promise<void> {
    const held = this.held;
    this.held = undefined;
    if (held) await held.then((connection) => connection.release()).catch(() => undefined);
  }

  private connection(): Promise<HeldConnection> {
    if (this.held === undefined) {
      const held = holdConnection(this.database);
      this.held = held;
      // A connection that could not be had is not kept: the next lock tries again.
      held.catch(() => {
        if (this.held === held) this.held = undefined;
      });
    }
    return this.held;
  }
}

interface HeldConnection {
  db: Kysely<DB>;
  release(): Promise<void>;
}

/** One pooled connection kept out of the pool until `release` (Kysely lends one for a callback's length). */
function holdConnection(database: Database): Promise<HeldConnection> {
  return new Promise((resolve, reject) => {
    let release!: () => void;
    const released = new Promise<void>((done) => {
      release = done;
    });
    const finished = database.db
      .connection()
      .execute(async (db) => {
        resolve({
          db,
          release: async () => {
            release();
            await finished;
          },
        });
        await released;
      })
      .catch(reject);
  });
}
