import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { JobStatus } from './scheduler.js';

/** What accounting reports for monitoring, on the jobs process's /metrics. */
export interface AccountingMetrics {
  /** A share batch applied (not a redelivery), `lagSeconds` after the end of the interval it counts. */
  batchApplied(algorithm: string, node: string, lagSeconds: number): void;
  /** A found block written to the blocks table (not a redelivery). */
  blockRecorded(algorithm: string, coin: string): void;
}

export const NO_ACCOUNTING_METRICS: AccountingMetrics = {
  batchApplied() {},
  blockRecorded() {},
};

/** Accounting's metrics in a prom-client registry. */
export function prometheusAccountingMetrics(registry: Registry): AccountingMetrics {
  const lag = new Histogram({
    name: 'lodestone_share_batch_lag_seconds',
    help: 'From the end of the interval a share batch counts to its application by accounting (publication every 5 s, the bus, the database), by algorithm and stratum node.',
    labelNames: ['algorithm', 'node'] as const,
    buckets: [0.5, 1, 2, 5, 10, 30, 60, 300, 1800, 3600],
    registers: [registry],
  });
  const blocks = new Counter({
    name: 'lodestone_blocks_recorded_total',
    help: 'Found blocks recorded by accounting, by algorithm and coin: beside lodestone_stratum_blocks_total, a block found but never recorded.',
    labelNames: ['algorithm', 'coin'] as const,
    registers: [registry],
  });
  return {
    batchApplied: (algorithm, node, lagSeconds) => lag.observe({ algorithm, node }, Math.max(0, lagSeconds)),
    blockRecorded: (algorithm, coin) => blocks.inc({ algorithm, coin }),
  };
}

/**
 * The periodic jobs as the scheduler counts them, read when /metrics is scraped: runs, failures, the
 * last run's length and whether it failed (the ledger check fails its run on any problem; payouts,
 * confirmations, rollups and the rest on any error). Only the active jobs process runs them.
 */
export function registerJobMetrics(registry: Registry, jobs: { status(): JobStatus[] }): void {
  const gauge = (name: string, help: string, value: (status: JobStatus) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ['job'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const status of jobs.status()) {
          const figure = value(status);
          if (figure !== undefined) this.set({ job: status.name }, figure);
        }
      },
    });
  gauge(
    'lodestone_job_runs',
    'Runs of each periodic job in this process since it started, failed or not.',
    (s) => s.runs,
  );
  gauge(
    'lodestone_job_failures',
    'Failed runs of each periodic job in this process since it started.',
    (s) => s.failures,
  );
  gauge(
    'lodestone_job_last_failed',
    '1 when the last run of the job failed, 0 when it succeeded (absent before a run).',
    (s) => (s.runs === 0 ? undefined : s.lastError === null ? 0 : 1),
  );
  gauge(
    'lodestone_job_last_run_timestamp_seconds',
    'When the last run of the job started (absent before a run).',
    (s) => (s.lastStartedAt ? s.lastStartedAt.getTime() / 1000 : undefined),
  );
  gauge(
    'lodestone_job_last_duration_seconds',
    'How long the last run of the job took (absent before a run ends).',
    (s) => (s.lastDurationMs === null ? undefined : s.lastDurationMs / 1000),
  );
}
