import type { WalletSnapshot } from '@lodestone/db';
import type { PlannedPayoutAccount } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import { coinFigures } from './treasury.js';

const LTC = { ticker: 'LTC', name: 'Litecoin', decimals: 8, payouts_enabled: true };
const AT = new Date('2026-05-06T12:00:00Z');

/** An account due `amount`, paid at `addresses` (the amount on the first). */
function due(id: number, amount: bigint, ...addresses: string[]): PlannedPayoutAccount {
  const [first = `addr${id}`, ...rest] = addresses;
  return {
    accountId: BigInt(id),
    amount,
    items: [{ address: first, amount }, ...rest.map((address) => ({ address, amount: 0n }))],
  };
}

function wallet(over: Partial<WalletSnapshot> = {}, reading: Partial<NonNullable<WalletSnapshot['reading']>> = {}) {
  return {
    coin: 'LTC',
    address: null,
    demo: false,
    minBalance: 10n,
    maxOutputs: null,
    feeCoin: null,
    reading: { balance: 1_000n, feePerTransaction: null, feeBalance: null, at: AT, ...reading },
    checkedAt: AT,
    error: null,
    ...over,
  } satisfies WalletSnapshot;
}

/** The figures with `accounts` due, in that (due) order: each last paid after the one before it. */
const figures = (accounts: PlannedPayoutAccount[], w: WalletSnapshot | null, feeDecimals = 18) =>
  coinFigures({
    coin: LTC,
    owed: 0n,
    plan: { coin: 'LTC', accounts, total: accounts.reduce((s, a) => s + a.amount, 0n), skipped: [] },
    candidates: accounts.map((a, i) => ({ accountId: a.accountId, lastPayoutAt: new Date(AT.getTime() - 1_000 + i) })),
    wallet: w,
    feeDecimals,
    open: { count: 0, total: 0n },
    result: { mined: 625n, pps: -260n, fees: 5n, solo: 0n },
  });

describe('the treasury figures of a coin (the payout run’s rule)', () => {
  it('is short by due + min_balance − spendable, never below 0; accounts past what is covered wait, in due order', () => {
    // 1000 held, 10 kept: 600 fits, 600 + 395 = 995 does not — the second waits even though a third, smaller, would fit.
    const f = figures([due(1, 600n), due(2, 395n), due(3, 5n)], wallet());
    expect(f).toMatchObject({ due: 1000n, dueAccounts: 3, shortfall: 10n, waitingForFunds: 2 });
    expect(figures([due(1, 990n)], wallet())).toMatchObject({ shortfall: 0n, waitingForFunds: 0 });
    expect(figures([due(1, 10n)], wallet({}, { balance: 5_000n })).shortfall).toBe(0n);
  });

  it('counts a wallet below its min_balance as short even with nothing due', () => {
    expect(figures([], wallet({}, { balance: 4n })).shortfall).toBe(6n);
  });

  it('counts spendable as 0 without a wallet or before its first good read: every due account waits', () => {
    expect(figures([due(1, 700n)], null)).toMatchObject({ shortfall: 700n, waitingForFunds: 1 });
    expect(figures([due(1, 700n)], wallet({ reading: null, error: 'down' }))).toMatchObject({
      shortfall: 710n,
      waitingForFunds: 1,
    });
    expect(figures([], null).shortfall).toBe(0n);
  });

  it('adds the fee of each transaction for a pool-signed wallet paying fees in the coin itself', () => {
    // Two outputs a transaction, 7 a transaction: three addresses are two transactions, 14.
    const signing = wallet({ maxOutputs: 2 }, { feePerTransaction: 7n });
    const f = figures([due(1, 400n, 'a', 'b'), due(2, 580n, 'c')], signing);
    expect(f).toMatchObject({ shortfall: 4n, feeReserve: null, waitingForFunds: 1 });
  });

  it('needs a token’s fees from its fee coin, and leaves the reserve unknown before a read', () => {
    const token = wallet({ maxOutputs: 1, feeCoin: 'ETH' }, { feePerTransaction: 10n, feeBalance: 25n });
    expect(figures([due(1, 100n, 'a', 'b', 'c')], token)).toMatchObject({
      shortfall: 0n,
      feeReserve: { coin: 'ETH', decimals: 18, spendable: 25n, needed: 30n, shortfall: 5n },
      waitingForFunds: 1,
    });
    expect(figures([due(1, 100n, 'a', 'b')], token)).toMatchObject({
      feeReserve: { needed: 20n, shortfall: 0n },
      waitingForFunds: 0,
    });
    expect(figures([], wallet({ maxOutputs: 1, feeCoin: 'ETH', reading: null })).feeReserve).toEqual({
      coin: 'ETH',
      decimals: 18,
      spendable: null,
      needed: null,
      shortfall: null,
    });
  });

  it('nets the result as mined + pool:pps + pool:fees', () => {
    expect(figures([], null).result.net).toBe(370n);
  });
});
