import {
  createPayout,
  type Executor,
  postLedgerTransaction,
  replacePayoutSettings,
  saveWalletReadError,
  saveWalletReading,
} from '@lodestone/db';
import { insertTestAccount } from '@lodestone/db/testing';

/**
 * A seeded pool with known treasury figures (tests only: the treasury's API, command and gauges
 * tests read it). At TREASURY_NOW:
 *
 * LTC (8 decimals) — PPS credited alice 2, bob 0.3, carol 0.25 (gross 2.6, fee kept 0.05); a block of
 *   6.25 matured; carol's 0.25 is in a `pending` payout. Owed 2.3, all of it due: alice (threshold 0.5)
 *   2 and bob (threshold 0.2) 0.3, both never paid, so alice first in due order (account id). The node
 *   wallet holds 2.2 and keeps 0.1: it covers alice (2.1) but not bob after her (2.4), so bob waits for
 *   funds; shortfall 2.3 + 0.1 − 2.2 = 0.2. Profit 6.25 − 2.6 + 0.05 = 3.7.
 * USDC (6 decimals, gas in ETH) — alice was credited 50 by an admin adjustment and is due all of it,
 *   split 60/40 over two addresses: two transfers (EVM: one output a transaction). The token wallet
 *   holds 100 and keeps 5: no shortfall; its ETH reserve is 0.001 and a transfer may cost 0.0008:
 *   0.0016 needed, 0.0006 short, so alice waits for funds.
 * ETH — the last read failed; the last good one (1 ETH, an hour old) is kept. Keeps 0.1: nothing due.
 * BTC — no hot wallet, nothing owed.
 */
export const TREASURY_NOW = new Date('2026-05-06T12:00:00Z');
export const LTC_READ_AT = new Date('2026-05-06T11:58:30Z');
export const ETH_READ_AT = new Date('2026-05-06T11:00:00Z');
export const ETH_CHECKED_AT = new Date('2026-05-06T11:59:30Z');

const LTC = 100_000_000n;
const USDC = 1_000_000n;
const ETH = 10n ** 18n;

export async function seedTreasury(db: Executor): Promise<void> {
  const alice = await insertTestAccount(db, 'alice');
  const bob = await insertTestAccount(db, 'bob');
  const carol = await insertTestAccount(db, 'carol');
  const dayBefore = new Date(TREASURY_NOW.getTime() - 24 * 3600_000);

  await postLedgerTransaction(db, {
    key: 'pps:treasury-seed',
    kind: 'pps_credit',
    at: dayBefore,
    legs: [
      { account: { accountId: alice.id }, coin: 'LTC', amount: 2n * LTC, kind: 'pps', algorithm: 'scrypt' },
      { account: { accountId: bob.id }, coin: 'LTC', amount: 30_000_000n, kind: 'pps', algorithm: 'scrypt' },
      { account: { accountId: carol.id }, coin: 'LTC', amount: 25_000_000n, kind: 'pps', algorithm: 'scrypt' },
      { account: { system: 'pool:fees' }, coin: 'LTC', amount: 5_000_000n, kind: 'fee', algorithm: 'scrypt' },
      { account: { system: 'pool:pps' }, coin: 'LTC', amount: -260_000_000n, kind: 'pps_expense', algorithm: 'scrypt' },
    ],
  });
  await postLedgerTransaction(db, {
    key: 'block:treasury-seed',
    kind: 'block_reward',
    at: dayBefore,
    legs: [
      { account: { system: 'pool:blocks' }, coin: 'LTC', amount: 625_000_000n, kind: 'block_reward' },
      { account: { system: 'pool:chain' }, coin: 'LTC', amount: -625_000_000n, kind: 'block_reward' },
    ],
  });
  await postLedgerTransaction(db, {
    key: 'admin:treasury-seed',
    kind: 'admin_adjustment',
    at: dayBefore,
    legs: [
      {
        account: { accountId: alice.id },
        coin: 'USDC',
        amount: 50n * USDC,
        kind: 'admin_adjustment',
        algorithm: 'scrypt',
      },
      { account: { system: 'pool:adjustments' }, coin: 'USDC', amount: -50n * USDC, kind: 'admin_adjustment' },
    ],
  });

  const settings = (ticker: string, threshold: string, addresses: [string, string][]) => ({
    ticker,
    threshold,
    intervalHours: '1',
    pausedUntil: null,
    addresses: addresses.map(([address, proportion]) => ({ address, proportion })),
  });
  await replacePayoutSettings(
    db,
    alice.id,
    [
      settings('LTC', '0.5', [['ltc1qalice0000000000000000000000000000000', '100']]),
      settings('USDC', '10', [
        ['0x00000000000000000000000000000000000a11ce', '60'],
        ['0x00000000000000000000000000000000000a11c2', '40'],
      ]),
    ],
    dayBefore,
  );
  await replacePayoutSettings(
    db,
    bob.id,
    [settings('LTC', '0.2', [['ltc1qbob00000000000000000000000000000000', '100']])],
    dayBefore,
  );
  await replacePayoutSettings(
    db,
    carol.id,
    [settings('LTC', '0.1', [['ltc1qcarol000000000000000000000000000000', '100']])],
    dayBefore,
  );
  // Carol's payout was written and not sent yet: her balance is debited, the payout is open.
  await createPayout(db, {
    key: 'payout:LTC:treasury-seed',
    coin: 'LTC',
    demo: false,
    createdAt: new Date(TREASURY_NOW.getTime() - 10 * 60_000),
    accounts: [
      {
        accountId: carol.id,
        amount: 25_000_000n,
        items: [{ address: 'ltc1qcarol000000000000000000000000000000', amount: 25_000_000n }],
      },
    ],
  });

  await saveWalletReading(
    db,
    { coin: 'LTC', address: null, demo: false, minBalance: 10_000_000n, maxOutputs: null, feeCoin: null },
    { balance: 220_000_000n, feePerTransaction: null, feeBalance: null, at: LTC_READ_AT },
  );
  await saveWalletReading(
    db,
    {
      coin: 'USDC',
      address: '0x00000000000000000000000000000000000f00d5',
      demo: false,
      minBalance: 5n * USDC,
      maxOutputs: 1,
      feeCoin: 'ETH',
    },
    { balance: 100n * USDC, feePerTransaction: (8n * ETH) / 10_000n, feeBalance: ETH / 1000n, at: LTC_READ_AT },
  );
  const eth = {
    coin: 'ETH',
    address: '0x00000000000000000000000000000000000f00d5',
    demo: false,
    minBalance: ETH / 10n,
    maxOutputs: 1,
    feeCoin: null,
  };
  await saveWalletReading(db, eth, {
    balance: ETH,
    feePerTransaction: ETH / 10_000n,
    feeBalance: null,
    at: ETH_READ_AT,
  });
  await saveWalletReadError(db, eth, 'connect ECONNREFUSED 127.0.0.1:8545', ETH_CHECKED_AT);
}
