import type { ChainLogger } from '@lodestone/chain';
import type { Coin } from '@lodestone/db';
import type { AlgorithmKey } from '@lodestone/domain';
import type { CoinSetting, WalletSetting } from '../config/settings.js';
import type { MinerDialect } from '../stratum/client/minerDialect.js';
import type { StratumWork } from '../stratum/work.js';
import { bitcoin } from './bitcoin/index.js';
import { bitcoinCoinSetting, bitcoinWalletSetting } from './bitcoin/settings.js';
import type { ChainModule, DemoWorkOptions, MinedCoin, PayoutWallet } from './chain.js';
import { ckb } from './ckb/index.js';
import { ckbCoinSetting, ckbWalletSetting } from './ckb/settings.js';
import { evm } from './evm/index.js';
import { evmWalletSetting } from './evm/settings.js';
import { kadena } from './kadena/index.js';
import { kadenaCoinSetting, kadenaWalletSetting } from './kadena/settings.js';
import { kaspa } from './kaspa/index.js';
import { kaspaCoinSetting, kaspaWalletSetting } from './kaspa/settings.js';

/**
 * Every chain the pool knows: a new chain is its folder (chains/<family>/) and its entries here — the
 * module, and the settings it reads (ARCHITECTURE.md, "Adding a chain").
 */
const CHAINS: readonly ChainModule[] = [bitcoin, ckb, kaspa, kadena, evm];

/** The `coins` entries each mining chain reads (one schema per chain, told apart by `algorithm`). */
export const COIN_SETTINGS = [bitcoinCoinSetting, ckbCoinSetting, kaspaCoinSetting, kadenaCoinSetting] as const;

/** The `wallets` entries each chain pays from (told apart by `kind`). */
export const WALLET_SETTINGS = [
  bitcoinWalletSetting,
  evmWalletSetting,
  ckbWalletSetting,
  kaspaWalletSetting,
  kadenaWalletSetting,
] as const;

/** The first chain's answer, asking each in turn (each answers only for its own). */
function ask<T>(question: (chain: ChainModule) => T | undefined): T | undefined {
  for (const chain of CHAINS) {
    const answer = question(chain);
    if (answer !== undefined) return answer;
  }
  return undefined;
}

/** A configured coin's chain. */
export function minedCoin(setting: CoinSetting): MinedCoin {
  const coin = ask((chain) => chain.coin?.(setting));
  if (!coin) throw new Error(`no chain mines ${setting.ticker} (${setting.algorithm})`);
  return coin;
}

/** The job source and dialect of a configured coin, on its own nodes. */
export function coinWork(setting: CoinSetting, logger: ChainLogger): StratumWork {
  return minedCoin(setting).work(logger);
}

/** The demo network's work for an algorithm. */
export function demoWork(algorithm: AlgorithmKey, options: DemoWorkOptions): StratumWork {
  const work = ask((chain) => chain.demo?.(algorithm, options));
  if (!work) throw new Error(`no chain has a demo network for ${algorithm}`);
  return work;
}

/**
 * The miner side of `algorithm`'s stratum dialect, new for each connection (it holds that
 * connection's nonce space and job); undefined while the algorithm has none.
 */
export function minerDialectFor(algorithm: AlgorithmKey): MinerDialect | undefined {
  return ask((chain) => chain.miner?.(algorithm));
}

/** The wallet a `wallets` entry describes, made by the chain of its kind. */
export function payoutWalletFor(setting: WalletSetting, coin: Coin): PayoutWallet {
  const wallet = ask((chain) => chain.payoutWallet?.(setting, coin));
  if (!wallet) throw new Error(`wallets: ${coin.ticker}: no chain pays from a ${setting.kind} wallet`);
  return wallet;
}
