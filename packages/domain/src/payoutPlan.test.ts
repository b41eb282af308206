import { describe, expect, it } from 'vitest';
import {
  fundDuePayouts,
  fundedInDueOrder,
  inDueOrder,
  type PayoutCandidate,
  type PayoutPlan,
  type PlannedPayoutAccount,
  payoutCost,
  planPayouts,
  splitByProportion,
  splitIntoTransactions,
  thresholdUnits,
  transactionFees,
  walletBalanceNeeded,
  walletOutputs,
} from './payoutPlan.js';

const T = (iso: string) => new Date(`2024-05-06T${iso}Z`);

const candidate = (over: Partial<PayoutCandidate> = {}): PayoutCandidate => ({
  accountId: 1n,
  balance: 1_000_000n,
  threshold: '0.01',
  intervalHours: '1',
  pausedUntil: null,
  lastPayoutAt: null,
  addresses: [{ position: 0, address: 'a', proportion: '100' }],
  ...over,
});
const LTC = { ticker: 'LTC', decimals: 8, payoutsEnabled: true };

describe('payout planning', () => {
  it('rounds thresholds up to whole units', () => {
    expect(thresholdUnits('0.01', 8)).toBe(1_000_000n);
    expect(thresholdUnits('1', 0)).toBe(1n);
    expect(thresholdUnits('0.000000001', 8)).toBe(1n);
    expect(thresholdUnits('0.123456789', 8)).toBe(12_345_679n);
  });

  it('splits by proportion: floors, remainder to the first paid address, nothing lost', () => {
    const at = (address: string, proportion: string, position = 0) => ({ address, proportion, position });
    expect(splitByProportion(1001n, [at('a', '60'), at('b', '40')])).toEqual([
      { address: 'a', amount: 601n },
      { address: 'b', amount: 400n },
    ]);
    expect(splitByProportion(10n, [at('a', '33.33'), at('b', '33.33'), at('c', '33.34')])).toEqual([
      { address: 'a', amount: 4n },
      { address: 'b', amount: 3n },
      { address: 'c', amount: 3n },
    ]);
    // a zero proportion gets nothing and is dropped; the remainder goes to the first non-zero one
    expect(splitByProportion(7n, [at('z', '0'), at('a', '50'), at('b', '50')])).toEqual([
      { address: 'a', amount: 4n },
      { address: 'b', amount: 3n },
    ]);
    // an amount too small to reach an address drops it
    expect(splitByProportion(1n, [at('a', '99'), at('b', '1')])).toEqual([{ address: 'a', amount: 1n }]);
    // one address listed twice is paid once
    expect(splitByProportion(100n, [at('a', '50'), at('a', '50')])).toEqual([{ address: 'a', amount: 100n }]);
    expect(splitByProportion(100n, [at('a', '60'), at('b', '30')])).toBeUndefined();
    for (let amount = 1n; amount < 500n; amount += 7n) {
      const items = splitByProportion(amount, [at('a', '12.5'), at('b', '37.5'), at('c', '50')]) ?? [];
      expect(items.reduce((s, i) => s + i.amount, 0n)).toBe(amount);
    }
  });

  it('pays accounts that are due their whole balance and says why others are not', () => {
    const now = T('10:00:00');
    const plan = planPayouts(
      LTC,
      [
        candidate({ accountId: 1n }),
        candidate({ accountId: 2n, pausedUntil: T('10:00:01') }),
        candidate({ accountId: 3n, pausedUntil: T('09:59:59'), lastPayoutAt: T('09:00:00') }),
        candidate({ accountId: 4n, lastPayoutAt: T('09:00:01') }),
        candidate({ accountId: 5n, balance: 999_999n }),
        candidate({ accountId: 6n, addresses: [] }),
        candidate({ accountId: 7n, intervalHours: '0.5', lastPayoutAt: T('09:30:00') }),
        candidate({ accountId: 8n, addresses: [{ position: 0, address: 'a', proportion: '99' }] }),
      ],
      now,
    );
    expect(plan.accounts.map((a) => a.accountId)).toEqual([1n, 3n, 7n]);
    expect(plan.total).toBe(3_000_000n);
    expect(plan.accounts[0]).toEqual({
      accountId: 1n,
      amount: 1_000_000n,
      items: [{ address: 'a', amount: 1_000_000n }],
    });
    expect(plan.skipped).toEqual([
      { accountId: 2n, reason: 'paused' },
      { accountId: 4n, reason: 'interval-not-elapsed' },
      { accountId: 5n, reason: 'below-threshold' },
      { accountId: 6n, reason: 'no-address' },
      { accountId: 8n, reason: 'bad-proportions' },
    ]);
    const disabled = planPayouts({ ...LTC, payoutsEnabled: false }, [candidate()], now);
    expect(disabled.accounts).toEqual([]);
    expect(disabled.skipped).toEqual([{ accountId: 1n, reason: 'payouts-disabled' }]);
    // A balance of zero is never due, whatever the threshold; a negative proportion is refused.
    expect(planPayouts(LTC, [candidate({ balance: 0n, threshold: '0' })], now).skipped[0]?.reason).toBe(
      'below-threshold',
    );
    const negative = [
      { position: 0, address: 'a', proportion: '110' },
      { position: 1, address: 'b', proportion: '-10' },
    ];
    expect(planPayouts(LTC, [candidate({ addresses: negative })], now).skipped[0]?.reason).toBe('bad-proportions');
  });

  it('orders addresses by position and merges outputs by address', () => {
    const plan = planPayouts(
      LTC,
      [
        candidate({
          balance: 10n,
          threshold: '0.00000001',
          addresses: [
            { position: 1, address: 'b', proportion: '40' },
            { position: 0, address: 'a', proportion: '60' },
          ],
        }),
      ],
      T('10:00:00'),
    );
    expect(plan.accounts[0]?.items).toEqual([
      { address: 'a', amount: 6n },
      { address: 'b', amount: 4n },
    ]);
    expect(
      walletOutputs([
        { address: 'a', amount: 1n },
        { address: 'b', amount: 2n },
        { address: 'a', amount: 3n },
      ]),
    ).toEqual([
      { address: 'a', amount: 4n },
      { address: 'b', amount: 2n },
    ]);
  });
});

describe('the hot wallet', () => {
  it('must hold the payout and its min_balance (which pays the network fee)', () => {
    expect(walletBalanceNeeded(3_000_000n, 100_000n)).toBe(3_100_000n);
    expect(walletBalanceNeeded(0n, 0n)).toBe(0n);
  });
});

describe('fundedInDueOrder', () => {
  const account = (id: number, amount: bigint): PlannedPayoutAccount => ({
    accountId: BigInt(id),
    amount,
    items: [{ address: `a${id}`, amount }],
  });
  const plan = (accounts: PlannedPayoutAccount[]): PayoutPlan => ({
    coin: 'ETH',
    accounts,
    total: accounts.reduce((s, a) => s + a.amount, 0n),
    skipped: [],
  });
  const fees = (accounts: readonly PlannedPayoutAccount[]) =>
    accounts.reduce((s, a) => s + a.amount, 0n) + 10n * BigInt(accounts.length) + 5n;

  it('orders the never-paid first, then the longest waiting, then by id', () => {
    const accounts = [account(3, 1n), account(1, 1n), account(2, 1n), account(4, 1n)];
    const ordered = inDueOrder(accounts, [
      { accountId: 1n, lastPayoutAt: new Date('2026-11-20T00:00:00Z') },
      { accountId: 2n, lastPayoutAt: null },
      { accountId: 3n, lastPayoutAt: new Date('2026-11-01T00:00:00Z') },
      { accountId: 4n, lastPayoutAt: null },
    ]);
    expect(ordered.map((a) => a.accountId)).toEqual([2n, 4n, 3n, 1n]);
  });

  it('pays everything when the wallet covers it, total and fees', () => {
    const accounts = [account(1, 100n), account(2, 200n)];
    const { funded, waiting } = fundedInDueOrder(plan(accounts), accounts, 325n, fees);
    expect(funded.accounts).toHaveLength(2);
    expect(funded.total).toBe(300n);
    expect(waiting).toEqual([]);
  });

  it('pays the due prefix it can cover and stops at the first account that does not fit', () => {
    // 100 + 500 + 20 fees + 5 kept = 625 > 400; the third (10) would fit alone but waits behind the second.
    const accounts = [account(1, 100n), account(2, 500n), account(3, 10n)];
    const { funded, waiting } = fundedInDueOrder(plan(accounts), accounts, 400n, fees);
    expect(funded.accounts.map((a) => a.accountId)).toEqual([1n]);
    expect(funded.total).toBe(100n);
    expect(waiting.map((a) => a.accountId)).toEqual([2n, 3n]);
  });

  it('pays nobody when even the first does not fit, one unit short', () => {
    const accounts = [account(1, 100n)];
    const { funded, waiting } = fundedInDueOrder(plan(accounts), accounts, 114n, fees);
    expect(funded.accounts).toEqual([]);
    expect(funded.total).toBe(0n);
    expect(waiting).toHaveLength(1);
    expect(fundedInDueOrder(plan(accounts), accounts, 115n, fees).waiting).toEqual([]);
  });

  it('fundDuePayouts: the due order and the budget’s cost in one rule; without a budget everyone waits', () => {
    const accounts = [account(1, 100n), account(2, 500n), account(3, 10n)];
    const candidates = [
      { accountId: 1n, lastPayoutAt: new Date('2026-11-20T00:00:00Z') },
      { accountId: 2n, lastPayoutAt: null },
      { accountId: 3n, lastPayoutAt: null },
    ];
    // Due order 2, 3, 1: 500 + 10 + 5 kept fits 520, adding 100 does not.
    const { funded, waiting } = fundDuePayouts(plan(accounts), candidates, { available: 520n, minBalance: 5n });
    expect(funded.accounts.map((a) => a.accountId)).toEqual([2n, 3n]);
    expect(funded.total).toBe(510n);
    expect(waiting.map((a) => a.accountId)).toEqual([1n]);
    const unknown = fundDuePayouts(plan(accounts), candidates, undefined);
    expect(unknown.funded).toMatchObject({ accounts: [], total: 0n });
    expect(unknown.waiting.map((a) => a.accountId)).toEqual([2n, 3n, 1n]);
  });
});

describe('splitIntoTransactions and payoutCost', () => {
  const account = (id: number, ...items: [string, bigint][]): PlannedPayoutAccount => ({
    accountId: BigInt(id),
    amount: items.reduce((s, [, a]) => s + a, 0n),
    items: items.map(([address, amount]) => ({ address, amount })),
  });

  it('starts a transaction when a new address does not fit, splits an account over two, keeps a repeated address', () => {
    const alice = account(1, ['a', 60n], ['b', 40n]);
    const bob = account(2, ['c', 10n]);
    expect(splitIntoTransactions([], 1)).toEqual([]);
    expect(splitIntoTransactions([alice, bob], 1)).toEqual([
      [account(1, ['a', 60n])],
      [account(1, ['b', 40n])],
      [account(2, ['c', 10n])],
    ]);
    expect(splitIntoTransactions([alice, bob], 2)).toEqual([[alice], [bob]]);
    expect(splitIntoTransactions([alice, bob], 100)).toEqual([[alice, bob]]);
    expect(splitIntoTransactions([account(1, ['a', 5n]), account(2, ['a', 7n])], 1)).toHaveLength(1);
  });

  it('costs a node wallet its total and min balance; a signed one each transaction’s fee too', () => {
    const accounts = [account(1, ['a', 60n], ['b', 40n]), account(2, ['c', 10n])];
    expect(payoutCost({ available: 0n, minBalance: 5n })(accounts)).toBe(115n);
    expect(payoutCost({ available: 0n, minBalance: 5n, fees: { perTransaction: 3n, maxOutputs: 1 } })(accounts)).toBe(
      124n,
    );
    expect(payoutCost({ available: 0n, minBalance: 5n, fees: { perTransaction: 3n, maxOutputs: 2 } })(accounts)).toBe(
      121n,
    );
    expect(transactionFees({ perTransaction: 3n, maxOutputs: 1 }, accounts)).toBe(9n);
    expect(transactionFees({ perTransaction: 3n, maxOutputs: 2 }, [])).toBe(0n);
  });

  it('costs a token its total when its fee coin pays the fees, and more than it holds when it cannot', () => {
    const accounts = [account(1, ['a', 100n])];
    const token = (feeCoinBalance: bigint) =>
      payoutCost({ available: 500n, minBalance: 0n, fees: { perTransaction: 7n, maxOutputs: 1, feeCoinBalance } });
    expect(token(7n)(accounts)).toBe(100n);
    expect(token(6n)(accounts)).toBe(501n);
  });
});
