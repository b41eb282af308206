import { type Database, saveNetworkState, savePrices } from '@lodestone/db';
import { createTestDatabase, emptyTestDatabase, testEngines } from '@lodestone/db/testing';
import { type AlgorithmKey, Exact, networkDifficulty } from '@lodestone/domain';
import { POW } from '@lodestone/pow';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.js';
import { rollupPoolStats } from '../jobs/rollup.js';
import { createStratumWork } from '../network.js';
import { powHashesPerDifficulty } from '../services/hashesPerDifficulty.js';
import { estimatedRevenue } from '../services/mining.js';
import { readPoolStats } from '../services/poolStats.js';
import { batchNetwork } from '../stratum/startStratum.js';
import type { WorkSourceView } from '../stratum/work.js';

/**
 * The demo network's economics as `npm start` runs them (default configuration: no coin daemons, the
 * static demo prices): what the demo chains report to accounting, the PPS rate the rollup publishes
 * and the home page shows, and what a small CPU miner is told it earns.
 *
 * Reference figures: what a real pool paid per unit of hashrate per day in 2025, round orders of
 * magnitude written from memory (no market data was looked up; docs/money.md, "Demo economics"):
 * - SHA256 (Bitcoin): a hashprice of about $45–55 per PH/s per day ≈ 0.0005 BTC per PH/s per day;
 * - SCRYPT (Litecoin with merge-mined Dogecoin): about $0.3–0.6 per GH/s per day ≈ 0.005 BTC per TH/s;
 * - X11 (Dash): a few dollars per TH/s per day ≈ 0.00003 BTC per TH/s;
 * - EAGLESONG (CKB): an Antminer K7 (≈ 60 TH/s) earning a few dollars a day ≈ $0.05 per TH/s
 *   ≈ 0.0000005 BTC per TH/s = 0.0005 BTC per PH/s;
 * - KHEAVYHASH (Kaspa): an IceRiver KS5 (≈ 20 TH/s) earning about $10 a day ≈ $500 per PH/s ≈ 0.005 BTC
 *   per PH/s;
 * - BLAKE2S (Kadena): a Goldshell KD6 (≈ 29 TH/s) earning a dollar or two a day ≈ $0.07 per TH/s
 *   ≈ 0.0000008 BTC per TH/s = 0.0008 BTC per PH/s.
 * The demo must land within a factor of 10 of each (it mines no merge-mined coin and has no fees).
 */
const REFERENCE: Partial<Record<AlgorithmKey, { profit: number; units: string }>> = {
  sha256: { profit: 0.0005, units: 'BTC/PH/s' },
  scrypt: { profit: 0.005, units: 'BTC/TH/s' },
  x11: { profit: 0.00003, units: 'BTC/TH/s' },
  eaglesong: { profit: 0.0005, units: 'BTC/PH/s' },
  kheavyhash: { profit: 0.005, units: 'BTC/PH/s' },
  blake2s: { profit: 0.0008, units: 'BTC/PH/s' },
};

const NOW = new Date('2026-01-05T10:00:00Z');
const WINDOW_SECONDS = 600;
const QUIET = { info() {}, warn() {}, error() {} };

/** The network each default demo source stamps on its share batches, recorded as accounting does. */
async function recordDemoNetworks(database: Database, env: Record<string, string> = {}): Promise<WorkSourceView[]> {
  const config = parseConfig(env);
  const sources = createStratumWork(config, QUIET).map((w) => w.source);
  for (const source of sources) {
    await source.start();
    const network = batchNetwork(source);
    await source.stop();
    if (!network) throw new Error(`no demo job for ${source.algorithm}`);
    // Its blocks are found at its own easy target, which rounds and effort are measured against: the
    // valuation's with DEMO_VALUATION=chain (CKB's compact target rounds it by a few parts per million).
    const blocks = Number(network.blockDifficulty ?? network.difficulty);
    if (env.DEMO_VALUATION === 'chain') expect(blocks / Number(network.difficulty), source.algorithm).toBeCloseTo(1, 4);
    else expect(blocks, source.algorithm).toBeLessThan(Number(network.difficulty) / 1000);
    await saveNetworkState(database.db, {
      algorithm: source.algorithm,
      coin: network.coin,
      height: network.height,
      reward: BigInt(network.reward),
      difficulty: network.difficulty,
      demo: network.demo,
      observedAt: NOW,
    });
  }
  await savePrices(database.db, {
    source: 'static',
    takenAt: NOW,
    quotes: Object.entries(config.prices).map(([ticker, usd]) => ({ ticker, usd })),
  });
  await rollupPoolStats(database.db, NOW, { windowMinutes: 10, hashesPerDifficulty: powHashesPerDifficulty });
  return sources;
}

/** A CPU miner's estimated 24-hour revenue in dollars at `hashrate` H/s, before rounding to the cent. */
function cpuEstimate(algorithm: AlgorithmKey, hashrate: number, profitPerHash: string, btcUsd: string) {
  const hashesPerDifficulty = POW[algorithm].hashesPerDifficulty;
  const exact = Exact.of(hashrate).times(Exact.of(profitPerHash)).times('0.99').times(Exact.of(btcUsd));
  const shown = estimatedRevenue({
    windowDifficulty: Exact.of(hashrate * WINDOW_SECONDS)
      .dividedBy(hashesPerDifficulty, 18)
      .toString(),
    windowSeconds: WINDOW_SECONDS,
    hashesPerDifficulty,
    profit: profitPerHash,
    btcUsd,
    feePercent: '1',
    feeDiscount: '0',
  });
  return { exact: exact.toNumber(), shown };
}

describe.each(testEngines())('demo network economics on %s', (engine) => {
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

  it('shows a profit per unit of hashrate within a factor of 10 of the real coin’s, while blocks stay easy', async () => {
    const sources = await recordDemoNetworks(database);
    const shown = await readPoolStats(database.db, NOW);
    for (const source of sources) {
      const reference = REFERENCE[source.algorithm];
      if (!reference) throw new Error(`no reference figure for ${source.algorithm}`);
      const stats = shown[source.algorithm];
      expect(stats.profit_units).toBe(reference.units);
      const ratio = stats.profit / reference.profit;
      expect(ratio, `${source.algorithm}: ${stats.profit} ${stats.profit_units} per day`).toBeGreaterThan(0.1);
      expect(ratio, `${source.algorithm}: ${stats.profit} ${stats.profit_units} per day`).toBeLessThan(10);

      // The demo fleet still finds blocks: the chain's own target is trillions of times easier than
      // the difficulty its shares are valued at.
      const job = source.current();
      if (!job) throw new Error('no job');
      const hashesPerDifficulty = POW[source.algorithm].hashesPerDifficulty;
      const blocksAt = Exact.of(networkDifficulty(job.networkTarget, hashesPerDifficulty));
      const valuedAt = Exact.of(networkDifficulty(job.valuationTarget ?? job.networkTarget, hashesPerDifficulty));
      expect(valuedAt.dividedBy(blocksAt, 0).compare(1_000_000)).toBeGreaterThan(0);
    }
  });

  it('tells a 454 H/s CPU miner it earns far less than a cent a day', async () => {
    await recordDemoNetworks(database);
    const rows = await sql<{
      algorithm: AlgorithmKey;
      profit: string;
    }>`select algorithm, profit from pool_stats where taken_at = ${NOW}`.execute(database.db);
    for (const row of rows.rows.filter((r) => REFERENCE[r.algorithm])) {
      const { exact, shown } = cpuEstimate(row.algorithm, 454, row.profit, '90000');
      expect(exact, row.algorithm).toBeGreaterThan(0);
      expect(exact, row.algorithm).toBeLessThan(0.001);
      expect(shown, row.algorithm).toBe(0);
    }
  });

  it('values shares at the demo chain’s own easy difficulty with DEMO_VALUATION=chain (fast balances)', async () => {
    await recordDemoNetworks(database, { DEMO_VALUATION: 'chain' });
    const shown = await readPoolStats(database.db, NOW);
    // Millions of times the reference: the figures a newcomer must not see by default.
    expect(shown.sha256.profit / 0.0005).toBeGreaterThan(1_000_000);
    const row = await sql<{ profit: string }>`
      select profit from pool_stats where taken_at = ${NOW} and algorithm = 'sha256'`.execute(database.db);
    expect(cpuEstimate('sha256', 454, row.rows[0]?.profit ?? '0', '90000').shown).toBeGreaterThan(1000);
  });
});
