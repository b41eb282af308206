import { Exact, type FeeDay, feeShare, type NetworkBlockFees, type PayoutScheme } from '@lodestone/domain';
import type { Executor } from '../schema.js';

/*
 * FPPS's inputs (docs/money.md, "FPPS"): the blocks of each FPPS coin's recent days as its node
 * reported them, the fee days the job sums from them, and what every PPS credit valued a block at.
 */

/** A block as getblockstats reports it, kept for the coin's fee days. */
export interface NetworkBlock extends NetworkBlockFees {
  hash: string;
  subsidy: bigint;
}

/** The hashes of the coin's stored blocks from `fromHeight` up, by height. */
export async function networkBlockHashes(db: Executor, coin: string, fromHeight: number): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('network_block_fees')
    .select(['height', 'hash'])
    .where('coin', '=', coin)
    .where('height', '>=', BigInt(fromHeight))
    .execute();
  return new Map(rows.map((r) => [Number(r.height), r.hash]));
}

/**
 * Brings the coin's stored blocks to the node's chain with tip `tipHeight`: drops those above the
 * tip (the chain got shorter), writes `blocks` over whatever the heights held (a reorganisation), and
 * deletes those stamped before `keepFrom`. One call is one transaction's worth of change: run it in one.
 */
export async function saveNetworkBlocks(
  trx: Executor,
  coin: string,
  tipHeight: number,
  blocks: readonly NetworkBlock[],
  keepFrom: Date,
): Promise<void> {
  await trx.deleteFrom('network_block_fees').where('coin', '=', coin).where('height', '>', BigInt(tipHeight)).execute();
  if (blocks.length > 0) {
    await trx
      .insertInto('network_block_fees')
      .values(
        blocks.map((b) => ({
          coin,
          height: b.height,
          hash: b.hash,
          time: b.time,
          subsidy: b.subsidy,
          total_fees: b.totalFees,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['coin', 'height']).doUpdateSet((eb) => ({
          hash: eb.ref('excluded.hash'),
          time: eb.ref('excluded.time'),
          subsidy: eb.ref('excluded.subsidy'),
          total_fees: eb.ref('excluded.total_fees'),
        })),
      )
      .execute();
  }
  await trx.deleteFrom('network_block_fees').where('coin', '=', coin).where('time', '<', keepFrom).execute();
}

/** The coin's stored blocks stamped in (from, to]. */
export async function networkBlocksBetween(db: Executor, coin: string, from: Date, to: Date): Promise<NetworkBlock[]> {
  const rows = await db
    .selectFrom('network_block_fees')
    .selectAll()
    .where('coin', '=', coin)
    .where('time', '>', from)
    .where('time', '<=', to)
    .orderBy('height')
    .execute();
  return rows.map((r) => ({
    height: Number(r.height),
    hash: r.hash,
    time: r.time,
    subsidy: BigInt(r.subsidy),
    totalFees: BigInt(r.total_fees),
  }));
}

/** A reading of a coin's fee day: its figures, or why its node could not give them. */
export type FeeDayReading = { coin: string; computedAt: Date; from: Date; to: Date } & (
  | { day: FeeDay }
  | { unavailable: string }
);

/** Records a reading; returns its id. */
export async function insertFeeDay(db: Executor, reading: FeeDayReading): Promise<bigint> {
  const figures =
    'day' in reading
      ? {
          blocks: reading.day.blocks,
          first_height: reading.day.firstHeight,
          last_height: reading.day.lastHeight,
          total_fees: reading.day.totalFees,
          unavailable: null,
        }
      : { blocks: null, first_height: null, last_height: null, total_fees: null, unavailable: reading.unavailable };
  const row = await db
    .insertInto('network_fee_days')
    .values({
      coin: reading.coin,
      computed_at: reading.computedAt,
      day_from: reading.from,
      day_to: reading.to,
      ...figures,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A stored reading, as accounting and the website use it. */
export type StoredFeeDay = { id: bigint; coin: string; computedAt: Date; from: Date; to: Date } & (
  | { day: Pick<FeeDay, 'blocks' | 'firstHeight' | 'lastHeight' | 'totalFees'>; unavailable?: undefined }
  | { day?: undefined; unavailable: string }
);

/** The coin's newest reading computed at or after `since`; undefined when there is none. */
export async function newestFeeDay(db: Executor, coin: string, since: Date): Promise<StoredFeeDay | undefined> {
  const r = await db
    .selectFrom('network_fee_days')
    .selectAll()
    .where('coin', '=', coin)
    .where('computed_at', '>=', since)
    .orderBy('computed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!r) return undefined;
  const base = { id: r.id, coin: r.coin, computedAt: r.computed_at, from: r.day_from, to: r.day_to };
  if (r.unavailable !== null) return { ...base, unavailable: r.unavailable };
  return {
    ...base,
    day: {
      blocks: r.blocks ?? 0,
      firstHeight: Number(r.first_height),
      lastHeight: Number(r.last_height),
      totalFees: BigInt(r.total_fees ?? 0),
    },
  };
}

/** What one PPS credit valued a block at (migration 0030). */
export interface PpsValuation {
  creditId: string;
  coin: string;
  scheme: PayoutScheme;
  /** Smallest units, exact decimal text. */
  blockValue: string;
  blockFees: string | undefined;
  networkDifficulty: string;
  feeDayId: bigint | undefined;
  fallback: string | undefined;
  valuedAt: Date;
}

/** Records a credit's valuation once: a replayed batch keeps the first. */
export async function saveValuation(db: Executor, v: PpsValuation): Promise<void> {
  await db
    .insertInto('pps_valuations')
    .values({
      credit_id: v.creditId,
      coin: v.coin,
      scheme: v.scheme,
      block_value: v.blockValue,
      block_fees: v.blockFees ?? null,
      network_difficulty: v.networkDifficulty,
      fee_day_id: v.feeDayId ?? null,
      fallback: v.fallback ?? null,
      valued_at: v.valuedAt,
    })
    .onConflict((oc) => oc.column('credit_id').doNothing())
    .execute();
}

/** What the coin's newest credit was valued by, and why not FPPS when it fell back; undefined before any. */
export async function newestValuation(
  db: Executor,
  coin: string,
): Promise<{ scheme: PayoutScheme; fallback: string | null } | undefined> {
  return db
    .selectFrom('pps_valuations')
    .select(['scheme', 'fallback'])
    .where('coin', '=', coin)
    .orderBy('valued_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * The part of a credit's value that was transaction fees (feeShare of its valuation): for a credit that
 * waited for prices. Undefined when its valuation did not know its fees, or there is none (credits from
 * before migration 0030).
 */
export async function valuationFeeShare(db: Executor, creditId: string): Promise<Exact | undefined> {
  const row = await db
    .selectFrom('pps_valuations')
    .select(['block_value', 'block_fees'])
    .where('credit_id', '=', creditId)
    .executeTakeFirst();
  if (!row || row.block_fees === null) return undefined;
  return feeShare({ value: Exact.of(row.block_value), fees: Exact.of(row.block_fees) });
}
