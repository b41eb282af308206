import type { Database } from '@lodestone/db';
import {
  createTestDatabase,
  emptyTestDatabase,
  insertTestAccount,
  seedBalance,
  testEngines,
} from '@lodestone/db/testing';
import { sql } from 'kysely';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { InProcessBus } from '../bus/inProcess.js';
import { ledgerCheckJob } from './credits.js';
import { prometheusAccountingMetrics, registerJobMetrics } from './metrics.js';
import { startJobsRole } from './role.js';
import { foundBlock, recordingLog, shareBatch, shareCounts } from './testing.js';

/**
 * What the jobs process tells Prometheus (deploy/grafana, deploy/prometheus/alerts.yml): the periodic
 * jobs' runs and failures — the ledger check failing its run on any problem — and accounting's
 * share-batch lag and blocks recorded, once each however often the bus delivers them.
 */

async function scrape(registry: Registry, name: string): Promise<string[]> {
  return (await registry.metrics()).split('\n').filter((line) => line.startsWith(name));
}

describe.each(testEngines())('jobs metrics on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await emptyTestDatabase(database.db);
  });

  it('the ledger check fails its run on a balance that is not its entries, and the job metrics say so', async () => {
    const account = await insertTestAccount(database.db, 'alice');
    await seedBalance(database.db, account.id, 'LTC', 500n);
    const check = ledgerCheckJob();
    const context = { database, log: recordingLog(), now: new Date(), signal: new AbortController().signal };
    await expect(check.run(context)).resolves.toBeUndefined();

    await sql`update balances set amount = amount + 1 where coin = 'LTC'`.execute(database.db);
    await expect(check.run(context)).rejects.toThrow(/ledger reconciliation failed: \d+ problem/);

    const registry = new Registry();
    const role = await startJobsRole({ database, bus: new InProcessBus(), log: recordingLog(), jobs: [check] });
    registerJobMetrics(registry, role);
    try {
      await vi.waitFor(() => expect(role.status()[0]?.runs).toBe(1), { timeout: 10_000, interval: 20 });
      expect(await scrape(registry, 'lodestone_job_last_failed')).toEqual([
        'lodestone_job_last_failed{job="ledger-check"} 1',
      ]);
      expect(await scrape(registry, 'lodestone_job_failures')).toEqual([
        'lodestone_job_failures{job="ledger-check"} 1',
      ]);
    } finally {
      await role.stop();
    }
  });

  it('counts each share batch and found block once, with the batch lag from the end of its interval', async () => {
    const registry = new Registry();
    const bus = new InProcessBus();
    const role = await startJobsRole({
      database,
      bus,
      log: recordingLog(),
      jobs: [],
      metrics: prometheusAccountingMetrics(registry),
    });
    try {
      const batch = shareBatch('2026-03-01T12:00:05Z', [shareCounts('alice', 'rig1')]);
      await bus.publishShareBatch(batch);
      await bus.publishShareBatch(batch);
      const block = foundBlock();
      await bus.publishFoundBlock(block);
      await bus.publishFoundBlock(block);
      await vi.waitFor(async () => expect(await scrape(registry, 'lodestone_blocks_recorded_total')).toHaveLength(1), {
        timeout: 10_000,
        interval: 20,
      });
      expect(await scrape(registry, 'lodestone_blocks_recorded_total')).toEqual([
        `lodestone_blocks_recorded_total{algorithm="${block.algorithm}",coin="${block.coin}"} 1`,
      ]);
      await vi.waitFor(
        async () =>
          expect(await scrape(registry, 'lodestone_share_batch_lag_seconds_count')).toEqual([
            `lodestone_share_batch_lag_seconds_count{algorithm="${batch.algorithm}",node="${batch.node}"} 1`,
          ]),
        { timeout: 10_000, interval: 20 },
      );
    } finally {
      await role.stop();
    }
  });
});
