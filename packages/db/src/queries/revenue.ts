import type { Executor, PayoutStatus } from '../schema.js';

/**
 * Reads of the dashboard's Revenue tab (docs/dashboard.md, "Revenue API") that the ledger and payout
 * modules do not already offer: one account's payout items. Earnings come from earnings.ts
 * (dailyEarnings, lifetimeEarnings), balances from ledger.ts (balancesOfAccount) and the daily
 * hashrate from the worker rollups (mining.ts, accountDifficultyByDay).
 */

export interface AccountPayoutRow {
  payoutId: bigint;
  coin: string;
  status: PayoutStatus;
  txid: string | null;
  demo: boolean;
  /** When the payout was written (balances debited): the payout's date for the miner. */
  createdAt: Date;
  address: string;
  /** Smallest units this account was paid to this address in this payout. */
  amount: bigint;
}

/**
 * One account's payout items (one row per payout and address), newest first (or oldest first),
 * addresses in order within a payout. Failed payouts sent
 * nothing (their coins were given back) and are left out; pending and sending ones are listed, since
 * the balance has already left. `from`/`to` bound the payout's creation time (to exclusive).
 * The (account_id, payout_id) index finds the account's items; the payouts are joined by key.
 */
export async function accountPayoutRows(
  db: Executor,
  accountId: bigint,
  options: { from?: Date; to?: Date; limit?: number; oldestFirst?: boolean } = {},
): Promise<AccountPayoutRow[]> {
  const direction = options.oldestFirst ? 'asc' : 'desc';
  let query = db
    .selectFrom('payout_items as i')
    .innerJoin('payouts as p', 'p.id', 'i.payout_id')
    .select(['p.id', 'p.coin', 'p.status', 'p.txid', 'p.demo', 'p.created_at', 'i.address', 'i.amount'])
    .where('i.account_id', '=', accountId)
    .where('p.status', '<>', 'failed')
    .orderBy('p.created_at', direction)
    .orderBy('p.id', direction)
    .orderBy('i.address');
  if (options.from) query = query.where('p.created_at', '>=', options.from);
  if (options.to) query = query.where('p.created_at', '<', options.to);
  if (options.limit !== undefined) query = query.limit(options.limit);
  const rows = await query.execute();
  return rows.map((r) => ({
    payoutId: r.id,
    coin: r.coin,
    status: r.status,
    txid: r.txid,
    demo: r.demo,
    createdAt: r.created_at,
    address: r.address,
    amount: BigInt(r.amount),
  }));
}
