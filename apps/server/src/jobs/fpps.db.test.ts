import { bitcoinCoreBlockStats, closeFakeDaemons, startAuxDaemon, startBlockStatsNode } from '@lodestone/chain/testing';
import {
  type Account,
  balancesOfAccount,
  dailyEarnings,
  insertFeeDay,
  reconcileLedger,
  saveNetworkBlocks,
  savePrices,
} from '@lodestone/db';
import { insertTestAccount, testEngines, useTestDatabase } from '@lodestone/db/testing';
import type { BatchNetwork } from '@lodestone/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bitcoin } from '../chains/bitcoin/index.js';
import { bitcoinCoinSetting } from '../chains/bitcoin/settings.js';
import type { NetworkFeeReader } from '../chains/chain.js';
import { readStatementData } from '../services/revenue/statement.js';
import { applyShareBatch, type CreditSettings } from './accounting.js';
import { creditPendingBatches } from './credits.js';
import { networkFeesJob, readFeeDay } from './networkFees.js';
import { recordingLog, shareBatch, shareCounts } from './testing.js';

/*
 * FPPS end to end on recorded node data (docs/money.md, "FPPS"): the fee job reads Bitcoin Core's own
 * recorded getblockstats replies through the bitcoin chain's reader over JSON-RPC, and accounting
 * credits a batch at the subsidy plus the day's average fee — worked out here by hand.
 */

const recorded = bitcoinCoreBlockStats();
/** A minute after the recorded blocks were stamped (1536411754): all four lie in the day before it. */
const AT = new Date((1_536_411_754 + 60) * 1000);
/** A template of 50 BTC subsidy and 12,345 satoshi of fees, at a network difficulty of 1,000,000. */
const BTC: BatchNetwork = {
  coin: 'BTC',
  height: 104,
  reward: '5000012345',
  fees: '12345',
  difficulty: '1000000',
  demo: false,
};

function readerOn(url: string): NetworkFeeReader {
  const setting = bitcoinCoinSetting.parse({ ticker: 'BTC', algorithm: 'sha256', daemons: [url], pool_address: 'x' });
  const reader = bitcoin.coins?.coin(setting).networkFees?.();
  if (!reader) throw new Error('the bitcoin chain reads no network fees');
  return reader;
}

describe.each(testEngines())('FPPS on %s', (engine) => {
  const t = useTestDatabase(engine);
  let alice: bigint;
  let aliceAccount: Account;
  const fallbacks: [string, string][] = [];
  const settings: CreditSettings = {
    feePercent: 1,
    priceMaxAgeMs: 1_800_000,
    now: () => AT,
    schemes: new Map([['BTC', 'fpps']]),
    onFppsValuation: (coin, fallback) => void (fallback && fallbacks.push([coin, fallback])),
  };

  beforeEach(async () => {
    fallbacks.length = 0;
    aliceAccount = await insertTestAccount(t.database.db, 'alice');
    alice = aliceAccount.id;
    await savePrices(t.database.db, { source: 'test', takenAt: AT, quotes: [{ ticker: 'BTC', usd: '100000' }] });
  });
  afterEach(async () => {
    expect(await reconcileLedger(t.database.db)).toEqual([]);
    await closeFakeDaemons();
  });

  const mine = async (difficulty: number, credit = settings) => {
    const batch = shareBatch(
      AT.toISOString(),
      [shareCounts('alice', 'rig1', { acceptedDifficulty: difficulty, valid: 1 })],
      { algorithm: 'sha256', network: BTC },
    );
    expect((await applyShareBatch(t.database.db, batch, credit)).credit).toEqual({ kind: 'credited' });
    return batch.id;
  };
  /** What the credit recorded it valued a block at (pps_valuations). */
  const valuationOf = (creditId: string) =>
    t.database.db
      .selectFrom('pps_valuations')
      .select(['scheme', 'block_value', 'block_fees', 'network_difficulty', 'fee_day_id', 'fallback'])
      .where('credit_id', '=', creditId)
      .executeTakeFirstOrThrow();
  /** alice's earnings of the day in BTC: amount and the part of it that was transaction fees. */
  const earned = async () => {
    const rows = await t.database.db.selectFrom('earnings_quarter_hours').select(['amount', 'fees']).execute();
    // Credits are stamped when posted (the database's clock), not at the batch's: every day there is.
    const daily = await dailyEarnings(t.database.db, alice, {
      from: new Date(0),
      to: new Date('2100-01-01T00:00:00Z'),
      timeZone: 'UTC',
    });
    return { rows, daily: daily.map(({ coin, amount, fees }) => ({ coin, amount, fees })) };
  };
  const balance = async () => (await balancesOfAccount(t.database.db, alice)).find((b) => b.coin === 'BTC')?.amount;

  it('credits the subsidy plus the day’s average fee per block of recorded node data (hand-computed)', async () => {
    const node = await startBlockStatsNode([...recorded.derived, ...recorded.stats]);
    // An earlier run stored block 100: this one reads the three above it and stops where the hashes agree.
    const [block100] = recorded.derived;
    if (!block100) throw new Error('the fixture lost block 100');
    await saveNetworkBlocks(
      t.database.db,
      'BTC',
      100,
      [
        {
          height: 100,
          hash: block100.blockhash,
          time: new Date(block100.time * 1000),
          subsidy: 5_000_000_000n,
          totalFees: 0n,
        },
      ],
      new Date(0),
    );
    const reading = await readFeeDay(t.database.db, { ticker: 'BTC', reader: readerOn(node.url) }, AT);
    expect(node.calls).toEqual([103, 102, 101, 100]);
    expect(reading).toMatchObject({ day: { blocks: 4, firstHeight: 100, lastHeight: 103, totalFees: 60_600n } });
    const feeDayId = await insertFeeDay(t.database.db, reading);

    const creditId = await mine(2000);
    // Fees 0 + 0 + 3,740 + 56,860 = 60,600 over 4 blocks: 15,150 a block. The block is worth
    // 5,000,012,345 − 12,345 + 15,150 = 5,000,015,150; 2,000 of 1,000,000 is 10,000,030.3 satoshi,
    // less the 1% fee 9,900,029.997: 9,900,029 credited, the 0.997 carried.
    expect(await balance()).toBe(9_900_029n);
    // Of it, fees: 15,150 ÷ 5,000,015,150 = 0.000003029990819127 (18 decimals) × 9,900,029.
    expect(await earned()).toEqual({
      rows: [{ amount: '9900029', fees: '29.996996979091054683' }],
      daily: [{ coin: 'BTC', amount: 9_900_029n, fees: 29n }],
    });
    // The monthly statement sums it beside the amount (credits are stamped with the database's clock).
    const now = new Date();
    const statement = await readStatementData(t.database.db, aliceAccount, {
      month: now.toISOString().slice(0, 7),
      timeZone: 'UTC',
      now,
      poolName: 'Lodestone',
    });
    expect(statement.totals).toEqual([{ ticker: 'BTC', decimals: 8, units: 9_900_029n, feeUnits: 29n }]);
    expect(await valuationOf(creditId)).toMatchObject({
      scheme: 'fpps',
      block_value: '5000015150',
      block_fees: '15150',
      network_difficulty: '1000000',
      fee_day_id: feeDayId,
      fallback: null,
    });
    expect(fallbacks).toEqual([]);
  });

  it('values by PPS, with the reason logged and recorded, when the node cannot report fees (Dogecoin 1.14)', async () => {
    const dogecoind = await startAuxDaemon();
    dogecoind.mineElsewhere(3);
    const log = recordingLog();
    const job = networkFeesJob({ coins: () => [{ ticker: 'BTC', reader: readerOn(dogecoind.url()) }] });
    const run = (now: Date) => job.run({ database: t.database, log, now, signal: new AbortController().signal });
    await run(AT);
    await run(new Date(AT.getTime() + 600_000));
    await dogecoind.close();
    const reason = "BTC's node has no getblockstats, so it cannot report fees";
    // Two readings that say so, one warning: the reason did not change.
    expect(log.entries.filter((e) => e.level === 'warn').map((e) => e.message)).toEqual([
      `BTC: FPPS falls back to PPS: ${reason}`,
    ]);
    const readings = await t.database.db.selectFrom('network_fee_days').select(['unavailable', 'blocks']).execute();
    expect(readings).toEqual([
      { unavailable: reason, blocks: null },
      { unavailable: reason, blocks: null },
    ]);

    const creditId = await mine(2000);
    // PPS: 2,000 × 5,000,012,345 ÷ 1,000,000 = 10,000,024.69, less 1%: 9,900,024.4431.
    expect(await balance()).toBe(9_900_024n);
    expect(await valuationOf(creditId)).toMatchObject({
      scheme: 'pps',
      block_value: '5000012345',
      block_fees: '12345',
      fee_day_id: null,
      fallback: reason,
    });
    expect(fallbacks).toEqual([['BTC', reason]]);
  });

  it('keeps the fee part of a credit that waited for prices, from its valuation', async () => {
    const day = { blocks: 4, firstHeight: 100, lastHeight: 103, totalFees: 60_600n };
    const from = new Date(AT.getTime() - 86_400_000);
    await insertFeeDay(t.database.db, { coin: 'BTC', computedAt: AT, from, to: AT, day: { ...day, from, to: AT } });
    // Prices an hour old: the credit waits, valued already (the same block value as above).
    await t.database.db.deleteFrom('prices').execute();
    await savePrices(t.database.db, {
      source: 'test',
      takenAt: new Date(AT.getTime() - 3_600_000),
      quotes: [{ ticker: 'BTC', usd: '100000' }],
    });
    const batch = shareBatch(AT.toISOString(), [shareCounts('alice', 'rig1', { acceptedDifficulty: 2000, valid: 1 })], {
      algorithm: 'sha256',
      network: BTC,
    });
    expect((await applyShareBatch(t.database.db, batch, settings)).credit).toMatchObject({
      kind: 'waiting-for-prices',
    });
    await savePrices(t.database.db, { source: 'test', takenAt: AT, quotes: [{ ticker: 'BTC', usd: '100000' }] });
    expect(await creditPendingBatches(t.database.db, settings, recordingLog())).toBe(1);
    expect(await balance()).toBe(9_900_029n);
    expect((await earned()).rows).toEqual([{ amount: '9900029', fees: '29.996996979091054683' }]);
  });

  it('values by PPS when the newest reading of the fees is over an hour old, never at a stale average', async () => {
    await insertFeeDay(t.database.db, {
      coin: 'BTC',
      computedAt: new Date(AT.getTime() - 3_600_001),
      from: new Date(AT.getTime() - 3_600_001 - 86_400_000),
      to: new Date(AT.getTime() - 3_600_001),
      day: { from: AT, to: AT, blocks: 1, firstHeight: 1, lastHeight: 1, totalFees: 1_000_000n },
    });
    const creditId = await mine(2000);
    expect(await balance()).toBe(9_900_024n);
    const reason = "no reading of the network's fees in the last hour";
    expect(await valuationOf(creditId)).toMatchObject({ scheme: 'pps', fallback: reason });
    expect(fallbacks).toEqual([['BTC', reason]]);
  });

  it('keeps PPS for a coin not set to FPPS, recording the template’s fees as the fee part', async () => {
    const creditId = await mine(2000, { ...settings, schemes: new Map() });
    expect(await balance()).toBe(9_900_024n);
    // The template's 12,345 of 5,000,012,345 were fees: 24.44… of the 9,900,024 credited.
    expect((await earned()).rows).toEqual([{ amount: '9900024', fees: '24.443098905988297296' }]);
    expect(await valuationOf(creditId)).toMatchObject({
      scheme: 'pps',
      block_value: '5000012345',
      block_fees: '12345',
      fee_day_id: null,
      fallback: null,
    });
    expect(fallbacks).toEqual([]);
  });
});
