import { RPC_METHOD_NOT_FOUND, RpcError } from '@lodestone/chain';
import {
  type DB,
  type FeeDayReading,
  insertFeeDay,
  type NetworkBlock,
  networkBlockHashes,
  networkBlocksBetween,
  saveNetworkBlocks,
} from '@lodestone/db';
import { FEE_DAY_MS, feeDay } from '@lodestone/domain';
import type { Kysely } from 'kysely';
import type { NetworkFeeReader } from '../chains/chain.js';
import type { JobDefinition, Log } from './types.js';

/*
 * The network's fees for FPPS (docs/money.md, "FPPS"): every ten minutes, for each coin set to FPPS,
 * the blocks its node added since the last run are read with their fees (getblockstats), kept for 48
 * hours, and the day's blocks summed into a fee-day reading that accounting values shares with. A node
 * that cannot report fees gets a reading that says so, and the coin is valued by PPS meanwhile.
 */

export const NETWORK_FEES_EVERY_MS = 10 * 60_000;

/** Blocks are kept two days: the day being summed and the one before it, for questions about credits. */
const KEEP_MS = 2 * FEE_DAY_MS;

/**
 * How far before the day the walk down the chain goes: a block's timestamp may run up to two hours
 * ahead of the clock (Bitcoin's rule), so an older-stamped block can stand above one of the day.
 */
const TIMESTAMP_SLACK_MS = 2 * 60 * 60_000;

/** The most blocks one run reads from a node: a one-minute chain's two days, with room. */
export const MAX_BLOCKS_PER_RUN = 5_000;

/** A coin set to FPPS and how to read its network's fees. */
export interface FeeCoin {
  ticker: string;
  reader: NetworkFeeReader;
}

/**
 * Brings the coin's stored blocks up to its node's tip and sums the day to `now`. Only the blocks
 * above the newest stored one with the same hash are read (a reorganisation is read again down to
 * where the chains agree), and they are written in one transaction, so the stored blocks are always
 * one unbroken stretch of the chain. Throws when the node cannot be read; returns an `unavailable`
 * reading when it answers but cannot report fees, or no block is stamped in the day.
 */
export async function readFeeDay(db: Kysely<DB>, coin: FeeCoin, now: Date): Promise<FeeDayReading> {
  const from = new Date(now.getTime() - FEE_DAY_MS);
  const reading = { coin: coin.ticker, computedAt: now, from, to: now };
  let tip: number;
  const fresh: NetworkBlock[] = [];
  try {
    tip = await coin.reader.tipHeight();
    const stored = await networkBlockHashes(db, coin.ticker, Math.max(0, tip - MAX_BLOCKS_PER_RUN));
    const walkTo = from.getTime() - TIMESTAMP_SLACK_MS;
    // Down to height 1: the genesis block pays no fees, and nodes keep no undo data to say so.
    for (let height = tip; height >= 1 && fresh.length < MAX_BLOCKS_PER_RUN; height -= 1) {
      const block = await coin.reader.block(height);
      if (stored.get(height) === block.hash) break;
      fresh.push(block);
      if (block.time.getTime() < walkTo) break;
    }
  } catch (error) {
    if (error instanceof RpcError && error.kind === 'rpc' && error.rpcCode === RPC_METHOD_NOT_FOUND) {
      return { ...reading, unavailable: `${coin.ticker}'s node has no getblockstats, so it cannot report fees` };
    }
    throw error;
  }
  await db
    .transaction()
    .execute((trx) => saveNetworkBlocks(trx, coin.ticker, tip, fresh, new Date(now.getTime() - KEEP_MS)));
  const day = feeDay(await networkBlocksBetween(db, coin.ticker, from, now), now);
  return day
    ? { ...reading, day }
    : { ...reading, unavailable: 'no block of the network is stamped in the last 24 hours' };
}

export interface NetworkFeesJobOptions {
  /** The coins set to FPPS, each with its node reader; made on the first run and kept. */
  coins: () => readonly FeeCoin[];
  everyMs?: number;
}

/**
 * The `network-fees` job: one reading per FPPS coin and run. A node that cannot be read is logged and
 * leaves no reading (the last one serves until it is an hour old); a reading that says fees are
 * unavailable is written and logged as a warning when the reason is new.
 */
export function networkFeesJob(options: NetworkFeesJobOptions): JobDefinition {
  let coins: readonly FeeCoin[] | undefined;
  let readings: ((coin: string, reason: string | undefined) => void) | undefined;
  return {
    name: 'network-fees',
    everyMs: options.everyMs ?? NETWORK_FEES_EVERY_MS,
    offsetMs: 30_000,
    runOnStart: true,
    singleton: true,
    async run({ database, log, now, signal }) {
      coins ??= options.coins();
      readings ??= reasonChanges(log, {
        fallback: (coin, reason) => `${coin}: FPPS falls back to PPS: ${reason}`,
        recovered: (coin) => `${coin}: the network's fees are known again`,
      });
      for (const coin of coins) {
        if (signal.aborted) return;
        await readAndRecord(database.db, coin, now, log, readings);
      }
    },
  };
}

async function readAndRecord(
  db: Kysely<DB>,
  coin: FeeCoin,
  now: Date,
  log: Log,
  told: (coin: string, reason: string | undefined) => void,
): Promise<void> {
  let reading: FeeDayReading;
  try {
    reading = await readFeeDay(db, coin, now);
  } catch (error) {
    log.error({ err: error, coin: coin.ticker }, `${coin.ticker}: the network's fees could not be read`);
    return;
  }
  await insertFeeDay(db, reading);
  told(coin.ticker, 'unavailable' in reading ? reading.unavailable : undefined);
}

/**
 * What accounting tells of FPPS valuations (CreditSettings.onFppsValuation), logged when it changes:
 * a warning when a coin set to FPPS starts being valued by PPS or for another reason, a line when FPPS
 * holds again — not one line per 5-second batch.
 */
export function fppsValuationLog(log: Log): (coin: string, fallback: string | undefined) => void {
  return reasonChanges(log, {
    fallback: (coin, reason) => `${coin}: shares are valued by PPS, not FPPS: ${reason}`,
    recovered: (coin) => `${coin}: shares are valued by FPPS again`,
  });
}

/**
 * Told a coin's reason for falling back to PPS (undefined: none) each time, logs only the changes: a
 * warning for a new reason, a line when a coin that had one has none again.
 */
function reasonChanges(
  log: Log,
  say: { fallback: (coin: string, reason: string) => string; recovered: (coin: string) => string },
): (coin: string, reason: string | undefined) => void {
  const last = new Map<string, string | undefined>();
  return (coin, reason) => {
    if (last.has(coin) && last.get(coin) === reason) return;
    if (reason) log.warn({ coin, reason }, say.fallback(coin, reason));
    else if (last.get(coin) !== undefined) log.info({ coin }, say.recovered(coin));
    last.set(coin, reason);
  };
}
