import { type AlgorithmKey, Exact } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Executor, LedgerEntryKind, LedgerTransactionKind } from '../schema.js';

/**
 * The pool's own ledger accounts (docs/money.md). Signs: a mining account's balance is what the pool
 * owes it; every ledger transaction sums to zero per coin, so the pool's accounts hold the other side.
 *
 * - pool:pps — minus the gross PPS value credited for shares (what PPS has cost);
 * - pool:fees — plus the pool fee kept (after referral rewards);
 * - pool:payouts — plus what was paid out to miners' addresses;
 * - pool:conversions — the other legs of balance conversions (plus the coin given, minus the coin taken);
 * - pool:blocks — plus the block rewards the pool mined (matured);
 * - pool:chain — minus the same: the coins that came from the chain;
 * - pool:adjustments — the other leg of admin adjustments.
 */
export const SYSTEM_ACCOUNTS = [
  'pool:pps',
  'pool:fees',
  'pool:payouts',
  'pool:conversions',
  'pool:blocks',
  'pool:chain',
  'pool:adjustments',
  'pool:solo',
] as const;
export type SystemAccount = (typeof SYSTEM_ACCOUNTS)[number];

export type LedgerAccountRef = { accountId: bigint } | { system: SystemAccount };

export interface LedgerLeg {
  account: LedgerAccountRef;
  coin: string;
  /** Signed smallest units; zero legs are dropped. */
  amount: bigint;
  kind: LedgerEntryKind;
  algorithm?: AlgorithmKey | null;
  /** Whose shares earned it (referral rewards, redirects). */
  sourceAccountId?: bigint | null;
}

export interface NewLedgerTransaction {
  /** Unique forever: a second post with the same key changes nothing. */
  key: string;
  kind: LedgerTransactionKind;
  reference?: string | null;
  createdByUserId?: bigint | null;
  reason?: string | null;
  legs: readonly LedgerLeg[];
  /**
   * The part of each earning leg that is transaction fees, a fraction from 0 to 1 (a PPS credit's
   * valuation: block fees ÷ block value, docs/money.md "FPPS"); the earnings rollup keeps it beside the
   * amount. Absent: not known, counted as none.
   */
  feeShare?: Exact;
  /** When it happened; default: the database's now(). */
  at?: Date;
}

export class UnbalancedTransactionError extends Error {
  override readonly name = 'UnbalancedTransactionError';
}

const refKey = (ref: LedgerAccountRef) => ('system' in ref ? `s:${ref.system}` : `a:${ref.accountId}`);

/** Ledger account ids for mining accounts and pool accounts, creating the missing ones. */
export async function ledgerAccountIds(db: Executor, refs: readonly LedgerAccountRef[]): Promise<Map<string, bigint>> {
  const accountIds = [...new Set(refs.flatMap((r) => ('accountId' in r ? [r.accountId] : [])))].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  const systemNames = [...new Set(refs.flatMap((r) => ('system' in r ? [r.system] : [])))].sort();
  const out = new Map<string, bigint>();
  for (const [accountId, id] of await ledgerAccountsOwnedBy(db, 'account_id', accountIds)) {
    out.set(refKey({ accountId }), id);
  }
  for (const [system, id] of await ledgerAccountsOwnedBy(db, 'system_name', systemNames)) {
    out.set(refKey({ system }), id);
  }
  return out;
}

/**
 * The ledger accounts of these owners (`column`: the mining account's id or the pool account's name),
 * created where missing, as [owner, ledger account id] pairs.
 */
async function ledgerAccountsOwnedBy<Owner extends bigint | string>(
  db: Executor,
  column: 'account_id' | 'system_name',
  owners: readonly Owner[],
): Promise<[Owner, bigint][]> {
  if (owners.length === 0) return [];
  await db
    .insertInto('ledger_accounts')
    .values(owners.map((owner) => ({ [column]: owner })))
    .onConflict((oc) => oc.column(column).doNothing())
    .execute();
  const rows = await db.selectFrom('ledger_accounts').select(['id', column]).where(column, 'in', owners).execute();
  return rows.map((r) => [r[column] as Owner, r.id]);
}

const CHUNK = 1000;

/**
 * Posts one balanced ledger transaction: its row, its legs and the balance of every account touched,
 * in the caller's database transaction (call it inside one). Returns `{ posted: false }` and writes
 * nothing when the key was posted before (a concurrent post with the same key waits for the first
 * to commit, then finds it). Legs of the same account, coin, kind, algorithm and source are added together.
 *
 * A mining account's balance below zero violates the balances check and aborts the transaction:
 * callers that debit lock and check the balance first (lockBalance) so users get a clear message;
 * the constraint is the backstop.
 */
export async function postLedgerTransaction(
  trx: Executor,
  tx: NewLedgerTransaction,
): Promise<{ posted: boolean; id?: bigint }> {
  const perCoin = new Map<string, bigint>();
  const merged = new Map<string, LedgerLeg>();
  for (const leg of tx.legs) {
    if (leg.amount === 0n) continue;
    perCoin.set(leg.coin, (perCoin.get(leg.coin) ?? 0n) + leg.amount);
    const key = `${refKey(leg.account)}|${leg.coin}|${leg.kind}|${leg.algorithm ?? ''}|${leg.sourceAccountId ?? ''}`;
    const seen = merged.get(key);
    merged.set(key, seen ? { ...seen, amount: seen.amount + leg.amount } : { ...leg });
  }
  for (const [coin, sum] of perCoin) {
    if (sum !== 0n) throw new UnbalancedTransactionError(`ledger transaction ${tx.key} is off by ${sum} in ${coin}`);
  }
  const row = await trx
    .insertInto('ledger_transactions')
    .values({
      idempotency_key: tx.key,
      kind: tx.kind,
      reference: tx.reference ?? null,
      created_by_user_id: tx.createdByUserId ?? null,
      reason: tx.reason ?? null,
      ...(tx.at ? { created_at: tx.at } : {}),
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) return { posted: false };

  const legs = [...merged.values()].filter((l) => l.amount !== 0n);
  const ids = await ledgerAccountIds(
    trx,
    legs.map((l) => l.account),
  );
  const idOf = (ref: LedgerAccountRef) => {
    const id = ids.get(refKey(ref));
    if (id === undefined) throw new Error(`no ledger account for ${refKey(ref)}`);
    return id;
  };
  const entries = legs.map((l) => ({
    transaction_id: row.id,
    ledger_account_id: idOf(l.account),
    coin: l.coin,
    amount: l.amount.toString(),
    kind: l.kind,
    algorithm: l.algorithm ?? null,
    source_account_id: l.sourceAccountId ?? null,
    ...(tx.at ? { created_at: tx.at } : {}),
  }));
  for (let i = 0; i < entries.length; i += CHUNK) {
    await trx
      .insertInto('ledger_entries')
      .values(entries.slice(i, i + CHUNK))
      .execute();
  }

  const deltas = new Map<string, { id: bigint; coin: string; amount: bigint; system: boolean }>();
  for (const l of legs) {
    const id = idOf(l.account);
    const key = `${id}|${l.coin}`;
    const d = deltas.get(key);
    if (d) d.amount += l.amount;
    else deltas.set(key, { id, coin: l.coin, amount: l.amount, system: 'system' in l.account });
  }
  // One order for every writer, so two transactions touching the same balances cannot deadlock.
  const sorted = [...deltas.values()]
    .filter((d) => d.amount !== 0n)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.coin < b.coin ? -1 : a.coin > b.coin ? 1 : 0));
  for (let i = 0; i < sorted.length; i += CHUNK) {
    const chunk = sorted.slice(i, i + CHUNK);
    const written = await trx
      .insertInto('balances')
      .values(
        chunk.map((d) => ({
          ledger_account_id: d.id,
          coin: d.coin,
          amount: d.amount.toString(),
          // PostgreSQL checks the proposed row before ON CONFLICT turns it into an update, so a debit
          // of a mining account is proposed as may_be_negative; the update keeps the existing row's
          // flag (false), which is what the check then applies to the new amount.
          may_be_negative: d.system || d.amount < 0n,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['ledger_account_id', 'coin']).doUpdateSet({
          amount: sql`balances.amount + excluded.amount`,
          updated_at: sql`now()`,
        }),
      )
      .returning(['ledger_account_id', 'coin', 'may_be_negative'])
      .execute();
    // A debit that inserted a new row (a mining account with no balance of the coin) kept the proposed
    // flag: refuse it as the balances check would, aborting the transaction.
    for (const w of written) {
      if (w.may_be_negative && !chunk.some((d) => d.id === w.ledger_account_id && d.coin === w.coin && d.system)) {
        throw Object.assign(new Error(`ledger transaction ${tx.key} would make a balance of ${w.coin} negative`), {
          code: '23514',
          constraint: 'balances_check',
        });
      }
    }
  }
  await addEarnings(trx, legs, idOf, tx.at, tx.feeShare);
  return { posted: true, id: row.id };
}

/** The ledger legs that are earnings of an account: its own PPS credits, redirects, referral rewards and solo blocks. */
export const EARNING_KINDS: readonly LedgerEntryKind[] = ['pps', 'redirect_in', 'referral', 'solo_reward'];

/**
 * Adds a transaction's earning legs of mining accounts to their quarter hour in
 * earnings_quarter_hours (migration 0007), in the same database transaction and in one lock order.
 */
async function addEarnings(
  trx: Executor,
  legs: readonly LedgerLeg[],
  idOf: (ref: LedgerAccountRef) => bigint,
  at: Date | undefined,
  feeShare: Exact | undefined,
): Promise<void> {
  if (feeShare && (feeShare.isNegative() || feeShare.compare(1) > 0)) throw new RangeError(`fee share ${feeShare}`);
  const sums = new Map<string, { id: bigint; coin: string; algorithm: string; amount: bigint; fees: Exact }>();
  for (const l of legs) {
    if (!('accountId' in l.account) || !EARNING_KINDS.includes(l.kind)) continue;
    const id = idOf(l.account);
    const algorithm = l.algorithm ?? '';
    const key = `${id}|${l.coin}|${algorithm}`;
    const fees = feeShare ? feeShare.times(l.amount) : Exact.ZERO;
    const seen = sums.get(key);
    if (seen) {
      seen.amount += l.amount;
      seen.fees = seen.fees.plus(fees);
    } else sums.set(key, { id, coin: l.coin, algorithm, amount: l.amount, fees });
  }
  const rows = [...sums.values()]
    .filter((r) => r.amount !== 0n)
    .sort((a, b) =>
      a.id < b.id ? -1 : a.id > b.id ? 1 : `${a.coin}|${a.algorithm}` < `${b.coin}|${b.algorithm}` ? -1 : 1,
    );
  const bucket = sql<Date>`date_bin('15 minutes', ${at ?? sql`now()`}::timestamptz, timestamptz '2000-01-01 00:00:00+00')`;
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto('earnings_quarter_hours')
      .values(
        rows.slice(i, i + CHUNK).map((r) => ({
          ledger_account_id: r.id,
          coin: r.coin,
          algorithm: r.algorithm as AlgorithmKey | '',
          bucket,
          amount: r.amount.toString(),
          fees: r.fees.toString(),
        })),
      )
      .onConflict((oc) =>
        oc.columns(['ledger_account_id', 'coin', 'algorithm', 'bucket']).doUpdateSet({
          amount: sql`earnings_quarter_hours.amount + excluded.amount`,
          fees: sql`earnings_quarter_hours.fees + excluded.fees`,
        }),
      )
      .execute();
  }
}

/** Whether a ledger transaction with this key exists. */
export async function ledgerTransactionExists(db: Executor, key: string): Promise<boolean> {
  const row = await db
    .selectFrom('ledger_transactions')
    .select('id')
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A mining account's balance of a coin, locked until the end of the transaction (0 when it has none
 * yet). Debits read it first, so two concurrent debits cannot both spend the same coins.
 */
export async function lockBalance(trx: Executor, accountId: bigint, coin: string): Promise<bigint> {
  const [ledgerId] = (await ledgerAccountIds(trx, [{ accountId }])).values();
  if (ledgerId === undefined) return 0n;
  const row = await trx
    .selectFrom('balances')
    .select('amount')
    .where('ledger_account_id', '=', ledgerId)
    .where('coin', '=', coin)
    .forUpdate()
    .executeTakeFirst();
  return row ? BigInt(row.amount) : 0n;
}

export interface CoinBalance {
  coin: string;
  amount: bigint;
}

/** Every coin balance of a mining account, non-zero or not, in the catalogue's order. */
export async function balancesOfAccount(db: Executor, accountId: bigint): Promise<CoinBalance[]> {
  const rows = await db
    .selectFrom('balances as b')
    .innerJoin('ledger_accounts as la', 'la.id', 'b.ledger_account_id')
    .innerJoin('coins as c', 'c.ticker', 'b.coin')
    .select(['b.coin', 'b.amount'])
    .where('la.account_id', '=', accountId)
    .orderBy('c.position')
    .execute();
  return rows.map((r) => ({ coin: r.coin, amount: BigInt(r.amount) }));
}

/** The balances of a pool account (pool:fees, pool:pps, ...). */
export async function balancesOfSystemAccount(db: Executor, system: SystemAccount): Promise<CoinBalance[]> {
  const rows = await db
    .selectFrom('balances as b')
    .innerJoin('ledger_accounts as la', 'la.id', 'b.ledger_account_id')
    .select(['b.coin', 'b.amount'])
    .where('la.system_name', '=', system)
    .orderBy('b.coin')
    .execute();
  return rows.map((r) => ({ coin: r.coin, amount: BigInt(r.amount) }));
}

export interface LedgerProblem {
  kind: 'balance-mismatch' | 'missing-balance' | 'negative-balance' | 'unbalanced-transaction' | 'earnings-mismatch';
  detail: string;
}

/**
 * The reconciliation check: every balance equals the sum of its entries (and every account/coin with
 * entries has a balance row), no mining account's balance is negative, and every ledger transaction
 * sums to zero per coin. An empty list means the ledger is consistent.
 */
export async function reconcileLedger(db: Executor): Promise<LedgerProblem[]> {
  const problems: LedgerProblem[] = [];
  const mismatches = await sql<{
    ledger_account_id: string;
    coin: string;
    balance: string | null;
    entries: string | null;
  }>`
    select coalesce(b.ledger_account_id, e.ledger_account_id)::text as ledger_account_id,
           coalesce(b.coin, e.coin) as coin, b.amount::text as balance, e.total::text as entries
      from balances b
      full join (select ledger_account_id, coin, sum(amount) as total from ledger_entries
                  group by ledger_account_id, coin) e
        on e.ledger_account_id = b.ledger_account_id and e.coin = b.coin
     where b.amount is distinct from coalesce(e.total, 0)
  `.execute(db);
  for (const r of mismatches.rows) {
    problems.push(
      r.balance === null
        ? {
            kind: 'missing-balance',
            detail: `ledger account ${r.ledger_account_id} has ${r.entries} ${r.coin} in entries but no balance row`,
          }
        : {
            kind: 'balance-mismatch',
            detail: `ledger account ${r.ledger_account_id}: balance ${r.balance} ${r.coin} but entries sum to ${r.entries ?? 0}`,
          },
    );
  }
  const negative = await sql<{ ledger_account_id: string; coin: string; amount: string }>`
    select b.ledger_account_id::text as ledger_account_id, b.coin, b.amount::text as amount
      from balances b join ledger_accounts la on la.id = b.ledger_account_id
     where la.account_id is not null and b.amount < 0
  `.execute(db);
  for (const r of negative.rows) {
    problems.push({ kind: 'negative-balance', detail: `ledger account ${r.ledger_account_id}: ${r.amount} ${r.coin}` });
  }
  const unbalanced = await sql<{ key: string; coin: string; total: string }>`
    select t.idempotency_key as key, e.coin, sum(e.amount)::text as total
      from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
     group by t.idempotency_key, e.coin having sum(e.amount) <> 0
  `.execute(db);
  for (const r of unbalanced.rows) {
    problems.push({ kind: 'unbalanced-transaction', detail: `${r.key} is off by ${r.total} ${r.coin}` });
  }
  const earnings = await sql<{
    ledger_account_id: string;
    coin: string;
    rollup: string | null;
    entries: string | null;
  }>`
    select coalesce(r.ledger_account_id, e.ledger_account_id)::text as ledger_account_id,
           coalesce(r.coin, e.coin) as coin, r.total::text as rollup, e.total::text as entries
      from (select ledger_account_id, coin, sum(amount) as total from earnings_quarter_hours
             group by ledger_account_id, coin) r
      full join (select e.ledger_account_id, e.coin, sum(e.amount) as total
                   from ledger_entries e join ledger_accounts la on la.id = e.ledger_account_id
                  where la.account_id is not null and e.kind in (${sql.join(EARNING_KINDS)})
                  group by e.ledger_account_id, e.coin) e
        on e.ledger_account_id = r.ledger_account_id and e.coin = r.coin
     where coalesce(r.total, 0) <> coalesce(e.total, 0)
  `.execute(db);
  for (const r of earnings.rows) {
    problems.push({
      kind: 'earnings-mismatch',
      detail: `ledger account ${r.ledger_account_id}: earnings rollup ${r.rollup ?? 0} ${r.coin} but earning entries sum to ${r.entries ?? 0}`,
    });
  }
  return problems;
}

export interface SourcedAmount {
  sourceAccountId: bigint;
  coin: string;
  amount: bigint;
}

/** Referral rewards credited to an account, per referred account and coin. */
export async function referralRewardsBySource(db: Executor, accountId: bigint): Promise<SourcedAmount[]> {
  const rows = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_accounts as la', 'la.id', 'e.ledger_account_id')
    .select(['e.source_account_id', 'e.coin', sql<string>`sum(e.amount)::text`.as('amount')])
    .where('la.account_id', '=', accountId)
    .where('e.kind', '=', 'referral')
    .groupBy(['e.source_account_id', 'e.coin'])
    .execute();
  return rows.flatMap((r) =>
    r.source_account_id === null
      ? []
      : [{ sourceAccountId: r.source_account_id, coin: r.coin, amount: BigInt(r.amount) }],
  );
}
