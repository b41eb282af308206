import type { ChainLogger } from '@lodestone/chain';
import type { Coin } from '@lodestone/db';
import type { AlgorithmKey } from '@lodestone/domain';
import type { CoinSetting, WalletSetting } from '../config/settings.js';
import type { MinerDialect } from '../stratum/client/minerDialect.js';
import type { StratumWork } from '../stratum/work.js';
import { bitcoin } from './bitcoin/index.js';
import type { ChainModule, DemoWorkOptions, MinedCoin, PayoutWallet } from './chain.js';
import { ckb } from './ckb/index.js';
import { evm } from './evm/index.js';
import { kadena } from './kadena/index.js';
import { kaspa } from './kaspa/index.js';

/**
 * Every chain the pool knows: a new chain is its folder (chains/<family>/) and its entry here
 * (ARCHITECTURE.md, "Adding a chain"). The settings, stratum, the demo network, the fleet, block
 * confirmations and payouts all find it through this list.
 */
export const CHAINS = [bitcoin, ckb, kaspa, kadena, evm] as const;

/** The chains as the lookups below use them, each handed only what is its own (chain.ts, chainModule). */
const CHAIN_MODULES: readonly ChainModule[] = CHAINS;

/** The list's entries, refusing an empty one (a discriminated union needs at least one member). */
function atLeastOne<T>(items: readonly T[]): readonly [T, ...T[]] {
  const [first, ...rest] = items;
  if (first === undefined) throw new Error('no chain declares this setting');
  return [first, ...rest];
}

/** The `coins` entries each mining chain reads (config/settings.ts tells them apart by `algorithm`). */
export const COIN_SETTINGS = atLeastOne(CHAINS.flatMap((chain) => (chain.coins ? [chain.coins.setting] : [])));

/** The `wallets` entries each chain pays from (config/settings.ts tells them apart by `kind`). */
export const WALLET_SETTINGS = atLeastOne(CHAINS.flatMap((chain) => (chain.wallets ? [chain.wallets.setting] : [])));

/** The `kind`s a `wallets` entry may name: each chain that pays, by its name. */
export const WALLET_KINDS = CHAINS.flatMap((chain) => (chain.wallets ? [chain.name] : []));

/** The chain that mines `algorithm` (exactly one does; registry.test.ts). */
function chainMining(algorithm: AlgorithmKey): ChainModule | undefined {
  return CHAIN_MODULES.find((chain) => chain.algorithms.includes(algorithm));
}

/** A configured coin's chain. */
export function minedCoin(setting: CoinSetting): MinedCoin {
  const coins = chainMining(setting.algorithm)?.coins;
  if (!coins) throw new Error(`no chain mines ${setting.ticker} (${setting.algorithm})`);
  return coins.coin(setting);
}

/** The job source and dialect of a configured coin, on its own nodes. */
export function coinWork(setting: CoinSetting, logger: ChainLogger): StratumWork {
  return minedCoin(setting).work(logger);
}

/** The demo network's work for an algorithm. */
export function demoWork(algorithm: AlgorithmKey, options: DemoWorkOptions): StratumWork {
  const work = chainMining(algorithm)?.demo?.(algorithm, options);
  if (!work) throw new Error(`no chain has a demo network for ${algorithm}`);
  return work;
}

/**
 * The miner side of `algorithm`'s stratum dialect, new for each connection (it holds that
 * connection's nonce space and job); undefined while the algorithm has none.
 */
export function minerDialectFor(algorithm: AlgorithmKey): MinerDialect | undefined {
  return chainMining(algorithm)?.miner?.(algorithm);
}

/** The wallet a `wallets` entry describes, made by the chain of its kind. */
export function payoutWalletFor(setting: WalletSetting, coin: Coin): PayoutWallet {
  const wallets = CHAIN_MODULES.find((chain) => chain.name === setting.kind)?.wallets;
  if (!wallets) throw new Error(`wallets: ${coin.ticker}: no chain pays from a ${setting.kind} wallet`);
  return wallets.wallet(setting, coin);
}
