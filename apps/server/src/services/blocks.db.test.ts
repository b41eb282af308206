import { listCoins, setBlockConfirmations } from '@lodestone/db';
import { testEngines, useTestDatabase } from '@lodestone/db/testing';
import { describe, expect, it } from 'vitest';
import { applyShareBatch, recordFoundBlock } from '../jobs/accounting.js';
import { foundBlock, shareBatch, shareCounts } from '../jobs/testing.js';
import { presentBlock, readBlocks, readChainNetworks, UnknownChainError } from './blocks.js';
import { powHashesPerDifficulty } from './hashesPerDifficulty.js';

const deps = { hashesPerDifficulty: powHashesPerDifficulty };
// Prices are never fresh here: credits wait, and the batches' networks are still recorded.
const credit = { feePercent: 1, priceMaxAgeMs: 1 };
const NOW = new Date('2024-05-06T12:00:00Z');
const ltc = { coin: 'LTC', height: 2_700_000, reward: '625000000', difficulty: '2000', demo: false };
const doge = { coin: 'DOGE', height: 5_000_000, reward: '1000000000000', difficulty: '500', demo: false };
const hash = (n: number) => n.toString(16).padStart(64, '0');

describe.each(testEngines())('blocks and luck on %s', (engine) => {
  const test = useTestDatabase(engine);

  /** A SCRYPT batch merge-mined with DOGE that ends at `end` with `difficulty` accepted. */
  const mine = (end: string, difficulty: number) =>
    applyShareBatch(
      test.database.db,
      shareBatch(end, [shareCounts('alice', 'rig1', { acceptedDifficulty: difficulty, valid: 1 })], {
        network: ltc,
        merged: [doge],
      }),
      credit,
    );
  const found = (coin: string, at: string, n: number, networkDifficulty: string, accepted = true) =>
    recordFoundBlock(
      test.database.db,
      foundBlock({
        coin,
        hash: hash(n),
        height: n,
        foundAt: Date.parse(at),
        networkDifficulty,
        submitResult: accepted ? { accepted: true } : { accepted: false, reason: 'bad-txns' },
      }),
    );

  it('measures each block’s effort on its own chain’s rounds and the pool’s luck, by hand', async () => {
    // Five days ago: 1,500 accepted, an LTC block at 2,000 → 75 %.
    await mine('2024-05-01T11:00:00Z', 1500);
    await found('LTC', '2024-05-01T11:00:01Z', 1, '2000');
    // Today: 3,000 more. A refused LTC block closes no round; the DOGE block's round holds all
    // 4,500 since DOGE's start → 4,500 ÷ 500 = 900 %; LTC's holds 3,000 ÷ 2,000 = 150 %.
    await mine('2024-05-06T11:00:00Z', 3000);
    await found('LTC', '2024-05-06T11:00:01Z', 2, '2000', false);
    await found('DOGE', '2024-05-06T11:00:02Z', 3, '500');
    await found('LTC', '2024-05-06T11:00:03Z', 4, '2000');
    // The open LTC round: 500 since, against the newest batch's 2,000 → 25 %.
    await mine('2024-05-06T11:30:00Z', 500);

    const page = await readBlocks(test.database.db, 'scrypt', { page: 1 }, deps, NOW);
    expect(page.coin).toBe('LTC');
    expect(page.chains).toEqual([
      { coin: 'LTC', name: 'Litecoin', merged: false, blocks: 2 },
      { coin: 'DOGE', name: 'Dogecoin', merged: true, blocks: 1 },
    ]);
    expect(page.blocks.map((b) => [b.height, b.effort, b.status])).toEqual([
      [4, 1.5, 'pending'],
      [1, 0.75, 'pending'],
    ]);
    expect(page.total).toBe(2);
    expect(page.round.effort).toBe(0.25);
    expect(page.round.started_at).toBe('2024-05-06T11:00:03.000Z');
    // 24 h and 7 d by hand: one block at 150 % → luck 66.67 %; two at 75 % and 150 % → Σ 2.25, luck 88.89 %.
    expect(page.luck.h24).toEqual({ blocks: 1, effort: 1.5, luck: 1 / 1.5 });
    expect(page.luck.d7.blocks).toBe(2);
    expect(page.luck.d7.effort).toBeCloseTo(1.125, 12);
    expect(page.luck.d7.luck).toBeCloseTo(2 / 2.25, 12);
    expect(page.luck.d30).toEqual(page.luck.d7);

    const dogePage = await readBlocks(test.database.db, 'scrypt', { coin: 'DOGE', page: 1 }, deps, NOW);
    expect(dogePage.blocks.map((b) => [b.height, b.effort])).toEqual([[3, 9]]);
    expect(dogePage.luck.h24).toEqual({ blocks: 1, effort: 9, luck: 1 / 9 });
    expect(dogePage.round.effort).toBe(1);
  });

  it('shows each row as the blocks table holds it, with the explorer link and confirmations left', async () => {
    await mine('2024-05-06T11:00:00Z', 1000);
    await found('LTC', '2024-05-06T11:00:01Z', 7, '2000');
    const [row] = await test.database.db.selectFrom('blocks').selectAll().execute();
    if (!row) throw new Error('no block recorded');
    expect(await setBlockConfirmations(test.database.db, row.id, 12, 100)).toBe(true);

    const page = await readBlocks(test.database.db, 'scrypt', { coin: 'ltc'.toUpperCase(), page: 1 }, deps, NOW);
    expect(page.blocks).toEqual([
      {
        height: Number(row.height),
        hash: row.hash,
        explorer_url: `https://litecoinspace.org/block/${row.hash}`,
        found_at: row.found_at.toISOString(),
        reward: '6.25',
        status: 'pending',
        confirmations: 12,
        confirmations_left: 88,
        effort: 0.5,
        solo: false,
      },
    ]);
    // 2,000 × 2^16 hashes a block ÷ Litecoin's 150 s = 873,813.33 H/s.
    expect(page.network).toMatchObject({ coin: 'LTC', difficulty: 2000, hashrate: 873.81, hashrate_units: 'Kh/s' });
    expect(page.network?.reward).toBe('6.25');
    expect(page.demo).toBe(false);

    await test.database.db.updateTable('blocks').set({ status: 'orphaned' }).execute();
    const orphaned = await readBlocks(test.database.db, 'scrypt', { page: 1 }, deps, NOW);
    expect(orphaned.blocks[0]).toMatchObject({ status: 'orphaned', confirmations_left: null });
  });

  it('links a Kadena block by the chain its report names and its height, and not while its chain is unknown', async () => {
    // 32 bytes in chainweb's base64url text.
    const kadenaHash = (byte: number) => Buffer.alloc(32, byte).toString('base64url');
    const kadena = { algorithm: 'blake2s' as const, coin: 'KDA', reward: '1000000000000' };
    await recordFoundBlock(
      test.database.db,
      foundBlock({ ...kadena, hash: kadenaHash(1), height: 5_000_000, chain: 3 }),
    );
    // A report from before blocks carried their chain.
    await recordFoundBlock(test.database.db, foundBlock({ ...kadena, hash: kadenaHash(2), height: 5_000_001 }));
    const rows = await test.database.db.selectFrom('blocks').selectAll().orderBy('height').execute();
    expect(rows.map((r) => r.chain)).toEqual([3, null]);
    const kda = (await listCoins(test.database.db)).find((c) => c.ticker === 'KDA');
    expect(rows.map((r) => presentBlock(r, kda, false).explorer_url)).toEqual([
      'https://explorer.chainweb.com/mainnet/chain/3/height/5000000',
      null,
    ]);
    expect(presentBlock(rows[0] as (typeof rows)[number], kda, true).explorer_url).toBeNull();
  });

  it('pages newest first and clamps a page past the end', async () => {
    await mine('2024-05-06T10:00:00Z', 10);
    for (let n = 1; n <= 27; n += 1)
      await found('LTC', new Date(Date.parse('2024-05-06T10:00:00Z') + n * 1000).toISOString(), n, '2000');
    const first = await readBlocks(test.database.db, 'scrypt', { page: 1 }, deps, NOW);
    expect(first.blocks).toHaveLength(25);
    expect(first.blocks[0]?.height).toBe(27);
    const last = await readBlocks(test.database.db, 'scrypt', { page: 9 }, deps, NOW);
    expect(last.page).toBe(2);
    expect(last.blocks.map((b) => b.height)).toEqual([2, 1]);
    // Only the first block's round held work: every later one closed an empty round.
    expect(first.blocks[0]?.effort).toBe(0);
  });

  it('refuses a coin the algorithm does not mine, and answers an algorithm never mined with no chain', async () => {
    await mine('2024-05-06T10:00:00Z', 10);
    await expect(readBlocks(test.database.db, 'scrypt', { coin: 'BTC', page: 1 }, deps, NOW)).rejects.toThrow(
      new UnknownChainError('scrypt', 'BTC'),
    );
    const none = await readBlocks(test.database.db, 'sha256', { page: 1 }, deps, NOW);
    expect(none).toMatchObject({ coin: null, chains: [], network: null, blocks: [], total: 0 });
    expect(none.luck.d30).toEqual({ blocks: 0, effort: null, luck: null });
  });

  it('gives the stats page each chain’s network and blocks, the demo’s own block difficulty for its rounds', async () => {
    await applyShareBatch(
      test.database.db,
      shareBatch('2024-05-06T11:00:00Z', [shareCounts('alice', 'rig1', { acceptedDifficulty: 30, valid: 1 })], {
        network: { ...ltc, demo: true, blockDifficulty: '0.5' },
      }),
      credit,
    );
    await found('LTC', '2024-05-06T11:00:01Z', 9, '0.5');
    const networks = await readChainNetworks(test.database.db, 'scrypt', deps);
    expect(networks).toEqual([
      expect.objectContaining({ coin: 'LTC', merged: false, blocks: 1, difficulty: 2000, height: 2_700_000 }),
    ]);
    const page = await readBlocks(test.database.db, 'scrypt', { page: 1 }, deps, NOW);
    // Demo blocks: no explorer link; the effort is against the demo's own target, 30 ÷ 0.5.
    expect(page.demo).toBe(true);
    expect(page.blocks[0]).toMatchObject({ explorer_url: null, effort: 60 });
  });

  it('works out the network hashrate of a chain whose block interval changes from its jobs’ interval (CKB)', async () => {
    const ckb = { coin: 'CKB', height: 12_000_000, reward: '91000000000', difficulty: '1600000000000000', demo: false };
    const batch = (end: string, network: object) =>
      applyShareBatch(
        test.database.db,
        shareBatch(end, [shareCounts('alice', 'rig1', { acceptedDifficulty: 30, valid: 1 })], {
          algorithm: 'eaglesong',
          network: { ...ckb, ...network },
        }),
        credit,
      );
    // An epoch of 1,800 blocks: 8 s each; 1.6 × 10¹⁵ hashes a block (Eaglesong: 1 hash per difficulty) ÷ 8 s.
    await batch('2024-05-06T11:00:00Z', { blockSeconds: 8 });
    const [network] = await readChainNetworks(test.database.db, 'eaglesong', deps);
    expect(network).toMatchObject({ coin: 'CKB', hashrate: 200, hashrate_units: 'Th/s' });
    // A node that no longer says: no figure rather than a stale or guessed one (the catalogue has none for CKB).
    await batch('2024-05-06T11:01:00Z', {});
    const [later] = await readChainNetworks(test.database.db, 'eaglesong', deps);
    expect(later).toMatchObject({ coin: 'CKB', hashrate: null });
  });
});
