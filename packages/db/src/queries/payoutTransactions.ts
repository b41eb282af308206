import type { Executor, Payout, PayoutTransactionStatus } from '../schema.js';
import { inTransaction } from './payouts.js';

/**
 * The transactions signed for payouts of pool-signed wallets (migration 0010, docs/money.md "Payouts
 * from pool-signed wallets"): stored before they are broadcast, so a crash never leads to a second
 * signature for the same payout.
 */

export interface NewPayoutTransaction {
  txid: string;
  raw: string;
  /** The most it can cost, in units of feeCoin. */
  fee: bigint;
  feeCoin: string;
  spends: readonly string[];
  expiresAt?: Date;
  followFrom?: string;
}

export interface PayoutTransaction extends NewPayoutTransaction {
  id: bigint;
  payoutId: bigint;
  coin: string;
  attempt: number;
  status: PayoutTransactionStatus;
  createdAt: Date;
}

type Row = {
  id: bigint;
  payout_id: bigint;
  coin: string;
  attempt: number;
  txid: string;
  raw: string;
  fee: string;
  fee_coin: string;
  spends: unknown;
  expires_at: Date | null;
  follow_from: string | null;
  status: PayoutTransactionStatus;
  created_at: Date;
};

function fromRow(row: Row): PayoutTransaction {
  return {
    id: row.id,
    payoutId: row.payout_id,
    coin: row.coin,
    attempt: row.attempt,
    txid: row.txid,
    raw: row.raw,
    fee: BigInt(row.fee),
    feeCoin: row.fee_coin,
    spends: row.spends as string[],
    ...(row.expires_at ? { expiresAt: row.expires_at } : {}),
    ...(row.follow_from !== null ? { followFrom: row.follow_from } : {}),
    status: row.status,
    createdAt: row.created_at,
  };
}

function values(payout: Pick<Payout, 'id' | 'coin'>, attempt: number, tx: NewPayoutTransaction, at: Date) {
  return {
    payout_id: payout.id,
    coin: payout.coin,
    attempt,
    txid: tx.txid,
    raw: tx.raw,
    fee: tx.fee.toString(),
    fee_coin: tx.feeCoin,
    spends: JSON.stringify(tx.spends),
    expires_at: tx.expiresAt ?? null,
    follow_from: tx.followFrom ?? null,
    status: 'live' as const,
    created_at: at,
  };
}

/**
 * pending → sending with its first signed transaction, in one database transaction: committed before
 * the transaction is broadcast, so after a crash it is broadcast again rather than signed again. False
 * (nothing written) when the payout was not pending: another run took it.
 */
export function storeFirstTransaction(
  db: Executor,
  payout: Pick<Payout, 'id' | 'coin'>,
  tx: NewPayoutTransaction,
  at: Date,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const moved = await trx
      .updateTable('payouts')
      .set({ status: 'sending', sending_at: at })
      .where('id', '=', payout.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (moved.numUpdatedRows === 0n) return false;
    await trx
      .insertInto('payout_transactions')
      .values(values(payout, 1, tx, at))
      .execute();
    return true;
  });
}

/**
 * A fee replacement of the payout's live transaction (the same nonce): the live one becomes `replaced`
 * (it may still be the one mined) and the new one `live`, as the next attempt. False when the payout
 * has no live transaction any more (another run replaced or settled it).
 */
export function storeReplacement(
  db: Executor,
  payout: Pick<Payout, 'id' | 'coin'>,
  replaced: Pick<PayoutTransaction, 'id'>,
  tx: NewPayoutTransaction,
  at: Date,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const moved = await trx
      .updateTable('payout_transactions')
      .set({ status: 'replaced' })
      .where('id', '=', replaced.id)
      .where('status', '=', 'live')
      .executeTakeFirst();
    if (moved.numUpdatedRows === 0n) return false;
    const last = await trx
      .selectFrom('payout_transactions')
      .select((eb) => eb.fn.max('attempt').as('attempt'))
      .where('payout_id', '=', payout.id)
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('payout_transactions')
      .values(values(payout, Number(last.attempt) + 1, tx, at))
      .execute();
    return true;
  });
}

/** Every transaction signed for a payout, first attempt first. */
export async function payoutTransactions(db: Executor, payoutId: bigint): Promise<PayoutTransaction[]> {
  const rows = await db
    .selectFrom('payout_transactions')
    .selectAll()
    .where('payout_id', '=', payoutId)
    .orderBy('attempt')
    .execute();
  return rows.map(fromRow);
}

/**
 * The coin's transactions that may still be mined and are not final: of payouts `sending`, or `sent`
 * and not yet confirmed. A new transaction must not spend what they spend.
 */
export async function inFlightTransactions(db: Executor, coin: string): Promise<PayoutTransaction[]> {
  const rows = await db
    .selectFrom('payout_transactions as t')
    .innerJoin('payouts as p', 'p.id', 't.payout_id')
    .selectAll('t')
    .where('t.coin', '=', coin)
    .where('t.status', '!=', 'dead')
    .where((eb) =>
      eb.or([eb('p.status', '=', 'sending'), eb.and([eb('p.status', '=', 'sent'), eb('p.confirmed_at', 'is', null)])]),
    )
    .orderBy('t.id')
    .execute();
  return rows.map(fromRow);
}

/** A transaction the chain says can never be mined. */
export async function markTransactionDead(db: Executor, id: bigint): Promise<void> {
  await db.updateTable('payout_transactions').set({ status: 'dead' }).where('id', '=', id).execute();
}

/** Payouts `sent` and not yet confirmed, of one coin, oldest first: what the follow step watches. */
export function unconfirmedPayouts(db: Executor, coin: string): Promise<Payout[]> {
  return db
    .selectFrom('payouts')
    .selectAll()
    .where('coin', '=', coin)
    .where('status', '=', 'sent')
    .where('confirmed_at', 'is', null)
    .orderBy('id')
    .execute();
}

/**
 * What the chain says of a sent payout now: its mined transaction (the txid may move to a replacement),
 * how deep it is, and (`confirmedAt`) that it has reached the wallet's confirmations. `fee` is the fee
 * actually paid, recorded only when it is in the payout's own coin.
 */
export async function followSentPayout(
  db: Executor,
  id: bigint,
  seen: { txid: string; confirmations: number; fee?: bigint; confirmedAt?: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('payouts')
    .set({
      txid: seen.txid,
      confirmations: seen.confirmations,
      ...(seen.fee !== undefined ? { fee: seen.fee.toString() } : {}),
      ...(seen.confirmedAt ? { confirmed_at: seen.confirmedAt } : {}),
    })
    .where('id', '=', id)
    .where('status', '=', 'sent')
    .where('confirmed_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
