import { type Database, insertUser, type PoolStats, saveNetworkState, savePrices } from '@lodestone/db';
import { createTestDatabase, emptyTestDatabase, testEngines } from '@lodestone/db/testing';
import type { AlgorithmKey, ShareBatch } from '@lodestone/domain';
import { POW } from '@lodestone/pow';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { powHashesPerDifficulty } from '../services/hashesPerDifficulty.js';
import { applyShareBatch, recordFoundBlock } from './accounting.js';
import { rollupJob, rollupPoolStats } from './rollup.js';
import { foundBlock, shareBatch, shareCounts } from './testing.js';

const options = { windowMinutes: 10, hashesPerDifficulty: powHashesPerDifficulty };
// Window at 10:00:10 with 10 minutes: the complete minutes 09:50 … 09:59, i.e. 600 s.
/** On a minute boundary the window is exactly the ten complete minutes before it. */
const NOW = new Date('2024-05-06T10:00:00Z');

/** Synthetic traffic of known difficulty, in and around the window. */
function traffic(): ShareBatch[] {
  return [
    // inside the window
    shareBatch('2024-05-06T09:50:05Z', [shareCounts('alice', 'rig1', { acceptedDifficulty: 1000, valid: 10 })]),
    shareBatch('2024-05-06T09:55:00Z', [
      shareCounts('bob', 'rig1', { acceptedDifficulty: 2999.5, valid: 30, stale: 2 }),
      shareCounts('erin', 'rig1', { invalid: 9 }), // no accepted share: not an active miner
    ]),
    shareBatch('2024-05-06T09:55:05Z', [shareCounts('bob', 'rig1', { acceptedDifficulty: 0.5, valid: 1 })]),
    // 09:59:58 – 10:00:03 ends in 10:00: the current minute, outside the window
    shareBatch('2024-05-06T10:00:03Z', [shareCounts('dave', 'rig1', { acceptedDifficulty: 7000, valid: 7 })]),
    // 09:59:55 – 10:00:00 ends in 09:59: inside
    shareBatch('2024-05-06T10:00:00Z', [shareCounts('alice', 'rig2', { acceptedDifficulty: 2000, valid: 20 })]),
    // stale data: before the window
    shareBatch('2024-05-06T09:49:59Z', [shareCounts('carol', 'rig1', { acceptedDifficulty: 5000, valid: 50 })]),
    // other algorithms
    shareBatch('2024-05-06T09:57:00Z', [shareCounts('dave', 'asic', { acceptedDifficulty: 600, valid: 6 })], {
      algorithm: 'sha256',
    }),
    shareBatch('2024-05-06T09:58:00Z', [shareCounts('frank', 'fpga', { acceptedDifficulty: 1200, valid: 12 })], {
      algorithm: 'eaglesong',
    }),
  ];
}

function byAlgorithm(rows: PoolStats[]): Record<AlgorithmKey, PoolStats> {
  return Object.fromEntries(rows.map((r) => [r.algorithm, r])) as Record<AlgorithmKey, PoolStats>;
}

describe.each(testEngines())('pool stats rollup on %s', (engine) => {
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

  it('publishes the PPS rate as profit (BTC per H/s per day) and its 24-hour mean', async () => {
    // A snapshot taken before the network was known (profit 0) is no rate: the 24-hour mean leaves it out.
    const earlier = new Date(NOW.getTime() - 60_000);
    expect(byAlgorithm(await rollupPoolStats(database.db, earlier, options)).scrypt.profit).toBe('0');
    await savePrices(database.db, {
      source: 'test',
      takenAt: NOW,
      quotes: [
        { ticker: 'LTC', usd: '80' },
        { ticker: 'BTC', usd: '100000' },
      ],
    });
    await saveNetworkState(database.db, {
      algorithm: 'scrypt',
      coin: 'LTC',
      height: 1,
      reward: 625_000_000n,
      difficulty: '1000000',
      demo: false,
      observedAt: NOW,
    });
    // A hash is worth 6.25 LTC ÷ (1,000,000 × 65,536); a day of 1 H/s at $80 / $100,000 per BTC:
    // 86,400 × 6.25 × 0.0008 ÷ 65,536,000,000 = 6.591796875e-9 BTC.
    const first = byAlgorithm(await rollupPoolStats(database.db, NOW, options));
    expect(first.scrypt.profit).toBe('0.000000006591796875');
    expect(first.scrypt.profit_avg_24h).toBe('0.000000006591796875');
    expect(first.sha256.profit).toBe('0'); // no network known: never made up

    // The network doubles its difficulty: the rate halves, the 24-hour mean is between the two.
    await saveNetworkState(database.db, {
      algorithm: 'scrypt',
      coin: 'LTC',
      height: 2,
      reward: 625_000_000n,
      difficulty: '2000000',
      demo: false,
      observedAt: new Date(NOW.getTime() + 60_000),
    });
    const second = byAlgorithm(await rollupPoolStats(database.db, new Date(NOW.getTime() + 60_000), options));
    expect(second.scrypt.profit).toBe('0.0000000032958984375');
    expect(second.scrypt.profit_avg_24h).toBe('0.00000000494384765625');
  });

  it('uses the proof-of-work conventions of @lodestone/pow', () => {
    expect(POW.scrypt.hashesPerDifficulty).toBe(2 ** 16);
    expect(POW.sha256.hashesPerDifficulty).toBe(2 ** 32);
    expect(powHashesPerDifficulty('eaglesong')).toBe(1);
  });

  it('gives the exact hashrate and counts of synthetic shares, ignoring data outside the window', async () => {
    for (const batch of traffic()) await applyShareBatch(database.db, batch);
    const stats = byAlgorithm(await rollupPoolStats(database.db, NOW, options));

    expect(Object.keys(stats)).toEqual(['scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash']);
    // Σ difficulty in the window = 1000 + 2999.5 + 0.5 + 2000 = 6000 → 6000 × 65536 / 600 H/s
    expect(stats.scrypt).toMatchObject({
      taken_at: new Date('2024-05-06T10:00:00Z'),
      hashrate: String((6000 * 65536) / 600),
      miners: 2, // alice, bob (erin had no accepted share; carol and dave are outside the window)
      workers: 3, // alice.rig1, alice.rig2, bob.rig1
      profit: '0',
      profit_avg_24h: '0',
    });
    expect(stats.scrypt.hashrate).toBe('655360');
    // 600 × 2^32 / 600
    expect(stats.sha256).toMatchObject({ hashrate: '4294967296', miners: 1, workers: 1 });
    // 1200 × 1 / 600
    expect(stats.eaglesong).toMatchObject({ hashrate: '2', miners: 1, workers: 1 });
    expect(stats.x11).toMatchObject({ hashrate: '0', miners: 0, workers: 0, total_hashes: '0', blocks: 0 });
  });

  it('writes all-time figures: total hashes, registered users, blocks not rejected', async () => {
    for (const batch of traffic()) await applyShareBatch(database.db, batch);
    // Two who can log in, one deleted, and the demo network's user (no password): two registered users.
    for (const [email, passwordHash, deleted] of [
      ['ann@example.com', '$argon2id$x', false],
      ['ben@example.com', '$argon2id$y', false],
      ['gone@example.com', '$argon2id$z', true],
      ['demo@lodestone.invalid', null, false],
    ] as const) {
      const user = await insertUser(database.db, { email, passwordHash });
      if (user.ok && deleted) {
        await database.db.updateTable('users').set({ deleted_at: NOW }).where('id', '=', user.row.id).execute();
      }
    }
    await recordFoundBlock(database.db, foundBlock({ hash: '01'.repeat(32) }));
    await recordFoundBlock(
      database.db,
      foundBlock({ hash: '02'.repeat(32), submitResult: { accepted: false, reason: 'stale' } }),
    );
    await recordFoundBlock(database.db, foundBlock({ hash: '03'.repeat(32), algorithm: 'sha256', coin: 'BTC' }));
    const stats = byAlgorithm(await rollupPoolStats(database.db, NOW, options));

    // every accepted share ever, window or not: 1000 + 2999.5 + 0.5 + 7000 + 2000 + 5000 = 18000
    expect(stats.scrypt.total_hashes).toBe(String(18000 * 65536));
    expect(stats.sha256.total_hashes).toBe(String(600 * 2 ** 32));
    expect(stats.eaglesong.total_hashes).toBe('1200');
    // The same pool-wide count on every algorithm, whoever mined what.
    for (const row of Object.values(stats)) expect(row.users).toBe(2);
    expect([stats.scrypt.blocks, stats.sha256.blocks, stats.x11.blocks]).toEqual([1, 1, 0]);
  });

  it('counts a batch delivered twice, in sequence or concurrently, once', async () => {
    const batches = traffic();
    for (const batch of batches) await applyShareBatch(database.db, batch);
    const once = await rollupPoolStats(database.db, NOW, options);

    for (const batch of batches) await applyShareBatch(database.db, batch);
    await Promise.all(
      batches.flatMap((batch) => [applyShareBatch(database.db, batch), applyShareBatch(database.db, batch)]),
    );
    expect(await rollupPoolStats(database.db, NOW, options)).toEqual(once);
  });

  it('rewrites the snapshot of its minute when run again, and moves on with the clock', async () => {
    for (const batch of traffic()) await applyShareBatch(database.db, batch);
    await rollupPoolStats(database.db, NOW, options);
    // a late batch for 09:59 arrives; a second run at the same moment includes it and rewrites the row
    await applyShareBatch(
      database.db,
      shareBatch('2024-05-06T09:59:30Z', [shareCounts('gina', 'rig1', { acceptedDifficulty: 600, valid: 1 })]),
    );
    const again = byAlgorithm(await rollupPoolStats(database.db, NOW, options));
    expect(again.scrypt).toMatchObject({ hashrate: String((6600 * 65536) / 600), miners: 3 });
    const { rows } = await sql<{ n: bigint }>`select count(*) as n from pool_stats`.execute(database.db);
    expect(rows[0]?.n).toBe(6n);

    // ten minutes later the window holds only dave's 10:00 shares
    const later = byAlgorithm(await rollupPoolStats(database.db, new Date('2024-05-06T10:10:00Z'), options));
    expect(later.scrypt).toMatchObject({
      taken_at: new Date('2024-05-06T10:10:00Z'),
      hashrate: '764586.667',
      miners: 1,
    }); // 7000 × 65536 / 600, to 3 places
  });

  it('honours a configured window length', async () => {
    for (const batch of traffic()) await applyShareBatch(database.db, batch);
    // the last 5 complete minutes, 09:55 … 09:59: bob's batch ending 09:55:05 (0.5) and alice.rig2's
    // ending 10:00:00 (2000); bob's batch ending at 09:55:00 belongs to 09:54. 2000.5 × 65536 / 300:
    const stats = byAlgorithm(await rollupPoolStats(database.db, NOW, { ...options, windowMinutes: 5 }));
    expect(stats.scrypt).toMatchObject({ hashrate: '437015.893', miners: 2, workers: 2 });
  });

  it('runs as a job declared as data', async () => {
    const job = rollupJob(options);
    expect(job).toMatchObject({ name: 'pool-stats-rollup', everyMs: 20_000, offsetMs: 0, singleton: true });
    for (const batch of traffic()) await applyShareBatch(database.db, batch);
    const log = { debug() {}, info() {}, warn() {}, error() {} };
    await job.run({ database, log, now: NOW, signal: new AbortController().signal });
    const row = await database.db
      .selectFrom('pool_stats')
      .selectAll()
      .where('algorithm', '=', 'scrypt')
      .executeTakeFirst();
    expect(row?.hashrate).toBe('655360');
    expect(() => rollupJob({ ...options, windowMinutes: 0 })).toThrow(RangeError);
  });
});
