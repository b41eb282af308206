import type { Database } from '@lodestone/db';
import type { ShareBus } from '../bus/types.js';
import { type CreditSettings, startShareConsumers } from './accounting.js';
import { Lease } from './lease.js';
import type { AccountingMetrics } from './metrics.js';
import { type JobStatus, startScheduler } from './scheduler.js';
import type { JobDefinition, Log } from './types.js';

export interface JobsRoleOptions {
  database: Database;
  bus: ShareBus;
  log: Log;
  /** PPS crediting of share batches as they are applied; off when absent. */
  credit?: CreditSettings;
  /** The periodic jobs, all of them (the pool's list is roles/jobs.ts's). */
  jobs: JobDefinition[];
  /** Accounting's metrics (share-batch lag, blocks recorded); none when absent. */
  metrics?: AccountingMetrics;
  /**
   * On PostgreSQL: run only while holding the jobs lease, so one process of several is active and
   * the others stand by (lease.ts). Without it the work starts at once (one process, or tests).
   */
  lease?: JobsLeaseOptions;
}

export interface JobsRole {
  status(): JobStatus[];
  /** 'active' does the work; 'standby' waits for the lease (PostgreSQL with `lease` only). */
  state(): JobsRoleState;
  /**
   * Stops consuming (waiting for a message being applied) and stops the scheduler (waiting for a
   * running job), then gives the lease up. Call it after the bus has drained — bus.close() — so
   * queued batches are applied.
   */
  stop(): Promise<void>;
}

export type JobsRoleState = 'active' | 'standby' | 'stopped';

/** The work itself: consumers and scheduler, started together and stopped together. */
interface Work {
  scheduler: ReturnType<typeof startScheduler>;
  stop(): Promise<void>;
}

/**
 * The jobs role's machinery: accounting consumers on the share bus, and the periodic jobs. Returns once the
 * consumers are subscribed and the scheduler is running — or, with `lease` on PostgreSQL, once this
 * process is either active or standing by for another that holds the lease.
 */
export async function startJobsRole(options: JobsRoleOptions): Promise<JobsRole> {
  const { database, bus, log, jobs } = options;

  const startWork = async (mayRun: () => boolean, takeOver: boolean): Promise<Work> => {
    const woken = jobs.filter((j) => j.runOnNewAlgorithm).map((j) => j.name);
    let scheduler: ReturnType<typeof startScheduler> | undefined;
    const unsubscribe = await startShareConsumers({
      bus,
      db: database.db,
      log,
      credit: options.credit,
      mayApply: mayRun,
      takeOver,
      metrics: options.metrics,
      // A batch applied before the scheduler starts is read by the jobs that run on start.
      onNewAlgorithm: () => {
        for (const name of woken) scheduler?.wake(name);
      },
    });
    let started: ReturnType<typeof startScheduler>;
    try {
      started = startScheduler({ jobs, database, log, mayRun });
    } catch (error) {
      await unsubscribe();
      throw error;
    }
    scheduler = started;
    log.info({ jobs: jobs.map((j) => j.name) }, 'jobs role started');
    return {
      scheduler: started,
      async stop() {
        await unsubscribe();
        await started.stop();
      },
    };
  };

  if (options.lease === undefined || database.engine !== 'postgres') {
    const work = await startWork(() => true, false);
    let stopping: Promise<void> | undefined;
    return {
      status: () => work.scheduler.status(),
      state: () => (stopping ? 'stopped' : 'active'),
      stop: () => (stopping ??= work.stop()),
    };
  }
  return startLeadership(options.lease, database, log, startWork);
}

export interface JobsLeaseOptions {
  /** This process, unique per start; also the application_name of its PostgreSQL sessions. */
  holder: string;
  /** How long a renewal keeps the lease (default 15 s); it is renewed every third of it. */
  ttlMs?: number;
  /** How often a standby tries to take the lease. Default 1 s. */
  standbyPollMs?: number;
}

/**
 * Active and standby on one lease: the standby tries to take it every `standbyPollMs`; the active
 * process renews it every third of its ttl and steps down (stops its work, stands by again) when a
 * renewal finds it taken or its own deadline passes. A frozen active process is replaced within
 * ttl + standbyPollMs of its last renewal.
 */
async function startLeadership(
  settings: JobsLeaseOptions,
  database: Database,
  log: Log,
  startWork: (mayRun: () => boolean, takeOver: boolean) => Promise<Work>,
): Promise<JobsRole> {
  const lease = new Lease({ database, name: 'jobs', holder: settings.holder, ttlMs: settings.ttlMs, log });
  const renewEveryMs = Math.max(1, Math.floor(lease.ttlMs / 3));
  const pollMs = settings.standbyPollMs ?? 1_000;
  let work: Work | undefined;
  let lastStatus: JobStatus[] = [];
  let stopped = false;
  let standingByLogged = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> = Promise.resolve();

  const stepDown = async (why: string) => {
    lease.drop();
    const current = work;
    work = undefined;
    if (current === undefined) return;
    log.error({ holder: settings.holder }, `jobs lease lost (${why}): stopping work and standing by`);
    lastStatus = current.scheduler.status();
    await current.stop().catch((error: unknown) => log.error({ err: error }, 'stopping the deposed work failed'));
    standingByLogged = false;
  };

  const tick = async () => {
    if (work !== undefined) {
      try {
        if (!(await lease.renew())) await stepDown('another process holds it');
      } catch (error) {
        if (!lease.held()) await stepDown('it could not be renewed before its deadline');
        else log.warn({ err: error }, 'jobs lease renewal failed; trying again before it lapses');
      }
      return;
    }
    let acquired: Awaited<ReturnType<Lease['tryAcquire']>>;
    try {
      acquired = await lease.tryAcquire();
    } catch (error) {
      log.warn({ err: error }, 'jobs lease: the database cannot be asked; trying again');
      return;
    }
    if (acquired === undefined) {
      if (!standingByLogged) log.info({ holder: settings.holder }, 'another process holds the jobs lease; standing by');
      standingByLogged = true;
      return;
    }
    log.info({ holder: settings.holder, token: acquired.token.toString() }, 'jobs lease taken: this process is active');
    try {
      // Taking the consumers over redelivers at once what a deposed holder had been handed.
      work = await startWork(() => lease.held(), true);
    } catch (error) {
      log.error({ err: error }, 'jobs work could not start; giving the lease up and trying again');
      await lease.release().catch(() => undefined);
    }
  };

  const loop = () => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        ticking = tick().finally(loop);
      },
      work === undefined ? pollMs : renewEveryMs,
    );
  };
  ticking = tick().finally(loop);
  await ticking;

  return {
    status: () => work?.scheduler.status() ?? lastStatus,
    state: () => (stopped ? 'stopped' : work === undefined ? 'standby' : 'active'),
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      await ticking;
      const current = work;
      work = undefined;
      await current?.stop();
      await lease.release().catch((error: unknown) => log.warn({ err: error }, 'jobs lease could not be released'));
    },
  };
}
