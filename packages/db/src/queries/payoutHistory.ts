import { sql } from 'kysely';
import type { Executor, PayoutStatus } from '../schema.js';

export interface PublicPayoutRow {
  id: bigint;
  coin: string;
  status: PayoutStatus;
  /** Smallest units paid to miners. */
  total: bigint;
  txid: string | null;
  demo: boolean;
  createdAt: Date;
}

/**
 * The pool's newest payouts (one per wallet transaction), newest first. Failed payouts sent nothing
 * and are left out; pending and sending ones are listed (their balances are already debited).
 */
export async function latestPoolPayouts(db: Executor, limit: number): Promise<PublicPayoutRow[]> {
  const rows = await db
    .selectFrom('payouts')
    .select(['id', 'coin', 'status', 'total', 'txid', 'demo', 'created_at'])
    .where('status', '<>', 'failed')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    coin: r.coin,
    status: r.status,
    total: BigInt(r.total),
    txid: r.txid,
    demo: r.demo,
    createdAt: r.created_at,
  }));
}

export interface PayoutTotals {
  coin: string;
  /** Smallest units paid since `day`, since `month` and ever. */
  day: bigint;
  month: bigint;
  allTime: bigint;
}

/** Smallest units paid out per coin (failed payouts excluded), over three windows in one scan. */
export async function poolPayoutTotals(db: Executor, since: { day: Date; month: Date }): Promise<PayoutTotals[]> {
  const rows = await sql<{ coin: string; day: string; month: string; all_time: string }>`
    select coin,
           coalesce(sum(total) filter (where created_at >= ${since.day}), 0)::text as day,
           coalesce(sum(total) filter (where created_at >= ${since.month}), 0)::text as month,
           sum(total)::text as all_time
      from payouts
     where status <> 'failed'
     group by coin
  `.execute(db);
  return rows.rows.map((r) => ({
    coin: r.coin,
    day: BigInt(r.day),
    month: BigInt(r.month),
    allTime: BigInt(r.all_time),
  }));
}
