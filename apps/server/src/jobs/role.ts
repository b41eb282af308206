import type { Database } from '@lodestone/db';
import { DEFAULT_STATS_WINDOW_MINUTES } from '@lodestone/domain';
import type { ShareBus } from '../bus/types.js';
import { type HashesPerDifficulty, powHashesPerDifficulty } from '../services/hashesPerDifficulty.js';
import { type CreditSettings, startShareConsumers } from './accounting.js';
import { ledgerCheckJob, type PriceFeed, pendingCreditJob, pricesJob } from './credits.js';
import { rollupJob } from './rollup.js';
import { type JobStatus, startScheduler } from './scheduler.js';
import type { JobDefinition, Log } from './types.js';

export interface JobsRoleOptions {
  database: Database;
  bus: ShareBus;
  log: Log;
  /** Minutes of shares behind the pool hashrate and active miners. Default 10. */
  statsWindowMinutes?: number;
  /** Tests only; production uses @lodestone/pow's conventions. */
  hashesPerDifficulty?: HashesPerDifficulty;
  /** PPS crediting of share batches (and the pending-credit and ledger-check jobs); off when absent. */
  credit?: CreditSettings;
  /** Where prices come from, fetched every priceRefreshMs. */
  prices?: { feed: PriceFeed; everyMs: number };
  /** Further periodic jobs (payouts, block confirmations). */
  jobs?: JobDefinition[];
}

export interface JobsRole {
  status(): JobStatus[];
  /**
   * Stops consuming (waiting for a message being applied) and stops the scheduler (waiting for a
   * running job). Call it after the bus has drained — bus.close() — so queued batches are applied.
   */
  stop(): Promise<void>;
}

/**
 * The jobs role: accounting consumers on the share bus, and the periodic jobs (the pool stats rollup
 * for now). Returns once the consumers are subscribed and the scheduler is running.
 */
export async function startJobsRole(options: JobsRoleOptions): Promise<JobsRole> {
  const { database, bus, log } = options;
  const windowMinutes = options.statsWindowMinutes ?? DEFAULT_STATS_WINDOW_MINUTES;
  const rollup = rollupJob({
    windowMinutes,
    hashesPerDifficulty: options.hashesPerDifficulty ?? powHashesPerDifficulty,
  });
  const jobs: JobDefinition[] = [rollup];
  if (options.prices) jobs.push(pricesJob(options.prices.feed, options.prices.everyMs));
  if (options.credit) jobs.push(pendingCreditJob(options.credit), ledgerCheckJob());
  jobs.push(...(options.jobs ?? []));
  const unsubscribe = await startShareConsumers({ bus, db: database.db, log, credit: options.credit });
  let scheduler: ReturnType<typeof startScheduler>;
  try {
    scheduler = startScheduler({ jobs, database, log });
  } catch (error) {
    await unsubscribe();
    throw error;
  }
  log.info({ jobs: jobs.map((j) => j.name), statsWindowMinutes: windowMinutes }, 'jobs role started');
  let stopping: Promise<void> | undefined;
  return {
    status: () => scheduler.status(),
    stop() {
      stopping ??= (async () => {
        await unsubscribe();
        await scheduler.stop();
      })();
      return stopping;
    },
  };
}
