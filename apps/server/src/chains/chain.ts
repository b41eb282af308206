import type { BlockStatus, ChainLogger, DemoValuation, SigningWallet, Wallet } from '@lodestone/chain';
import type { Coin } from '@lodestone/db';
import type { AlgorithmKey } from '@lodestone/domain';
import type { z } from 'zod';
import type { MinerDialect } from '../stratum/client/minerDialect.js';
import type { StratumWork } from '../stratum/work.js';

/** A chain's `coins` entry, of its own algorithms: config/settings.ts tells the chains' apart by `algorithm`. */
type CoinSchema<Algorithm extends AlgorithmKey = AlgorithmKey> = z.ZodType<{ ticker: string; algorithm: Algorithm }> &
  z.core.$ZodTypeDiscriminable;
/** A chain's `wallets` entry, told apart by `kind`: the chain's name. */
type WalletSchema<Name extends string = string> = z.ZodType<{ kind: Name }> & z.core.$ZodTypeDiscriminable;

/**
 * What the pool knows of one chain family, in one folder (chains/<family>/) and behind one interface:
 * every role looks chains up in the registry (registry.ts), which hands each module only its own
 * algorithms and settings, so neither a module nor a caller switches on an algorithm or a wallet kind.
 */
export interface ChainModule<
  Name extends string = string,
  Algorithm extends AlgorithmKey = AlgorithmKey,
  Coins extends CoinSchema<Algorithm> = CoinSchema<Algorithm>,
  Wallets extends WalletSchema<Name> = WalletSchema<Name>,
> {
  /** The family's name, as its folder is named; also the `kind` of its `wallets` entries. */
  readonly name: Name;
  /** Algorithms it mines (none for a chain the pool only pays in, such as Ethereum). */
  readonly algorithms: readonly Algorithm[];
  /** Its `coins` entries (one of its algorithms) and the coin mined from real nodes by each. */
  readonly coins?: {
    readonly setting: Coins;
    /** Its job source and dialect, and where its found blocks stand. */
    coin(setting: z.output<Coins>): MinedCoin;
  };
  /** The demo network's work for one of its algorithms (no node configured). */
  demo?(algorithm: Algorithm, options: DemoWorkOptions): StratumWork;
  /** The miner side of its dialect, new for each connection (the demo fleet, tests, benchmarks). */
  miner?(algorithm: Algorithm): MinerDialect;
  /** Its `wallets` entries and the wallet each pays from (a node's wallet, or one the pool signs for). */
  readonly wallets?: {
    readonly setting: Wallets;
    wallet(setting: z.output<Wallets>, coin: Coin): PayoutWallet;
  };
}

/**
 * A chain module as its folder writes it: each member typed by the chain's own algorithms and
 * settings, whose schemas must name those algorithms and the chain's name as `kind` (a mismatch does
 * not compile). The registry keeps the modules as plain ChainModules, which TypeScript allows because
 * the members are methods (their parameters are compared both ways), and it stays sound because the
 * registry hands a module only a setting of its algorithms or kind, or an algorithm of its own: the
 * config's unions tell the schemas apart by exactly those (registry.test.ts checks one chain each).
 */
export function chainModule<
  const Name extends string,
  const Algorithm extends AlgorithmKey,
  Coins extends CoinSchema<Algorithm> = never,
  Wallets extends WalletSchema<Name> = never,
>(module: ChainModule<Name, Algorithm, Coins, Wallets>): ChainModule<Name, Algorithm, Coins, Wallets> {
  return module;
}

/** A wallet payouts are sent from, as its chain makes it. */
export interface PayoutWallet {
  wallet: Wallet | SigningWallet;
  /** How long a payout transaction may stay unmined before its fee is raised (EVM). */
  replaceAfterMs?: number;
}

/** A configured coin of a chain. */
export interface MinedCoin {
  /** Its job source on the coin's nodes with its stratum dialect. */
  work(logger: ChainLogger): StratumWork;
  /**
   * Asks the coin's nodes where a found block stands (one client, kept until `close`); `ticker` names
   * a coin merge-mined with it (its own nodes) instead of the coin itself.
   */
  blockStatus(logger?: ChainLogger, ticker?: string): FoundBlockAsker;
  /**
   * Reads the network's blocks' fees from the coin's nodes, for FPPS (docs/money.md, "FPPS"); absent
   * where the chain's nodes cannot say (its coins stay on PPS).
   */
  networkFees?(logger?: ChainLogger): NetworkFeeReader;
}

/** One block of the best chain as the coin's node reports its fees. */
export interface NetworkBlockReport {
  height: number;
  hash: string;
  time: Date;
  /** Smallest units. */
  subsidy: bigint;
  /** Σ fees of its transactions, smallest units. */
  totalFees: bigint;
}

/** The node calls the fee job makes: the best chain's tip and a block's fees by height. */
export interface NetworkFeeReader {
  tipHeight(): Promise<number>;
  /** The block at `height`, refusing an answer for another height (BitcoinRpc.getBlockStats does). */
  block(height: number): Promise<NetworkBlockReport>;
  close?(): Promise<void>;
}

/** How the demo network sizes and values one algorithm's chain. */
export interface DemoWorkOptions {
  /** Average hashes a block takes at the start (the fleet's hashrate over the block interval). */
  expectedHashesPerBlock: bigint;
  valuation: DemoValuation;
  logger?: ChainLogger | undefined;
}

/**
 * Where a found block stands, by its chain's rules:
 * - `in-main-chain`, `orphaned`, `not-found`: the bitcoin family's daemon answer (BlockStatus); the job
 *   applies coinbase maturity by confirmation count;
 * - `pending`: on its chain (or not yet decided), not mature by the chain's own rule (CKB: reward not
 *   final; Kaspa: not merged, or its merging block's coinbase not mature; Kadena: not deep enough);
 * - `matured`: mature by the chain's rule, with the reward the chain paid when it says (CKB's
 *   get_block_economic_state, the Kaspa coinbase output); `confirmations` when the chain counts them.
 */
export type FoundBlockStatus =
  | BlockStatus
  | { kind: 'pending'; confirmations: number }
  | { kind: 'matured'; confirmations: number; reward?: bigint };

/** The found block as the confirmations job asks about it. */
export interface FoundBlockRef {
  hash: string;
  height: number;
  /** The catalogue's confirmation count for the coin (Kadena: the depth a block needs on its chain). */
  catalogueConfirmations: number | undefined;
  /** The chain it is on, where the network braids several and the block's report said (Kadena's chain id). */
  chain?: number;
}

/** One coin's found-block status, and how to close its node clients. */
export interface FoundBlockAsker {
  ask(block: FoundBlockRef): Promise<FoundBlockStatus>;
  close?(): Promise<void>;
}
