import { Exact } from './exact.js';

/**
 * Payout planning (docs/money.md, "Payouts"): which accounts are due a payout of a coin in this run,
 * how each balance is split over its addresses, and the outputs of the one transaction that pays
 * them all. Pure: the payout run (apps/server/src/jobs/payouts/run.ts) reads the candidates, writes
 * the plan and pays it through the wallet's channel; the treasury asks the same rule of a snapshot.
 */

export interface CandidateAddress {
  position: number;
  address: string;
  /** Percent, exact decimal text. */
  proportion: string;
}

/** What the payout planner needs to know about one account's balance of one coin. */
export interface PayoutCandidate {
  accountId: bigint;
  /** Smallest units, > 0. */
  balance: bigint;
  /** Coin amount (decimal text), as the account set it. */
  threshold: string;
  /** Hours (decimal text). */
  intervalHours: string;
  pausedUntil: Date | null;
  /** Creation time of the account's newest pending, sending or sent payout of the coin. */
  lastPayoutAt: Date | null;
  /** In position order. */
  addresses: CandidateAddress[];
}

const HOUR_MS = 3_600_000;

export interface PayoutCoin {
  ticker: string;
  decimals: number;
  payoutsEnabled: boolean;
}

export interface PlannedPayoutItem {
  address: string;
  /** Smallest units, > 0. */
  amount: bigint;
}

export interface PlannedPayoutAccount {
  accountId: bigint;
  /** The whole balance at planning time: the sum of the items. */
  amount: bigint;
  /** One per distinct address, in address position order. */
  items: PlannedPayoutItem[];
}

export type PayoutSkipReason =
  | 'payouts-disabled'
  | 'paused'
  | 'no-address'
  | 'bad-proportions'
  | 'below-threshold'
  | 'interval-not-elapsed';

export interface PayoutPlan {
  coin: string;
  accounts: PlannedPayoutAccount[];
  /** Σ amounts of `accounts`. */
  total: bigint;
  skipped: { accountId: bigint; reason: PayoutSkipReason }[];
}

/** A coin amount (decimal text) as smallest units, rounded up: a threshold is never undercut. */
export function thresholdUnits(threshold: string, decimals: number): bigint {
  const shifted = Exact.of(threshold).shifted(decimals);
  const floor = shifted.floor();
  return shifted.compare(floor) === 0 ? floor : floor + 1n;
}

/**
 * Splits `amount` over addresses by their percent proportions: floor(amount × p / 100) each, the
 * remainder of the rounding to the first address with a non-zero proportion, addresses left with
 * nothing dropped, and a repeated address paid once with its shares added. Undefined when the
 * proportions do not add up to exactly 100.
 */
export function splitByProportion(
  amount: bigint,
  addresses: readonly { address: string; proportion: string }[],
): PlannedPayoutItem[] | undefined {
  const sum = addresses.reduce((s, a) => s.plus(a.proportion), Exact.ZERO);
  if (sum.compare(100) !== 0 || addresses.some((a) => Exact.of(a.proportion).isNegative())) return undefined;
  const shares = addresses.map((a) => ({
    address: a.address,
    proportion: Exact.of(a.proportion),
    amount: Exact.of(amount).times(a.proportion).dividedBy(100, 0).floor(),
  }));
  const first = shares.find((s) => !s.proportion.isZero());
  if (!first) return undefined;
  first.amount += amount - shares.reduce((s, x) => s + x.amount, 0n);
  const merged = new Map<string, bigint>();
  for (const s of shares) merged.set(s.address, (merged.get(s.address) ?? 0n) + s.amount);
  return [...merged].filter(([, value]) => value > 0n).map(([address, value]) => ({ address, amount: value }));
}

/**
 * Which accounts are paid in this run and how: an account is due when the coin's payouts are enabled,
 * its payouts of the coin are not paused (paused_until unset or past), it has at least one address,
 * its balance reaches its threshold, and its interval has elapsed since its last pending, sending or
 * sent payout of the coin (or it never had one). A due account is paid its whole balance.
 */
export function planPayouts(coin: PayoutCoin, candidates: readonly PayoutCandidate[], now: Date): PayoutPlan {
  const plan: PayoutPlan = { coin: coin.ticker, accounts: [], total: 0n, skipped: [] };
  for (const c of candidates) {
    const skip = (reason: PayoutSkipReason) => void plan.skipped.push({ accountId: c.accountId, reason });
    if (!coin.payoutsEnabled) {
      skip('payouts-disabled');
      continue;
    }
    if (c.pausedUntil !== null && c.pausedUntil.getTime() > now.getTime()) {
      skip('paused');
      continue;
    }
    if (c.addresses.length === 0) {
      skip('no-address');
      continue;
    }
    if (c.balance <= 0n || c.balance < thresholdUnits(c.threshold, coin.decimals)) {
      skip('below-threshold');
      continue;
    }
    if (c.lastPayoutAt !== null) {
      const intervalMs = Exact.of(c.intervalHours).times(HOUR_MS).floor();
      if (BigInt(now.getTime() - c.lastPayoutAt.getTime()) < intervalMs) {
        skip('interval-not-elapsed');
        continue;
      }
    }
    const items = splitByProportion(
      c.balance,
      [...c.addresses].sort((a, b) => a.position - b.position),
    );
    if (!items || items.length === 0) {
      skip('bad-proportions');
      continue;
    }
    plan.accounts.push({ accountId: c.accountId, amount: c.balance, items });
    plan.total += c.balance;
  }
  return plan;
}

/** The outputs of a payout's one wallet transaction (sendmany): one per address, amounts of every account paid there added up. */
export function walletOutputs(items: readonly PlannedPayoutItem[]): PlannedPayoutItem[] {
  const byAddress = new Map<string, bigint>();
  for (const item of items) byAddress.set(item.address, (byAddress.get(item.address) ?? 0n) + item.amount);
  return [...byAddress].map(([address, amount]) => ({ address, amount }));
}

/**
 * What the hot wallet must hold to send a payout: its total plus the wallet's `min_balance`, which
 * stays in the wallet and covers the network fee the wallet adds on top (docs/money.md, "Payouts").
 */
export function walletBalanceNeeded(total: bigint, minBalance: bigint): bigint {
  return total + minBalance;
}

/**
 * Due order: the account that has waited longest first — never paid before it, then the oldest last
 * payout — then by account id, so the order is stable from run to run.
 */
export function inDueOrder(
  accounts: readonly PlannedPayoutAccount[],
  candidates: readonly Pick<PayoutCandidate, 'accountId' | 'lastPayoutAt'>[],
): PlannedPayoutAccount[] {
  const last = new Map(candidates.map((c) => [c.accountId, c.lastPayoutAt?.getTime() ?? -Infinity]));
  return [...accounts].sort(
    (a, b) =>
      (last.get(a.accountId) ?? -Infinity) - (last.get(b.accountId) ?? -Infinity) ||
      (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0),
  );
}

export interface FundedPlan {
  /** The accounts the wallet can pay now, in due order. */
  funded: PayoutPlan;
  /** Due accounts left for a later run because the wallet cannot cover them now. */
  waiting: PlannedPayoutAccount[];
}

/**
 * What an underfunded wallet pays (docs/money.md, "When a wallet cannot cover what is due"): the
 * longest run of accounts, in due order, whose cost fits what the wallet holds. It stops at the first
 * account that does not fit rather than skip to smaller later ones, so an early-due miner is never
 * starved by later, smaller payouts. `cost(accounts)` is what the wallet must hold to pay them (their
 * total, the fees, the balance it keeps) and grows with every account added.
 */
export function fundedInDueOrder(
  plan: PayoutPlan,
  ordered: readonly PlannedPayoutAccount[],
  available: bigint,
  cost: (accounts: readonly PlannedPayoutAccount[]) => bigint,
): FundedPlan {
  let n = ordered.length;
  while (n > 0 && cost(ordered.slice(0, n)) > available) n -= 1;
  const accounts = ordered.slice(0, n);
  return {
    funded: { ...plan, accounts, total: accounts.reduce((sum, a) => sum + a.amount, 0n) },
    waiting: ordered.slice(n),
  };
}

/**
 * The accounts of each transaction when one may carry at most `maxOutputs` outputs (pool-signed
 * wallets: 1 on EVM and Kadena): items taken in order, a new transaction when a new address does not
 * fit; an account whose addresses do not fit in one transaction is split over several, each part with
 * the amount of its items.
 */
export function splitIntoTransactions(
  accounts: readonly PlannedPayoutAccount[],
  maxOutputs: number,
): PlannedPayoutAccount[][] {
  const batches: PlannedPayoutAccount[][] = [];
  let batch: PlannedPayoutAccount[] = [];
  let outputs = new Set<string>();
  for (const account of accounts) {
    for (const item of account.items) {
      if (!outputs.has(item.address) && outputs.size >= maxOutputs) {
        batches.push(batch);
        batch = [];
        outputs = new Set();
      }
      outputs.add(item.address);
      const last = batch.at(-1);
      if (last?.accountId === account.accountId) {
        last.items.push(item);
        last.amount += item.amount;
      } else {
        batch.push({ accountId: account.accountId, amount: item.amount, items: [item] });
      }
    }
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

export interface WalletBudget {
  /** What the wallet holds of the coin it pays (smallest units). */
  available: bigint;
  /** What it keeps (min_balance). */
  minBalance: bigint;
  /**
   * A pool-signed wallet's fees: the most one transaction can cost, how many outputs one carries, and —
   * for a token whose fees are another coin (USDC's ETH) — what that coin holds.
   */
  fees?: { perTransaction: bigint; maxOutputs: number; feeCoinBalance?: bigint };
}

/**
 * What a wallet must hold to pay `accounts` (docs/money.md, "When a wallet cannot cover what is
 * due"), for fundedInDueOrder: their total and the min balance; a pool-signed wallet also each
 * transaction's fee, in the coin paid or, for a token, out of its fee coin — transactions that coin
 * cannot pay cost more than the wallet holds, so they wait.
 */
export function payoutCost(budget: WalletBudget): (accounts: readonly PlannedPayoutAccount[]) => bigint {
  return (accounts) => {
    const total = accounts.reduce((sum, a) => sum + a.amount, 0n);
    const { fees } = budget;
    if (!fees) return walletBalanceNeeded(total, budget.minBalance);
    const feeTotal = transactionFees(fees, accounts);
    if (fees.feeCoinBalance === undefined) return walletBalanceNeeded(total + feeTotal, budget.minBalance);
    if (feeTotal > fees.feeCoinBalance) return budget.available + 1n;
    return walletBalanceNeeded(total, budget.minBalance);
  };
}

/** The most paying `accounts` can cost in fees: each transaction's most, times the transactions they take. */
export function transactionFees(
  fees: { perTransaction: bigint; maxOutputs: number },
  accounts: readonly PlannedPayoutAccount[],
): bigint {
  return fees.perTransaction * BigInt(splitIntoTransactions(accounts, fees.maxOutputs).length);
}

/**
 * The payout run's funding rule whole (docs/money.md, "When a wallet cannot cover what is due"): the
 * plan's accounts in due order, paid as far as the wallet's budget covers them. The run asks it with
 * what the wallet says now, the treasury with the wallet's last snapshot, so the two cannot disagree
 * on who waits. No budget (a wallet whose fees were never read) cannot be judged able to pay anything:
 * every due account waits.
 */
export function fundDuePayouts(
  plan: PayoutPlan,
  candidates: readonly Pick<PayoutCandidate, 'accountId' | 'lastPayoutAt'>[],
  budget: WalletBudget | undefined,
): FundedPlan {
  const ordered = inDueOrder(plan.accounts, candidates);
  if (!budget) return { funded: { ...plan, accounts: [], total: 0n }, waiting: ordered };
  return fundedInDueOrder(plan, ordered, budget.available, payoutCost(budget));
}
