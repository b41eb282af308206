import {
  type DB,
  removeWalletSnapshotsExcept,
  saveWalletReadError,
  saveWalletReading,
  type WalletIdentity,
  type WalletReading,
} from '@lodestone/db';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { JobDefinition, Log } from './types.js';
import { type WalletsProvider, walletsOnce } from './wallets/wallets.js';

/**
 * The wallet-snapshots job (docs/admin.md, "Treasury"): once a minute, what each hot wallet holds is
 * written to wallet_snapshots, where the API and `lodestone treasury` read it. The wallets' keys live
 * only in the jobs role; this job is how the treasury sees the wallets without them.
 */

/**
 * What the job reads of a wallet: the part both the bitcoin-family node wallet (`Wallet`) and a
 * pool-signed one (`SigningWallet`, kind 'signing') have, and the signing wallet's fee reserve and
 * address. Written as its own small interface so that either kind of hot wallet fits.
 */
export interface ReadableWallet {
  /** Spendable balance of the coin, smallest units. */
  balance(): Promise<bigint>;
  readonly demo?: boolean;
  readonly kind?: string;
  /** Signing wallets: the pool's address, the coin fees are paid in (USDC's gas is ETH), the most outputs of one transaction. */
  readonly address?: string;
  readonly feeCoin?: string;
  readonly maxOutputs?: number;
  feeBalance?(): Promise<bigint>;
  feeEstimate?(outputs: number): Promise<bigint>;
}

export interface SnapshotHotWallet {
  wallet: ReadableWallet;
  /** Smallest units the wallet keeps (the configured min_balance). */
  minBalance: bigint;
}

/** One wallet read that takes longer is recorded as failed, so a hung node holds up no other coin. */
export const WALLET_READ_TIMEOUT_MS = 20_000;

/** What is known of a wallet without asking it. */
export function walletIdentity(coin: string, hot: SnapshotHotWallet): WalletIdentity {
  const { wallet } = hot;
  const signing = wallet.kind === 'signing';
  return {
    coin,
    address: signing ? (wallet.address ?? null) : null,
    demo: wallet.demo === true,
    minBalance: hot.minBalance,
    maxOutputs: signing ? (wallet.maxOutputs ?? null) : null,
    feeCoin: signing && wallet.feeCoin && wallet.feeCoin !== coin ? wallet.feeCoin : null,
  };
}

/**
 * The balance; for a pool-signed wallet also what a full transaction may cost (feeEstimate of its
 * maxOutputs, the figure the payout run budgets with: jobs/payouts/) and, for a token, the fee
 * coin's balance. All or nothing: a reading is one instant's figures.
 */
async function readWallet(identity: WalletIdentity, wallet: ReadableWallet, at: Date): Promise<WalletReading> {
  if (identity.maxOutputs === null)
    return { balance: await wallet.balance(), feePerTransaction: null, feeBalance: null, at };
  if (!wallet.feeEstimate || (identity.feeCoin !== null && !wallet.feeBalance)) {
    throw new Error(`the ${identity.coin} wallet is pool-signed but cannot tell its fees`);
  }
  const [balance, feePerTransaction, feeBalance] = await Promise.all([
    wallet.balance(),
    wallet.feeEstimate(identity.maxOutputs),
    identity.feeCoin === null ? null : wallet.feeBalance?.(),
  ]);
  return { balance, feePerTransaction, feeBalance: feeBalance ?? null, at };
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export interface SnapshotResult {
  read: string[];
  failed: string[];
}

/**
 * Reads every wallet (at once, each within `timeoutMs`) and writes its snapshot: a good read its
 * figures and time, a failed one its error, keeping the last good figures. Snapshots of coins without
 * a wallet are removed. Never throws for one wallet; the caller sees which failed.
 */
export async function snapshotWallets(
  db: Kysely<DB>,
  wallets: ReadonlyMap<string, SnapshotHotWallet>,
  now: Date,
  log: Log,
  timeoutMs = WALLET_READ_TIMEOUT_MS,
): Promise<SnapshotResult> {
  const result: SnapshotResult = { read: [], failed: [] };
  await Promise.all(
    [...wallets].map(async ([coin, hot]) => {
      const identity = walletIdentity(coin, hot);
      try {
        const reading = await withTimeout(
          readWallet(identity, hot.wallet, now),
          timeoutMs,
          `reading the ${coin} wallet`,
        );
        await saveWalletReading(db, identity, reading);
        result.read.push(coin);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.warn(
          { coin, err: error, alert: 'wallet-read-failed' },
          'hot wallet could not be read; its last good figures are kept',
        );
        await saveWalletReadError(db, identity, message, now);
        result.failed.push(coin);
      }
    }),
  );
  await removeWalletSnapshotsExcept(db, [...wallets.keys()]);
  return result;
}

export interface WalletSnapshotJobOptions {
  config: Pick<Config, 'coins' | 'wallets'>;
  /** The process's hot wallets (walletsOnce), shared with the payout run. */
  hotWallets?: WalletsProvider;
  /** Tests: these wallets instead of the ones the configuration describes. */
  wallets?: ReadonlyMap<string, SnapshotHotWallet>;
  timeoutMs?: number;
}

/**
 * Every minute and once at start. Singleton: one jobs process reads the wallets. A run whose reads
 * all failed counts as a failed run (the scheduler logs it); single failures are warnings.
 */
export function walletSnapshotJob(options: WalletSnapshotJobOptions): JobDefinition {
  const fixed = options.wallets;
  const hotWallets = options.hotWallets ?? walletsOnce(options.config);
  return {
    name: 'wallet-snapshots',
    everyMs: 60_000,
    offsetMs: 30_000,
    runOnStart: true,
    singleton: true,
    async run({ database, log, now }) {
      const ready: ReadonlyMap<string, SnapshotHotWallet> = fixed ?? (await hotWallets(database.db, log));
      const result = await snapshotWallets(database.db, ready, now, log, options.timeoutMs);
      if (result.read.length === 0 && result.failed.length > 0) {
        throw new Error(`no hot wallet could be read (${result.failed.join(', ')})`);
      }
    },
  };
}
