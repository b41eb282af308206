import type { CandidateAddress, PayoutCandidate } from '@lodestone/domain';
import type { Transaction } from 'kysely';
import type { Block, DB, Executor, Payout, PayoutStatus } from '../schema.js';
import { ledgerAccountIds, postLedgerTransaction } from './ledger.js';

/**
 * Payouts (docs/money.md, "Payouts"): one payout is one wallet transaction paying one or more accounts
 * in one coin. Its life: `pending` (balances debited, no wallet call yet) → `sending` (the wallet may
 * have been called) → `sent` (txid recorded), or → `failed` (nothing was sent; balances restored by a
 * reversal ledger transaction). Every transition is guarded by the status it leaves, so two runs that
 * race on one payout cannot both move it: the loser's update matches no row.
 */

/** Runs `work` in the caller's transaction, or in a new one when given the database itself. */
export function inTransaction<T>(db: Executor, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<DB>) : db.transaction().execute(work);
}

/**
 * Accounts with payout settings for `coin` and a positive balance of it, with what decides whether
 * they are due (threshold, interval, pause, last payout) — the decision itself is planPayouts'.
 * Failed payouts do not count as a last payout: their coins came back, so they never happened.
 */
export async function payoutCandidates(db: Executor, coin: string): Promise<PayoutCandidate[]> {
  const rows = await db
    .selectFrom('payout_settings as ps')
    .innerJoin('ledger_accounts as la', 'la.account_id', 'ps.account_id')
    .innerJoin('balances as b', (join) => join.onRef('b.ledger_account_id', '=', 'la.id').on('b.coin', '=', coin))
    .select((eb) => [
      'ps.account_id',
      'ps.threshold',
      'ps.interval_hours',
      'ps.paused_until',
      'b.amount',
      eb
        .selectFrom('payout_items as pi')
        .innerJoin('payouts as p', 'p.id', 'pi.payout_id')
        .whereRef('pi.account_id', '=', 'ps.account_id')
        .where('p.coin', '=', coin)
        .where('p.status', 'in', ['pending', 'sending', 'sent'])
        .select((e) => e.fn.max('p.created_at').as('at'))
        .as('last_payout_at'),
    ])
    .where('ps.ticker', '=', coin)
    .where('b.amount', '>', '0')
    .orderBy('ps.account_id')
    .execute();
  if (rows.length === 0) return [];
  const addresses = await db
    .selectFrom('payout_addresses')
    .select(['account_id', 'position', 'address', 'proportion'])
    .where('ticker', '=', coin)
    .where(
      'account_id',
      'in',
      rows.map((r) => r.account_id),
    )
    .orderBy('account_id')
    .orderBy('position')
    .execute();
  const byAccount = new Map<bigint, CandidateAddress[]>();
  for (const a of addresses) {
    const list = byAccount.get(a.account_id) ?? [];
    list.push({ position: a.position, address: a.address, proportion: a.proportion });
    byAccount.set(a.account_id, list);
  }
  return rows.map((r) => ({
    accountId: r.account_id,
    balance: BigInt(r.amount),
    threshold: r.threshold,
    intervalHours: r.interval_hours,
    pausedUntil: r.paused_until,
    lastPayoutAt: r.last_payout_at ?? null,
    addresses: byAccount.get(r.account_id) ?? [],
  }));
}

export interface NewPayoutItem {
  address: string;
  /** Smallest units, > 0. */
  amount: bigint;
}

export interface NewPayoutAccount {
  accountId: bigint;
  /** Smallest units to debit: the sum of the items. */
  amount: bigint;
  /** At most one per address. */
  items: readonly NewPayoutItem[];
}

export interface NewPayout {
  /** `payout:{coin}:{uuid}`: also the payout ledger transaction's key and the wallet comment. */
  key: string;
  coin: string;
  demo: boolean;
  createdAt: Date;
  accounts: readonly NewPayoutAccount[];
}

export interface PayoutItem {
  accountId: bigint;
  address: string;
  amount: bigint;
}

export interface CreatedPayout {
  payout: Payout;
  items: PayoutItem[];
  /** Accounts left out because their balance no longer covered the planned amount. */
  dropped: bigint[];
}

/**
 * Writes a payout as `pending` and debits the accounts it pays, all in one transaction: each balance
 * is locked (in ledger-account order, the order every ledger writer uses, so this cannot deadlock
 * with accounting) and re-checked; an account whose balance fell below its planned amount since the
 * plan was made (a concurrent payout or conversion took it) is dropped. Then the payout row, its items
 * and ONE ledger transaction (kind 'payout', key = the payout's key): each account −amount, pool:payouts
 * +total. Returns undefined, having written nothing, when no account is left.
 */
export function createPayout(db: Executor, payout: NewPayout): Promise<CreatedPayout | undefined> {
  return inTransaction(db, async (trx) => {
    const balances = await lockBalances(
      trx,
      payout.accounts.map((a) => a.accountId),
      payout.coin,
    );
    const dropped: bigint[] = [];
    const kept: NewPayoutAccount[] = [];
    for (const account of payout.accounts) {
      const itemsSum = account.items.reduce((sum, i) => sum + i.amount, 0n);
      if (itemsSum !== account.amount || account.items.some((i) => i.amount <= 0n)) {
        throw new RangeError(`payout ${payout.key}: the items of account ${account.accountId} do not add up`);
      }
      if (account.amount > 0n && (balances.get(account.accountId) ?? 0n) >= account.amount) kept.push(account);
      else dropped.push(account.accountId);
    }
    if (kept.length === 0) return undefined;
    const total = kept.reduce((sum, a) => sum + a.amount, 0n);
    const row = await trx
      .insertInto('payouts')
      .values({
        idempotency_key: payout.key,
        coin: payout.coin,
        status: 'pending',
        total: total.toString(),
        demo: payout.demo,
        created_at: payout.createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const items = kept.flatMap((a) =>
      a.items.map((i) => ({ accountId: a.accountId, address: i.address, amount: i.amount })),
    );
    await trx
      .insertInto('payout_items')
      .values(
        items.map((i) => ({
          payout_id: row.id,
          account_id: i.accountId,
          address: i.address,
          amount: i.amount.toString(),
        })),
      )
      .execute();
    const posted = await postLedgerTransaction(trx, {
      key: payout.key,
      kind: 'payout',
      reference: row.id.toString(),
      legs: [
        ...kept.map((a) => ({
          account: { accountId: a.accountId },
          coin: payout.coin,
          amount: -a.amount,
          kind: 'payout' as const,
        })),
        { account: { system: 'pool:payouts' }, coin: payout.coin, amount: total, kind: 'payout' },
      ],
    });
    // The key is new (the payouts row above would have failed on a reused one), so this cannot happen
    // unless something else posted a ledger transaction with a payout's key.
    if (!posted.posted) throw new Error(`ledger transaction ${payout.key} already exists`);
    return { payout: row, items, dropped };
  });
}

/**
 * The balances of mining accounts in one coin, locked until the end of the transaction, in
 * ledger-account order (0n for accounts with no balance row).
 */
async function lockBalances(trx: Executor, accountIds: readonly bigint[], coin: string): Promise<Map<bigint, bigint>> {
  const out = new Map<bigint, bigint>();
  if (accountIds.length === 0) return out;
  const ids = await ledgerAccountIds(
    trx,
    accountIds.map((accountId) => ({ accountId })),
  );
  const accountOf = new Map<bigint, bigint>();
  for (const accountId of accountIds) {
    const ledgerId = ids.get(`a:${accountId}`);
    if (ledgerId !== undefined) accountOf.set(ledgerId, accountId);
  }
  // ORDER BY below FOR UPDATE: PostgreSQL locks the rows in the sorted order.
  const rows = await trx
    .selectFrom('balances')
    .select(['ledger_account_id', 'amount'])
    .where('ledger_account_id', 'in', [...accountOf.keys()])
    .where('coin', '=', coin)
    .orderBy('ledger_account_id')
    .forUpdate()
    .execute();
  for (const r of rows) {
    const accountId = accountOf.get(r.ledger_account_id);
    if (accountId !== undefined) out.set(accountId, BigInt(r.amount));
  }
  return out;
}

/** A payout by id. */
export function payoutById(db: Executor, id: bigint): Promise<Payout | undefined> {
  return db.selectFrom('payouts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The items of a payout, by account then address. */
export async function payoutItems(db: Executor, payoutId: bigint): Promise<PayoutItem[]> {
  const rows = await db
    .selectFrom('payout_items')
    .select(['account_id', 'address', 'amount'])
    .where('payout_id', '=', payoutId)
    .orderBy('account_id')
    .orderBy('address')
    .execute();
  return rows.map((r) => ({ accountId: r.account_id, address: r.address, amount: BigInt(r.amount) }));
}

/** Payouts still `pending` or `sending` (of one coin, or all), oldest first: what reconciliation finishes. */
export function openPayouts(db: Executor, coin?: string): Promise<Payout[]> {
  let query = db.selectFrom('payouts').selectAll().where('status', 'in', ['pending', 'sending']);
  if (coin !== undefined) query = query.where('coin', '=', coin);
  return query.orderBy('id').execute();
}

/**
 * pending → sending, just before the wallet call. False when the payout was not pending (another run
 * took it): the caller must then not call the wallet. Commit this before calling the wallet, so a
 * crash during the call leaves a payout that reconciliation looks up instead of resending.
 */
export async function markPayoutSending(db: Executor, id: bigint, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('payouts')
    .set({ status: 'sending', sending_at: at })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** sending → sent with the wallet's transaction. False when the payout was not `sending`. */
export async function markPayoutSent(
  db: Executor,
  id: bigint,
  sent: { txid: string; fee: bigint | null; at: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('payouts')
    .set({ status: 'sent', txid: sent.txid, fee: sent.fee === null ? null : sent.fee.toString(), sent_at: sent.at })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The idempotency key of the ledger transaction that reverses a failed payout. */
export function payoutReversalKey(payoutKey: string): string {
  return `reversal:${payoutKey}`;
}

/**
 * pending/sending → failed, and the balances restored, in one transaction: the payout's status with
 * the reason, and ONE ledger transaction (kind 'payout_reversal', key `reversal:{payout key}`): each
 * account +its items, pool:payouts −total. Call it only when nothing can have been sent. False (and
 * nothing written) when the payout was neither pending nor sending.
 */
export function failPayout(db: Executor, id: bigint, reason: string, at: Date): Promise<boolean> {
  return failWithReversal(db, id, reason, at, ['pending', 'sending']);
}

/**
 * sent → failed, and the balances restored, as failPayout: for a pool-signed payout whose transaction
 * the chain proved moved nothing (an EVM revert, a failed Pact command) or can never be mined. Its
 * transactions stay in payout_transactions; the payout's txid is cleared (a failed payout has none).
 */
export function failSentPayout(db: Executor, id: bigint, reason: string, at: Date): Promise<boolean> {
  return failWithReversal(db, id, reason, at, ['sent']);
}

function failWithReversal(
  db: Executor,
  id: bigint,
  reason: string,
  at: Date,
  from: readonly PayoutStatus[],
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .updateTable('payouts')
      .set({ status: 'failed', error: reason, failed_at: at, txid: null })
      .where('id', '=', id)
      .where('status', 'in', from)
      .returning(['idempotency_key', 'coin', 'total'])
      .executeTakeFirst();
    if (!row) return false;
    const perAccount = new Map<bigint, bigint>();
    for (const item of await payoutItems(trx, id)) {
      perAccount.set(item.accountId, (perAccount.get(item.accountId) ?? 0n) + item.amount);
    }
    await postLedgerTransaction(trx, {
      key: payoutReversalKey(row.idempotency_key),
      kind: 'payout_reversal',
      reference: id.toString(),
      reason,
      legs: [
        ...[...perAccount].map(([accountId, amount]) => ({
          account: { accountId },
          coin: row.coin,
          amount,
          kind: 'payout_reversal' as const,
        })),
        { account: { system: 'pool:payouts' }, coin: row.coin, amount: -BigInt(row.total), kind: 'payout_reversal' },
      ],
    });
    return true;
  });
}

// The demo network's wallet (demo_wallet_transactions): what it "sent". Never a real transaction.

export interface DemoWalletTransaction {
  txid: string;
  coin: string;
  comment: string;
  outputs: { address: string; amount: bigint }[];
  total: bigint;
  createdAt: Date;
}

type DemoRow = {
  txid: string;
  coin: string;
  comment: string;
  outputs: unknown;
  total: string;
  created_at: Date;
};

function demoTransaction(row: DemoRow): DemoWalletTransaction {
  // Amounts are stored as decimal strings: JSON numbers could not hold every bigint.
  const outputs = (row.outputs as { address: string; amount: string }[]).map((o) => ({
    address: o.address,
    amount: BigInt(o.amount),
  }));
  return {
    txid: row.txid,
    coin: row.coin,
    comment: row.comment,
    outputs,
    total: BigInt(row.total),
    createdAt: row.created_at,
  };
}

/** Records a demo wallet transaction (one statement: it is there or not, never half). */
export async function insertDemoWalletTransaction(
  db: Executor,
  tx: {
    txid: string;
    coin: string;
    comment: string;
    outputs: readonly { address: string; amount: bigint }[];
    createdAt?: Date;
  },
): Promise<DemoWalletTransaction> {
  const total = tx.outputs.reduce((sum, o) => sum + o.amount, 0n);
  const row = await db
    .insertInto('demo_wallet_transactions')
    .values({
      txid: tx.txid,
      coin: tx.coin,
      comment: tx.comment,
      outputs: JSON.stringify(tx.outputs.map((o) => ({ address: o.address, amount: o.amount.toString() }))),
      total: total.toString(),
      ...(tx.createdAt ? { created_at: tx.createdAt } : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return demoTransaction(row);
}

/** The demo wallet transactions of a coin with this comment, oldest first. */
export async function demoWalletTransactionsByComment(
  db: Executor,
  coin: string,
  comment: string,
): Promise<DemoWalletTransaction[]> {
  const rows = await db
    .selectFrom('demo_wallet_transactions')
    .selectAll()
    .where('coin', '=', coin)
    .where('comment', '=', comment)
    .orderBy('created_at')
    .orderBy('txid')
    .execute();
  return rows.map(demoTransaction);
}

/** One demo wallet transaction of a coin by txid. */
export async function demoWalletTransaction(
  db: Executor,
  coin: string,
  txid: string,
): Promise<DemoWalletTransaction | undefined> {
  const row = await db
    .selectFrom('demo_wallet_transactions')
    .selectAll()
    .where('coin', '=', coin)
    .where('txid', '=', txid)
    .executeTakeFirst();
  return row ? demoTransaction(row) : undefined;
}

// Found blocks to maturity (docs/money.md, "Found blocks"). Kept beside payouts because both move the
// pool's own money: a matured block is revenue on pool:blocks, as a payout is a cost on pool:payouts.

/** Blocks still waiting for maturity, oldest first. */
export function pendingBlocks(db: Executor): Promise<Block[]> {
  return db
    .selectFrom('blocks')
    .selectAll()
    .where('status', '=', 'pending')
    .orderBy('found_at')
    .orderBy('id')
    .execute();
}

/** Records how deep a pending block is. False when the block is no longer pending. */
export async function setBlockConfirmations(
  db: Executor,
  id: string,
  confirmations: number,
  /** Confirmations it needs to mature; null where its chain decides by its own rule. */
  required: number | null = null,
): Promise<boolean> {
  const result = await db
    .updateTable('blocks')
    .set({ confirmations, confirmations_required: required })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The idempotency key of a block's reward ledger transaction. */
export function blockRewardKey(hash: string): string {
  return `block:${hash}`;
}

/**
 * pending → confirmed (matured), and, when `reward` is set, ONE ledger transaction in the same database
 * transaction (kind 'block_reward', key `block:{hash}`): pool:blocks +reward, pool:chain −reward in
 * the block's coin. `actualReward`, when the chain said what the block paid (CKB's economic state, a
 * Kaspa coinbase output), replaces the reward recorded when it was found. False, with nothing written,
 * when the block was not pending.
 */
export function confirmBlock(
  db: Executor,
  block: Pick<Block, 'id' | 'hash' | 'coin'>,
  settle: { confirmations: number; at: Date; reward?: bigint; actualReward?: bigint; reason?: string },
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable('blocks')
      .set({
        status: 'confirmed',
        confirmations: settle.confirmations,
        settled_at: settle.at,
        ...(settle.actualReward !== undefined && { reward: settle.actualReward.toString() }),
      })
      .where('id', '=', block.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    if (settle.reward !== undefined && settle.reward > 0n) {
      await postLedgerTransaction(trx, {
        key: blockRewardKey(block.hash),
        kind: 'block_reward',
        reference: block.hash,
        reason: settle.reason ?? null,
        legs: [
          { account: { system: 'pool:blocks' }, coin: block.coin, amount: settle.reward, kind: 'block_reward' },
          { account: { system: 'pool:chain' }, coin: block.coin, amount: -settle.reward, kind: 'block_reward' },
        ],
      });
    }
    return true;
  });
}

/** pending → orphaned (off the best chain; its reward never comes). False when it was not pending. */
export async function orphanBlock(db: Executor, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('blocks')
    .set({ status: 'orphaned', confirmations: 0, settled_at: at })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
