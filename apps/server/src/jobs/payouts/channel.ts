import { isSigningWallet } from '@lodestone/chain';
import type { Payout } from '@lodestone/db';
import type { PayoutPlan, PlannedPayoutAccount, WalletBudget } from '@lodestone/domain';
import type { HotWallet } from '../wallets/wallets.js';
import { NodeWalletChannel } from './nodeWalletChannel.js';
import { SigningChannel } from './signingChannel.js';
import type { Outcome, PayoutDeps, PayoutHooks } from './steps.js';

/**
 * How one coin's payouts reach its chain, whatever kind of wallet pays them (docs/money.md, "Payouts"
 * and "Payouts from pool-signed wallets"). The run (run.ts) plans, funds and writes payouts the same
 * way for every coin; only these steps differ between a node wallet that sends and records its own
 * transaction (one sendmany, found again by its comment) and a wallet the pool signs for (a signed
 * transaction stored before it is broadcast, followed to its confirmations). Each keeps the same
 * promise: a payout is written before any wallet call, never paid twice, and reconciled after a crash.
 */
export interface PayoutChannel {
  /** Written on each payout: the demo network's coins move on no chain. */
  readonly demo: boolean;
  /** The pool's address the operator funds, where the wallet has one to show. */
  readonly address: string | undefined;
  /** A token's fee coin (USDC's gas is ETH), whose reserve must be refilled too; undefined when fees are paid in the coin itself. */
  readonly feeCoin: string | undefined;
  /** A payout an earlier run left `pending` or `sending`: finished, failed, or left open for the next run. */
  resume(payout: Payout): Promise<Outcome>;
  /** Sent payouts that are not final yet, each followed one step on the chain and its outcome recorded. */
  follow(record: (payout: Payout, outcome: Outcome) => void): Promise<void>;
  /** The plan without the accounts this wallet cannot pay now (an address it refuses, an output too small). */
  eligible(plan: PayoutPlan): Promise<PayoutPlan>;
  /** What the wallet holds and keeps, and what its transactions may cost: what fundDuePayouts judges with. */
  budget(): Promise<WalletBudget>;
  /** The accounts of each payout this run writes: one payout per wallet transaction. */
  batches(accounts: PlannedPayoutAccount[]): PlannedPayoutAccount[][];
  /** A payout this run has just written `pending`, with the wallet already checked for it. */
  pay(payout: Payout): Promise<Outcome>;
}

/** A channel serves one coin for one run: every timestamp it writes is the run's `now`. */
export interface ChannelRun {
  deps: PayoutDeps;
  coin: string;
  now: Date;
  hooks: PayoutHooks;
}

/** The channel of a coin's hot wallet: the one place where the kind of wallet decides anything. */
export function channelFor(hot: HotWallet, run: ChannelRun): PayoutChannel {
  const { wallet } = hot;
  return isSigningWallet(wallet)
    ? new SigningChannel(run, { ...hot, wallet })
    : new NodeWalletChannel(run, { ...hot, wallet });
}
