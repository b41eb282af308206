import { DemoJobSource } from '@lodestone/chain';
import { poolStatsResponse } from '@lodestone/contract';
import type { Database } from '@lodestone/db';
import { createTestDatabase } from '@lodestone/db/testing';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from './app.js';
import { InProcessBus } from './bus/inProcess.js';
import { bitcoinWork } from './chains/bitcoin/index.js';
import { parseConfig } from './config/config.js';
import { type Fleet, startFleet } from './demo/fleet.js';
import { type JobsRole, startJobsRole } from './jobs/role.js';
import { rollupPoolStats } from './jobs/rollup.js';
import { poolStatsRollup } from './jobs/testing.js';
import { ensureDemoAccounts } from './services/accounts/demo.js';
import { powHashesPerDifficulty } from './services/hashesPerDifficulty.js';
import { describeStratum } from './services/stratumInfo.js';
import { SILENT_LOG } from './stratum/log.js';
import type { StratumAlgorithm } from './stratum/pow.js';
import { type StratumServer, startStratum } from './stratum/startStratum.js';

/**
 * The whole engine in one process, as `npm start` runs it: demo job sources, stratum listeners on
 * real TCP ports, the simulated fleet hashing real shares, the share bus, accounting, the rollup
 * and the API. What the fleet submits must come out of GET /v1/pool/stats as live hashrate.
 */
describe('shares to pool statistics, end to end', () => {
  let database: Database;
  let bus: InProcessBus;
  let jobs: JobsRole;
  let stratum: StratumServer;
  let fleet: Fleet;
  let app: FastifyInstance;
  const sources = [new DemoJobSource({ algorithm: 'sha256' }), new DemoJobSource({ algorithm: 'x11' })];

  beforeAll(async () => {
    database = await createTestDatabase();
    // As `npm start` does: demo1 and demo2 are the demo user's accounts (public names, not anonymous).
    await ensureDemoAccounts(database.db, 2, SILENT_LOG);
    bus = new InProcessBus();
    jobs = await startJobsRole({ database, bus, log: SILENT_LOG, jobs: [poolStatsRollup(10)] });
    for (const source of sources) await source.start();
    stratum = await startStratum({
      node: 'pipeline-test',
      listeners: sources.map((s) => ({
        algorithm: s.algorithm,
        port: 0,
        host: '127.0.0.1',
        kind: 'standard' as const,
      })),
      work: sources.map(bitcoinWork),
      bus,
      log: SILENT_LOG,
      flushIntervalMs: 300,
    });
    fleet = startFleet({
      targets: stratum.listeners.map((l) => ({
        algorithm: l.algorithm as StratumAlgorithm,
        host: '127.0.0.1',
        port: l.port,
      })),
      workers: 4,
      accounts: 2,
      hashrate: { sha256: 20_000, x11: 2_000 },
      shareIntervalSeconds: 0.5,
      log: SILENT_LOG,
    });
    const config = parseConfig({ LOG_LEVEL: 'silent' });
    app = await buildApp({
      config,
      database,
      network: { demo: true },
      stratum: () => describeStratum(config),
      logger: false,
    });
  });

  afterAll(async () => {
    await fleet?.stop();
    await stratum?.stop();
    for (const source of sources) await source.stop();
    await bus?.close();
    await jobs?.stop();
    await app?.close();
    await database?.close();
  });

  it('turns the fleet’s accepted shares into live hashrate, miners and workers', async () => {
    // Wait until every fleet worker has had shares accepted and accounted.
    await vi.waitFor(
      async () => {
        await stratum.flush();
        const row = await sql<{ workers: number }>`
          select count(distinct worker_id)::int as workers
          from worker_stats_minute where accepted_difficulty > 0`.execute(database.db);
        expect(row.rows[0]?.workers).toBe(4);
      },
      { timeout: 30_000, interval: 250 },
    );
    expect(fleet.workers.every((w) => w.accepted > 0)).toBe(true);

    // Roll up now, as the scheduler does every 20 s.
    await rollupPoolStats(database.db, new Date(), {
      windowMinutes: 10,
      hashesPerDifficulty: powHashesPerDifficulty,
    });
    const stats = poolStatsResponse.parse((await app.inject({ url: '/v1/pool/stats' })).json());
    for (const key of ['sha256', 'x11'] as const) {
      expect(stats[key].hashrate, key).toBeGreaterThan(0);
      expect(stats[key].miners, key).toBe(2);
    }
    expect(stats.scrypt).toMatchObject({ hashrate: 0, miners: 0 });

    const detail = (await app.inject({ url: '/v1/pool/stats/sha256' })).json() as {
      workers: number;
      users: number;
      top_hashrate: { user: string }[];
    };
    // The demo fleet's accounts belong to the demo user, who cannot log in: no registered user yet.
    expect(detail).toMatchObject({ workers: 2, users: 0 });
    expect(detail.top_hashrate.map((t) => t.user).sort()).toEqual(['demo1', 'demo2']);
  });
});
