import type { SigningWallet, Wallet } from '@lodestone/chain';
import { type DB, listCoins } from '@lodestone/db';
import { amountToUnits } from '@lodestone/domain';
import type { Kysely } from 'kysely';
import { payoutWalletFor } from '../../chains/registry.js';
import type { Config } from '../../config/config.js';
import type { ServiceLog } from '../../services/log.js';
import { DemoWallet } from './demoWallet.js';

/**
 * A wallet payouts are sent from, and what it must keep: a node wallet of the bitcoin family (one
 * sendmany per payout) or a wallet the pool signs for (ETH, USDC, CKB, KAS, KDA), as the payout
 * channel of its kind handles it (jobs/payouts/channel.ts).
 */
export interface HotWallet {
  wallet: Wallet | SigningWallet;
  /** Smallest units the wallet keeps: a payout that would leave less is not sent. */
  minBalance: bigint;
  /** EVM: how long a payout transaction may stay unmined before its fee is raised (jobs/payouts/signingChannel.ts). */
  replaceAfterMs?: number;
}

/** A hot wallet of the bitcoin family's node wallets. */
export interface NodeHotWallet extends HotWallet {
  wallet: Wallet;
}

/**
 * The hot wallets of the pool, by ticker (docs/money.md, "Payouts"):
 * - with coin daemons configured (`coins` not empty): per `wallets` entry the wallet its chain makes
 *   (chains/registry.ts: a BitcoinWallet for kind bitcoin, a pool-signed wallet for evm, ckb, kaspa,
 *   kadena), its decimals and minimum balance read in the coin's catalogue units. A coin without an entry has no
 *   wallet and is not paid out (the payout job logs that at every run);
 * - with no coin daemon (`coins` empty, the whole pool is the demo network): a DemoWallet for every
 *   coin of the catalogue, and `wallets` is ignored — demo payouts are never mixed with real ones.
 * A `wallets` entry for a coin missing from the catalogue, or listed twice, stops start-up.
 */
export async function createWallets(
  config: Pick<Config, 'coins' | 'wallets'>,
  db: Kysely<DB>,
  log?: ServiceLog,
): Promise<Map<string, HotWallet>> {
  const catalogue = await listCoins(db);
  const wallets = new Map<string, HotWallet>();
  if (config.coins.length === 0) {
    if (config.wallets.length > 0) {
      log?.warn(
        { wallets: config.wallets.map((w) => w.ticker) },
        'no coin daemon is configured, so the pool runs the demo network and pays from demo wallets; the configured wallets are not used',
      );
    }
    for (const coin of catalogue) wallets.set(coin.ticker, { wallet: new DemoWallet(coin.ticker, db), minBalance: 0n });
    return wallets;
  }
  for (const setting of config.wallets) {
    const coin = catalogue.find((c) => c.ticker === setting.ticker);
    if (!coin) throw new Error(`wallets: ${setting.ticker} is not a coin of the catalogue (docs/money.md)`);
    if (wallets.has(coin.ticker)) throw new Error(`wallets: ${coin.ticker} is listed twice`);
    let minBalance: bigint;
    try {
      minBalance = amountToUnits(setting.min_balance, coin.decimals);
    } catch {
      throw new Error(`wallets: min_balance of ${coin.ticker} has more than ${coin.decimals} decimals`);
    }
    wallets.set(coin.ticker, { ...payoutWalletFor(setting, coin), minBalance });
  }
  return wallets;
}

/** What builds the hot wallets for a job: the same wallets for every job of the process. */
export type WalletsProvider = (db: Kysely<DB>, log?: ServiceLog) => Promise<ReadonlyMap<string, HotWallet>>;

/**
 * The hot wallets built once for all the jobs that use them (the payout run and the wallet
 * snapshots): one read of each key file, one connection per node. A build that fails (a node or key
 * file not ready) is tried again at the next call.
 */
export function walletsOnce(config: Pick<Config, 'coins' | 'wallets'>): WalletsProvider {
  let built: Promise<ReadonlyMap<string, HotWallet>> | undefined;
  return (db, log) => {
    built ??= createWallets(config, db, log).catch((error: unknown) => {
      built = undefined;
      throw error;
    });
    return built;
  };
}
