import { sql } from 'kysely';
import type { Executor } from '../schema.js';

/**
 * The operator's treasury (docs/admin.md, "Treasury"): what the ledger says the pool owes and has
 * earned per coin, its open payouts, and what the hot wallets held when the jobs role last read them
 * (wallet_snapshots, migration 0011). Amounts are smallest units as bigint.
 */

/** Per coin: the sum of every mining account's balance, what the pool owes its miners. */
export async function owedByCoin(db: Executor): Promise<Map<string, bigint>> {
  const rows = await db
    .selectFrom('balances as b')
    .innerJoin('ledger_accounts as la', 'la.id', 'b.ledger_account_id')
    .select(['b.coin', sql<string>`sum(b.amount)::text`.as('owed')])
    .where('la.account_id', 'is not', null)
    .groupBy('b.coin')
    .execute();
  return new Map(rows.map((r) => [r.coin, BigInt(r.owed)]));
}

export interface OpenPayoutTotals {
  /** Payouts written but not yet known to be sent (`pending` or `sending`). */
  count: number;
  total: bigint;
}

/** Per coin: payouts that are `pending` or `sending`, how many and their total. */
export async function openPayoutTotals(db: Executor): Promise<Map<string, OpenPayoutTotals>> {
  const rows = await db
    .selectFrom('payouts')
    .select(['coin', sql<string>`count(*)::text`.as('count'), sql<string>`sum(total)::text`.as('total')])
    .where('status', 'in', ['pending', 'sending'])
    .groupBy('coin')
    .execute();
  return new Map(rows.map((r) => [r.coin, { count: Number(r.count), total: BigInt(r.total) }]));
}

export interface PoolResult {
  /** pool:blocks: block rewards of matured blocks (entries of kind block_reward), ≥ 0. */
  mined: bigint;
  /** pool:pps: minus the gross PPS value credited for shares (entries of kind pps_expense), ≤ 0. */
  pps: bigint;
  /** pool:fees: the pool fee kept after referral rewards (entries of kind fee), ≥ 0. */
  fees: bigint;
  /** pool:solo: minus the solo blocks' rewards credited to their finders (entries of kind solo_expense), ≤ 0. */
  solo: bigint;
}

/**
 * Per coin: the balances of pool:blocks, pool:pps, pool:solo and pool:fees, the pool's mined profit and loss.
 * A balance row is the sum of its account's entries (kept in the same transaction and proven by the
 * ledger check), so this reads three rows per coin rather than summing every share batch's legs.
 */
export async function poolResultByCoin(db: Executor): Promise<Map<string, PoolResult>> {
  const rows = await db
    .selectFrom('balances as b')
    .innerJoin('ledger_accounts as la', 'la.id', 'b.ledger_account_id')
    .select(['b.coin', 'la.system_name', 'b.amount'])
    .where('la.system_name', 'in', ['pool:blocks', 'pool:pps', 'pool:solo', 'pool:fees'])
    .execute();
  const out = new Map<string, PoolResult>();
  for (const r of rows) {
    const result = out.get(r.coin) ?? { mined: 0n, pps: 0n, fees: 0n, solo: 0n };
    const amount = BigInt(r.amount);
    if (r.system_name === 'pool:blocks') result.mined = amount;
    else if (r.system_name === 'pool:pps') result.pps = amount;
    else if (r.system_name === 'pool:solo') result.solo = amount;
    else result.fees = amount;
    out.set(r.coin, result);
  }
  return out;
}

// ── wallet snapshots ────────────────────────────────────────────────────────────────────────────

/** What the jobs role knows of a hot wallet without asking it (its configuration). */
export interface WalletIdentity {
  coin: string;
  /** The pool's address on the chain (pool-signed wallets); null for a node's wallet. */
  address: string | null;
  demo: boolean;
  /** The configured min_balance, smallest units. */
  minBalance: bigint;
  /** Pool-signed wallets: the most outputs one transaction may pay; null for a node's wallet. */
  maxOutputs: number | null;
  /** Tokens: the coin fees are paid in (ETH for USDC); null when it is `coin` itself. */
  feeCoin: string | null;
}

/** One good reading of a wallet. */
export interface WalletReading {
  /** Spendable balance of the coin. */
  balance: bigint;
  /** Pool-signed wallets: the most one transaction of maxOutputs outputs may cost, in the fee coin. */
  feePerTransaction: bigint | null;
  /** Tokens: the fee coin's spendable balance. */
  feeBalance: bigint | null;
  at: Date;
}

export interface WalletSnapshot extends WalletIdentity {
  /** The last good reading; null until one succeeded. */
  reading: WalletReading | null;
  /** The last attempt and its error (null when it succeeded). */
  checkedAt: Date;
  error: string | null;
}

/** Records a good reading: the figures, their time, and a cleared error. */
export async function saveWalletReading(db: Executor, wallet: WalletIdentity, reading: WalletReading): Promise<void> {
  const values = {
    address: wallet.address,
    demo: wallet.demo,
    min_balance: wallet.minBalance.toString(),
    max_outputs: wallet.maxOutputs,
    fee_coin: wallet.feeCoin,
    balance: reading.balance.toString(),
    fee_balance: reading.feeBalance?.toString() ?? null,
    fee_per_transaction: reading.feePerTransaction?.toString() ?? null,
    read_at: reading.at,
    checked_at: reading.at,
    error: null,
  };
  await db
    .insertInto('wallet_snapshots')
    .values({ coin: wallet.coin, ...values })
    .onConflict((oc) => oc.column('coin').doUpdateSet(values))
    .execute();
}

/**
 * Records a failed read: the error and the time of the attempt. The last good figures and their
 * read_at stay as they were (none on a first failure). A changed fee coin drops the old fee figures,
 * which were in another coin.
 */
export async function saveWalletReadError(
  db: Executor,
  wallet: WalletIdentity,
  error: string,
  at: Date,
): Promise<void> {
  await db
    .insertInto('wallet_snapshots')
    .values({
      coin: wallet.coin,
      address: wallet.address,
      demo: wallet.demo,
      min_balance: wallet.minBalance.toString(),
      max_outputs: wallet.maxOutputs,
      fee_coin: wallet.feeCoin,
      checked_at: at,
      error,
    })
    .onConflict((oc) =>
      oc.column('coin').doUpdateSet({
        address: wallet.address,
        demo: wallet.demo,
        min_balance: wallet.minBalance.toString(),
        max_outputs: wallet.maxOutputs,
        fee_coin: wallet.feeCoin,
        fee_balance: sql`case when wallet_snapshots.fee_coin is not distinct from excluded.fee_coin then wallet_snapshots.fee_balance end`,
        fee_per_transaction: sql`case when wallet_snapshots.fee_coin is not distinct from excluded.fee_coin then wallet_snapshots.fee_per_transaction end`,
        checked_at: at,
        error,
      }),
    )
    .execute();
}

/** Drops the snapshots of coins that have no hot wallet any more (so no old figure is shown as current). */
export async function removeWalletSnapshotsExcept(db: Executor, coins: readonly string[]): Promise<number> {
  let query = db.deleteFrom('wallet_snapshots');
  if (coins.length > 0) query = query.where('coin', 'not in', coins);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every wallet snapshot, by coin. */
export async function walletSnapshots(db: Executor): Promise<Map<string, WalletSnapshot>> {
  const rows = await db.selectFrom('wallet_snapshots').selectAll().execute();
  return new Map(
    rows.map((r) => [
      r.coin,
      {
        coin: r.coin,
        address: r.address,
        demo: r.demo,
        minBalance: BigInt(r.min_balance),
        maxOutputs: r.max_outputs,
        feeCoin: r.fee_coin,
        reading:
          r.balance === null || r.read_at === null
            ? null
            : {
                balance: BigInt(r.balance),
                feePerTransaction: r.fee_per_transaction === null ? null : BigInt(r.fee_per_transaction),
                feeBalance: r.fee_balance === null ? null : BigInt(r.fee_balance),
                at: r.read_at,
              },
        checkedAt: r.checked_at,
        error: r.error,
      },
    ]),
  );
}
