import { randomBytes } from 'node:crypto';
import { errorResponse, soloResponse } from '@lodestone/contract';
import { confirmBlock, insertWatcherLink, pendingBlocks, postSoloReward, setBlockConfirmations } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import type { BatchNetwork, FoundBlock, WorkerShareCounts } from '@lodestone/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, registerUser, type TestUser } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { applyShareBatch, type CreditSettings, recordFoundBlock } from '../../jobs/accounting.js';
import { foundBlock, shareBatch, shareCounts } from '../../jobs/testing.js';

/*
 * GET /v1/user/mining/solo and its observer twin (docs/dashboard.md, Solo mining) on a real database, every figure
 * written by the accounting job and the block recorder and worked out here by hand.
 *
 * Now is 12:05:30 UTC; the statistics window 11:55:00 – now; the 24-hour period 2024-05-05 12:00 – now (86,730 s).
 * LTC blocks at difficulty 1,000,000, 6.25 LTC each; SCRYPT: 65,536 hashes per difficulty 1; SOLO_FEE_PERCENT 1.5.
 * Both solo workers were first seen the day before the period (so each is measured over the whole period).
 * - 08:00:05 bitaxe1 mines 600,000 (best 250,000); 08:30 it finds block 2700001: effort 0.6, matured at 09:00 and
 *   credited ⌊6.25 × (1 − 1.5 %)⌋ = 6.15625 LTC. The account's pool worker rig1 finds pool block 2700010 at 09:00.
 * - 10:00:05 bitaxe2 mines 200,000 (best 150,000); 10:30 it finds block 2700002: effort 0.2, 10 of 100 confirmations.
 * - 11:30 bitaxe1's block 2700003 is refused by the node: not listed.
 * - 12:01:00 bitaxe1 mines 300,000 (best 400,000): the open round, effort 0.3, best 400,000 at 12:00:59.
 * Solo work in the period: 1,100,000; H = 1,100,000 × 65,536 ÷ 86,730 H/s; per block W = 1,000,000 × 65,536.
 */
const NOW = Date.parse('2024-05-06T12:05:30Z');
const PERIOD_SECONDS = 86_730;
const HASHES_PER_DIFFICULTY = 65_536;
const BLOCK_DIFFICULTY = 1_000_000;
const LTC: BatchNetwork = {
  coin: 'LTC',
  height: 2_700_100,
  reward: '625000000',
  difficulty: String(BLOCK_DIFFICULTY),
  demo: false,
};
const SETTINGS: CreditSettings = { feePercent: 1, soloFeePercent: '1.5', priceMaxAgeMs: 1 };

describe.each(testEngines())('solo mining API on %s', (engine) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let newcomer: TestUser;
  const at = (iso: string) => new Date(iso);

  /**
   * A solo worker's counts in the batch ending at `end`, its last share 1 s before it (shareBatch gives the pool
   * workers theirs, not the solo ones).
   */
  const solo = (end: string, account: string, worker: string, over: Partial<WorkerShareCounts>) => {
    const last = Date.parse(end) - 1000;
    return shareCounts(account, worker, {
      lastShareAt: last,
      ...((over.valid ?? 0) > 0 && { lastAcceptedAt: last }),
      ...over,
    });
  };

  async function found(over: Partial<FoundBlock>): Promise<string> {
    const block = foundBlock({ networkDifficulty: String(BLOCK_DIFFICULTY), ...over });
    await recordFoundBlock(t.database.db, block, SETTINGS.soloFeePercent);
    return block.hash;
  }

  async function pending(hash: string) {
    const block = (await pendingBlocks(t.database.db)).find((b) => b.hash === hash);
    if (!block) throw new Error(`block ${hash} is not pending`);
    return block;
  }

  beforeAll(async () => {
    t = await createTestApp({ STATS_WINDOW_MINUTES: '10', SOLO_FEE_PERCENT: '1.5' }, undefined, engine, {
      now: () => new Date(NOW),
    });
    alice = await registerUser(t.app);
    bob = await registerUser(t.app);
    newcomer = await registerUser(t.app);
    const db = t.database.db;
    const me = alice.username;
    const hash = (n: number) => n.toString(16).padStart(64, '0');

    // First seen before the period, on no network yet (no round work).
    await applyShareBatch(
      db,
      shareBatch('2024-05-05T10:00:05Z', [], {
        soloWorkers: [
          solo('2024-05-05T10:00:05Z', me, 'bitaxe1', { acceptedDifficulty: 1000, valid: 1 }),
          solo('2024-05-05T10:00:05Z', me, 'bitaxe2', { valid: 0 }),
        ],
      }),
    );
    await applyShareBatch(
      db,
      shareBatch('2024-05-06T08:00:05Z', [shareCounts(me, 'rig1', { acceptedDifficulty: 5000, valid: 5 })], {
        network: LTC,
        soloWorkers: [
          solo('2024-05-06T08:00:05Z', me, 'bitaxe1', {
            acceptedDifficulty: 600_000,
            valid: 60,
            bestDifficulty: 250_000,
          }),
        ],
      }),
      SETTINGS,
    );
    const first = await found({
      account: me,
      worker: 'bitaxe1',
      height: 2_700_001,
      hash: hash(1),
      foundAt: Date.parse('2024-05-06T08:30:00Z'),
      solo: true,
    });
    await found({
      account: me,
      worker: 'rig1',
      height: 2_700_010,
      hash: hash(10),
      foundAt: Date.parse('2024-05-06T09:00:00Z'),
    });
    const matured = await pending(first);
    await db.transaction().execute(async (trx) => {
      await confirmBlock(trx, matured, { confirmations: 100, at: at('2024-05-06T09:00:00Z'), reward: 625_000_000n });
      await postSoloReward(trx, matured, 625_000_000n, at('2024-05-06T09:00:00Z'));
    });

    await applyShareBatch(
      db,
      shareBatch('2024-05-06T10:00:05Z', [], {
        network: LTC,
        soloWorkers: [
          solo('2024-05-06T10:00:05Z', me, 'bitaxe2', {
            acceptedDifficulty: 200_000,
            valid: 20,
            bestDifficulty: 150_000,
          }),
        ],
      }),
      SETTINGS,
    );
    const second = await found({
      account: me,
      worker: 'bitaxe2',
      height: 2_700_002,
      hash: hash(2),
      foundAt: Date.parse('2024-05-06T10:30:00Z'),
      reward: '625012345',
      solo: true,
    });
    await setBlockConfirmations(db, (await pending(second)).id, 10, 100);
    await found({
      account: me,
      worker: 'bitaxe1',
      height: 2_700_003,
      hash: hash(3),
      foundAt: Date.parse('2024-05-06T11:30:00Z'),
      submitResult: { accepted: false, reason: 'high-hash' },
      solo: true,
    });

    // Bob's solo work and block are his alone.
    await applyShareBatch(
      db,
      shareBatch('2024-05-06T11:00:05Z', [], {
        network: LTC,
        soloWorkers: [
          solo('2024-05-06T11:00:05Z', bob.username, 'cpu', {
            acceptedDifficulty: 900_000,
            valid: 9,
            bestDifficulty: 800_000,
          }),
        ],
      }),
      SETTINGS,
    );
    await found({
      account: bob.username,
      worker: 'cpu',
      height: 2_700_004,
      hash: hash(4),
      foundAt: Date.parse('2024-05-06T11:10:00Z'),
      solo: true,
    });

    await applyShareBatch(
      db,
      shareBatch('2024-05-06T12:01:00Z', [], {
        network: LTC,
        soloWorkers: [
          solo('2024-05-06T12:01:00Z', me, 'bitaxe1', {
            acceptedDifficulty: 300_000,
            valid: 30,
            bestDifficulty: 400_000,
          }),
        ],
      }),
      SETTINGS,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const read = async (user: TestUser, algorithm = 'scrypt') => {
    const res = await get(t.app, '/v1/user/mining/solo', {
      cookie: user.cookie,
      query: { account_name: user.username, algorithm },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return soloResponse.strict().parse(res.json());
  };
  const observe = (key: string) =>
    get(t.app, '/v1/observer/mining/solo', { query: { observer_key: key, algorithm: 'scrypt' } });

  it('answers the account’s solo hashrate, its odds at it, the network, its round and the solo fee', async () => {
    const body = await read(alice);
    expect(body.fee_percent).toBe(1.5);
    expect(body.coin).toBe('LTC');
    expect(body.demo).toBe(false);
    expect(body.network).toEqual({ block_difficulty: BLOCK_DIFFICULTY, block_reward: '6.25' });

    const hashrate = (1_100_000 * HASHES_PER_DIFFICULTY) / PERIOD_SECONDS;
    expect(body.hashrate_units).toBe('Kh/s');
    expect(body.hashrate).toBe(Number((hashrate / 1000).toFixed(2)));
    // p_day = 1 − e^(−H·86400 / (D·hashesPerDifficulty)), the mean time W ÷ H.
    const perBlock = BLOCK_DIFFICULTY * HASHES_PER_DIFFICULTY;
    const pDay = 1 - Math.exp(-(hashrate * 86_400) / perBlock);
    expect(pDay).toBeCloseTo(0.6657, 4);
    // The service sums the workers' hashrates, each rounded to the thousandth of a hash per second (estimateHashrate):
    // the same figures to 8 significant digits.
    expect(body.odds?.p_day).toBeCloseTo(pDay, 8);
    expect((body.odds?.expected_seconds ?? 0) / (perBlock / hashrate)).toBeCloseTo(1, 8);
    expect(perBlock / hashrate).toBeCloseTo((BLOCK_DIFFICULTY * PERIOD_SECONDS) / 1_100_000, 6);

    expect(body.round).toEqual({
      started_at: '2024-05-06T10:30:00.000Z',
      effort: 0.3,
      best_difficulty: 400_000,
      best_at: '2024-05-06T12:00:59.000Z',
    });
  });

  it('lists the solo workers with their best share ever, and only the account’s solo blocks', async () => {
    const body = await read(alice);
    const hashrate = (d: number) => Number(((d * HASHES_PER_DIFFICULTY) / PERIOD_SECONDS / 1000).toFixed(2));
    // Each worker's own odds: 1 − e^(−H·86400 / (D·hashesPerDifficulty)) at its own 24-hour hashrate.
    const dayChance = (d: number) =>
      1 -
      Math.exp((-((d * HASHES_PER_DIFFICULTY) / PERIOD_SECONDS) * 86_400) / (BLOCK_DIFFICULTY * HASHES_PER_DIFFICULTY));
    expect(body.workers.map(({ id: _, ...w }) => w)).toEqual([
      {
        name: 'bitaxe1',
        online: true,
        hashrate: hashrate(900_000),
        hashrate_units: 'Kh/s',
        p_day: expect.closeTo(dayChance(900_000), 8),
        best_difficulty: 400_000,
        best_at: '2024-05-06T12:00:59.000Z',
        last_share_at: '2024-05-06T12:00:59.000Z',
      },
      {
        name: 'bitaxe2',
        online: false,
        hashrate: hashrate(200_000),
        hashrate_units: 'Kh/s',
        p_day: expect.closeTo(dayChance(200_000), 8),
        best_difficulty: 150_000,
        best_at: '2024-05-06T10:00:04.000Z',
        last_share_at: '2024-05-06T10:00:04.000Z',
      },
    ]);

    // The workers list tags the same workers solo; rig1 mines on a pool port.
    const workers = await get(t.app, '/v1/user/mining/workers', {
      cookie: alice.cookie,
      query: { account_name: alice.username, algorithm: 'scrypt' },
    });
    const listed = (workers.json() as { id: string; name: string; solo: boolean }[]).map((w) => [w.name, w.solo]);
    expect(listed).toEqual([
      ['bitaxe1', true],
      ['bitaxe2', true],
      ['rig1', false],
    ]);
    expect(body.workers.map((w) => w.id)).toEqual(
      (workers.json() as { id: string; solo: boolean }[]).filter((w) => w.solo).map((w) => w.id),
    );

    expect(
      body.blocks.map((b) => ({
        height: b.height,
        worker: b.worker,
        status: b.status,
        confirmations_left: b.confirmations_left,
        effort: b.effort,
        reward: b.reward,
        fee_percent: b.fee_percent,
        credited: b.credited === null ? null : Number(b.credited),
        solo: b.solo,
        coin: b.coin,
      })),
    ).toEqual([
      {
        height: 2_700_002,
        worker: 'bitaxe2',
        status: 'pending',
        confirmations_left: 90,
        effort: 0.2,
        reward: '6.25012345',
        fee_percent: 1.5,
        credited: null,
        solo: true,
        coin: 'LTC',
      },
      {
        height: 2_700_001,
        worker: 'bitaxe1',
        status: 'confirmed',
        confirmations_left: null,
        effort: 0.6,
        reward: '6.25',
        fee_percent: 1.5,
        credited: 6.15625,
        solo: true,
        coin: 'LTC',
      },
    ]);
  });

  it('answers an account that never mined solo with no round, no workers, no blocks and no chance', async () => {
    const body = await read(newcomer);
    expect(body).toMatchObject({
      coin: 'LTC',
      hashrate: 0,
      odds: { p_day: 0, expected_seconds: null },
      round: null,
      workers: [],
      blocks: [],
    });
    // Before the pool has mined an algorithm: no network, no odds.
    expect(await read(newcomer, 'sha256')).toMatchObject({ coin: null, network: null, odds: null, round: null });
  });

  it('answers the observer the same, by key; 404 for an expired link, 401/404/400 as every mining read', async () => {
    const account = await t.database.db
      .selectFrom('accounts')
      .select(['id', 'observer_key'])
      .where('username', '=', alice.username)
      .executeTakeFirstOrThrow();
    const observed = await observe(account.observer_key ?? '');
    expect(observed.statusCode, observed.body).toBe(200);
    expect(observed.headers['cache-control']).toBe('no-store');
    expect(soloResponse.parse(observed.json())).toEqual(await read(alice));

    const link = async (expiresAt: Date | null) => {
      const key = randomBytes(24).toString('hex');
      await insertWatcherLink(t.database.db, {
        accountId: account.id,
        key,
        name: `link ${key.slice(0, 6)}`,
        scope: 'mining',
        createdAt: new Date(NOW - 3 * 86_400_000),
        expiresAt,
      });
      return key;
    };
    expect((await observe(await link(new Date(NOW + 86_400_000)))).statusCode).toBe(200);
    const expired = await observe(await link(new Date(NOW - 1000)));
    expect(expired.statusCode).toBe(404);
    expect(errorResponse.parse(expired.json())).toEqual({ error: 'Account not found', code: 'NOT_FOUND' });
    expect((await observe('not-a-key')).statusCode).toBe(404);

    const query = { account_name: alice.username, algorithm: 'scrypt' };
    expect((await get(t.app, '/v1/user/mining/solo', { query })).statusCode).toBe(401);
    expect((await get(t.app, '/v1/user/mining/solo', { cookie: bob.cookie, query })).statusCode).toBe(404);
    const unknown = await get(t.app, '/v1/user/mining/solo', {
      cookie: alice.cookie,
      query: { ...query, algorithm: 'md5' },
    });
    expect(unknown.statusCode).toBe(400);
  });
});
