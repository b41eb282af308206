import type { AdminTreasuryResponse, TreasuryCoin } from '@lodestone/contract';
import {
  type Coin,
  type Executor,
  listCoins,
  type OpenPayoutTotals,
  openPayoutTotals,
  owedByCoin,
  type PoolResult,
  payoutCandidates,
  poolResultByCoin,
  type User,
  type WalletSnapshot,
  walletSnapshots,
} from '@lodestone/db';
import {
  fundDuePayouts,
  type PayoutCandidate,
  type PayoutPlan,
  planPayouts,
  transactionFees,
  unitsToAmount,
  type WalletBudget,
  walletBalanceNeeded,
} from '@lodestone/domain';
import type { AccountsContext } from '../accounts/context.js';
import { logEvent } from '../userLog.js';

/**
 * The operator's treasury (docs/admin.md, "Treasury"): per coin of the catalogue, what the pool owes
 * its miners, what the next payout run pays, what the hot wallet held when the jobs role last read it,
 * what it lacks, what waits, and the pool's own profit and loss from the ledger. One read used by the
 * admin page, `lodestone treasury` and the Prometheus gauges, so the three never disagree.
 *
 * The API never asks a wallet: the keys of pool-signed wallets live only in the jobs role, which
 * writes what each wallet holds to wallet_snapshots every minute (jobs/walletSnapshots.ts).
 */

export interface FeeReserve {
  /** The coin fees are paid in (ETH for USDC), a coin of the catalogue, and its decimals. */
  coin: string;
  decimals: number;
  /** Its spendable balance at the wallet's read_at; null until a read succeeded. */
  spendable: bigint | null;
  /** The most the transactions paying what is due may cost in fees, at the last estimate. */
  needed: bigint | null;
  /** needed − spendable, never below 0; null while either is unknown. */
  shortfall: bigint | null;
}

export interface TreasuryCoinFigures {
  coin: Pick<Coin, 'ticker' | 'name' | 'decimals' | 'payouts_enabled'>;
  owed: bigint;
  due: bigint;
  dueAccounts: number;
  /** null: the coin has no hot wallet, or the jobs role has not read it yet. */
  wallet: WalletSnapshot | null;
  /**
   * What the wallet lacks to pay everything due: due (+ the fees of its transactions, for a pool-signed
   * wallet paying fees in the coin itself) + min_balance − spendable, never below 0. No wallet or no
   * reading yet: spendable counts as 0.
   */
  shortfall: bigint;
  /** Tokens only: the fee coin's reserve; null when fees are paid in the coin itself. */
  feeReserve: FeeReserve | null;
  open: OpenPayoutTotals;
  /** Due accounts the next run leaves waiting for funds: the payout run's rule (fundDuePayouts) at the snapshot's figures. */
  waitingForFunds: number;
  result: PoolResult & { net: bigint };
}

export interface Treasury {
  at: Date;
  coins: TreasuryCoinFigures[];
}

const NO_OPEN: OpenPayoutTotals = { count: 0, total: 0n };
const NO_RESULT: PoolResult = { mined: 0n, pps: 0n, fees: 0n, solo: 0n };

/** The treasury at `now`, every coin of the catalogue in its order. */
export async function readTreasury(db: Executor, now: Date): Promise<Treasury> {
  const [coins, owed, open, results, snapshots] = await Promise.all([
    listCoins(db),
    owedByCoin(db),
    openPayoutTotals(db),
    poolResultByCoin(db),
    walletSnapshots(db),
  ]);
  const figures: TreasuryCoinFigures[] = [];
  for (const coin of coins) {
    // Who the payout run (jobs/payouts/run.ts) finds due at this instant, and how much.
    const candidates = await payoutCandidates(db, coin.ticker);
    const plan = planPayouts(
      { ticker: coin.ticker, decimals: coin.decimals, payoutsEnabled: coin.payouts_enabled },
      candidates,
      now,
    );
    const wallet = snapshots.get(coin.ticker) ?? null;
    figures.push(
      coinFigures({
        coin,
        owed: owed.get(coin.ticker) ?? 0n,
        plan,
        candidates,
        wallet,
        feeDecimals: coins.find((c) => c.ticker === wallet?.feeCoin)?.decimals ?? 0,
        open: open.get(coin.ticker) ?? NO_OPEN,
        result: results.get(coin.ticker) ?? NO_RESULT,
      }),
    );
  }
  return { at: now, coins: figures };
}

interface CoinInputs {
  coin: TreasuryCoinFigures['coin'];
  owed: bigint;
  plan: PayoutPlan;
  /** What puts the plan's accounts in due order: when each was last paid. */
  candidates: readonly Pick<PayoutCandidate, 'accountId' | 'lastPayoutAt'>[];
  wallet: WalletSnapshot | null;
  /** Decimals of the wallet's fee coin (a coin of the catalogue: wallet_snapshots.fee_coin references it). */
  feeDecimals: number;
  open: OpenPayoutTotals;
  result: PoolResult;
}

/**
 * The derived figures of one coin (pure). Who waits is the payout run's own rule (fundDuePayouts) at
 * the snapshot's figures; the shortfall is what the wallet lacks to pay everything due: the total and
 * its min_balance, and for a pool-signed wallet paying fees in the coin itself, each transaction's fee.
 */
export function coinFigures(input: CoinInputs): TreasuryCoinFigures {
  const { wallet, plan } = input;
  const minBalance = wallet?.minBalance ?? 0n;
  const spendable = wallet?.reading?.balance ?? 0n;
  const fees = transactionCosts(wallet);
  const feesDue = fees && transactionFees(fees, plan.accounts);
  const token = wallet?.feeCoin != null;
  const feeBalance = wallet?.reading?.feeBalance ?? null;
  const needed = walletBalanceNeeded(plan.total + (token ? 0n : (feesDue ?? 0n)), minBalance);
  const shortfall = positive(needed - spendable);
  let feeReserve: FeeReserve | null = null;
  if (wallet?.feeCoin) {
    feeReserve = {
      coin: wallet.feeCoin,
      decimals: input.feeDecimals,
      spendable: feeBalance,
      needed: feesDue,
      shortfall: feesDue !== null && feeBalance !== null ? positive(feesDue - feeBalance) : null,
    };
  }
  const { waiting } = fundDuePayouts(plan, input.candidates, snapshotBudget(wallet));
  return {
    coin: input.coin,
    owed: input.owed,
    due: plan.total,
    dueAccounts: plan.accounts.length,
    wallet,
    shortfall,
    feeReserve,
    open: input.open,
    waitingForFunds: waiting.length,
    result: { ...input.result, net: input.result.mined + input.result.pps + input.result.solo + input.result.fees },
  };
}

/** A pool-signed wallet's fee figures as last read; null for a node wallet, or before a first read. */
function transactionCosts(wallet: WalletSnapshot | null): { perTransaction: bigint; maxOutputs: number } | null {
  const perTransaction = wallet?.reading?.feePerTransaction ?? null;
  const maxOutputs = wallet?.maxOutputs ?? null;
  return perTransaction === null || maxOutputs === null ? null : { perTransaction, maxOutputs };
}

/**
 * The budget the payout run would see (the jobs role's channel.budget) at the snapshot's figures: no
 * reading counts as nothing held. A token whose fees or fee coin were never read cannot be judged able
 * to pay, so it has no budget and everything due waits.
 */
function snapshotBudget(wallet: WalletSnapshot | null): WalletBudget | undefined {
  const available = wallet?.reading?.balance ?? 0n;
  const minBalance = wallet?.minBalance ?? 0n;
  const fees = transactionCosts(wallet);
  if (wallet?.feeCoin == null) return { available, minBalance, ...(fees ? { fees } : {}) };
  const feeCoinBalance = wallet.reading?.feeBalance ?? null;
  if (fees === null || feeCoinBalance === null) return undefined;
  return { available, minBalance, fees: { ...fees, feeCoinBalance } };
}

const positive = (n: bigint) => (n > 0n ? n : 0n);

/** The treasury as the contract answers it: exact decimal text in coin units, ISO times. */
export function treasuryResponse(treasury: Treasury): AdminTreasuryResponse {
  return { generated_at: treasury.at.toISOString(), coins: treasury.coins.map(coinResponse) };
}

function coinResponse(f: TreasuryCoinFigures): TreasuryCoin {
  const amount = (units: bigint) => unitsToAmount(units, f.coin.decimals);
  const wallet = f.wallet;
  const fee = f.feeReserve;
  // The fee coin's decimals are not this coin's (ETH 18, USDC 6).
  const feeAmount = (units: bigint | null) =>
    units === null ? null : unitsToAmount(units, fee?.decimals ?? f.coin.decimals);
  return {
    coin: f.coin.ticker,
    name: f.coin.name,
    decimals: f.coin.decimals,
    payouts_enabled: f.coin.payouts_enabled,
    owed: amount(f.owed),
    due: amount(f.due),
    due_accounts: f.dueAccounts,
    wallet: wallet && {
      demo: wallet.demo,
      address: wallet.address,
      spendable: wallet.reading ? amount(wallet.reading.balance) : null,
      min_balance: amount(wallet.minBalance),
      read_at: wallet.reading?.at.toISOString() ?? null,
      checked_at: wallet.checkedAt.toISOString(),
      error: wallet.error,
      fee_reserve: fee && {
        coin: fee.coin,
        spendable: feeAmount(fee.spendable),
        needed: feeAmount(fee.needed),
        shortfall: feeAmount(fee.shortfall),
      },
    },
    shortfall: amount(f.shortfall),
    waiting: {
      open_payouts: f.open.count,
      open_total: amount(f.open.total),
      accounts_for_funds: f.waitingForFunds,
    },
    profit: {
      mined: amount(f.result.mined),
      pps_credited: amount(-f.result.pps),
      solo_credited: amount(-f.result.solo),
      fees_kept: amount(f.result.fees),
      net: amount(f.result.net),
    },
  };
}

/** GET admin/treasury: the figures, and the look recorded in the admin's own log. */
export async function viewTreasury(ctx: AccountsContext, admin: User, ip: string): Promise<AdminTreasuryResponse> {
  const treasury = await readTreasury(ctx.db, ctx.now());
  await logEvent(ctx.db, ctx.now(), { userId: admin.id, name: 'admin_treasury_viewed', value: { ip } });
  return treasuryResponse(treasury);
}
