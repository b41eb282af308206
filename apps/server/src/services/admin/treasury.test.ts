import type { WalletSnapshot } from '@lodestone/db';
import { describe, expect, it } from 'vitest';
import { coinFigures } from './treasury.js';

const LTC = { ticker: 'LTC', name: 'Litecoin', decimals: 8, payouts_enabled: true };
const AT = new Date('2026-05-06T12:00:00Z');

function wallet(over: Partial<WalletSnapshot> = {}): WalletSnapshot {
  return {
    coin: 'LTC',
    address: null,
    demo: false,
    minBalance: 10n,
    feeCoin: null,
    reading: { balance: 1_000n, fee: null, at: AT },
    checkedAt: AT,
    error: null,
    ...over,
  };
}

const figures = (over: Partial<Parameters<typeof coinFigures>[0]>) =>
  coinFigures({
    coin: LTC,
    owed: 0n,
    due: 0n,
    dueAccounts: 0,
    dueOutputs: 0,
    wallet: null,
    feeDecimals: 18,
    open: { count: 0, total: 0n },
    result: { mined: 0n, pps: 0n, fees: 0n },
    ...over,
  });

describe('the treasury figures of a coin', () => {
  it('is short by due + min_balance − spendable, and never below 0', () => {
    expect(figures({ due: 995n, dueAccounts: 2, wallet: wallet() })).toMatchObject({
      shortfall: 5n,
      waitingForFunds: 2,
    });
    expect(figures({ due: 990n, dueAccounts: 2, wallet: wallet() })).toMatchObject({
      shortfall: 0n,
      waitingForFunds: 0,
    });
    expect(figures({ due: 10n, wallet: wallet({ reading: { balance: 5_000n, fee: null, at: AT } }) }).shortfall).toBe(
      0n,
    );
  });

  it('counts a wallet below its min_balance as short even with nothing due', () => {
    expect(figures({ wallet: wallet({ reading: { balance: 4n, fee: null, at: AT } }) }).shortfall).toBe(6n);
  });

  it('counts spendable as 0 without a wallet or before its first good read', () => {
    expect(figures({ due: 700n, dueAccounts: 1 })).toMatchObject({ shortfall: 700n, waitingForFunds: 1 });
    expect(figures({ due: 700n, wallet: wallet({ reading: null, error: 'down' }) }).shortfall).toBe(710n);
    expect(figures({}).shortfall).toBe(0n);
  });

  it('needs a token’s fee for each output, and leaves the reserve unknown before a read', () => {
    const token = wallet({
      feeCoin: 'ETH',
      reading: { balance: 1_000n, fee: { balance: 25n, perTransaction: 10n }, at: AT },
    });
    expect(figures({ due: 100n, dueAccounts: 1, dueOutputs: 3, wallet: token })).toMatchObject({
      shortfall: 0n,
      feeReserve: { coin: 'ETH', decimals: 18, spendable: 25n, needed: 30n, shortfall: 5n },
      waitingForFunds: 1,
    });
    expect(figures({ due: 100n, dueOutputs: 2, wallet: token }).feeReserve?.shortfall).toBe(0n);
    expect(figures({ wallet: wallet({ feeCoin: 'ETH', reading: null }) }).feeReserve).toEqual({
      coin: 'ETH',
      decimals: 18,
      spendable: null,
      needed: null,
      shortfall: null,
    });
  });

  it('nets the result as mined + pool:pps + pool:fees', () => {
    expect(figures({ result: { mined: 625n, pps: -260n, fees: 5n } }).result.net).toBe(370n);
  });
});
