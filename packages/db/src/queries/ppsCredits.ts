import type { AlgorithmKey } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Executor, PpsAccrualsTable } from '../schema.js';

/** What crediting needs to know about an account whose shares are in a batch. */
export interface CreditAccount {
  id: bigint;
  username: string;
  /** Fraction 0–1. */
  feeDiscount: string;
  /** The live account that referred it, if any. */
  referrerId: bigint | null;
  /** Conversion list in force for the algorithm asked for; empty when the account set none. */
  conversion: { ticker: string; proportion: string }[];
  /** Live redirect targets and their percentages. */
  redirects: { targetId: bigint; percentage: string }[];
}

const CHUNK = 1000;

/**
 * The live accounts among `usernames` (exact names, as stratum authorized them) with their fee
 * discount, referrer, conversion list for `algorithm` (the shared 'all' list when the account chose
 * one list for all algorithms) and redirects. Removed accounts are left out.
 */
export async function creditAccounts(
  db: Executor,
  usernames: readonly string[],
  algorithm: AlgorithmKey,
): Promise<Map<string, CreditAccount>> {
  const out = new Map<string, CreditAccount>();
  const all = [...new Set(usernames)];
  const allAlgorithms = new Set<bigint>();
  for (let i = 0; i < all.length; i += CHUNK) {
    const rows = await db
      .selectFrom('accounts as a')
      .leftJoin('accounts as r', (j) => j.onRef('r.id', '=', 'a.referred_by').on('r.deleted_at', 'is', null))
      .select(['a.id', 'a.username', 'a.fee_discount', 'r.id as referrer_id', 'a.conversion_all_algorithms'])
      .where('a.username', 'in', all.slice(i, i + CHUNK))
      .where('a.deleted_at', 'is', null)
      .execute();
    for (const r of rows) {
      out.set(r.username, {
        id: r.id,
        username: r.username,
        feeDiscount: r.fee_discount,
        referrerId: r.referrer_id ?? null,
        conversion: [],
        redirects: [],
      });
      if (r.conversion_all_algorithms) allAlgorithms.add(r.id);
    }
  }
  const byId = new Map([...out.values()].map((a) => [a.id, a]));
  const ids = [...byId.keys()];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const conversions = await db
      .selectFrom('conversion_settings as c')
      .innerJoin('coins', 'coins.ticker', 'c.ticker')
      .select(['c.account_id', 'c.algorithm', 'c.ticker', 'c.proportion'])
      .where('c.account_id', 'in', chunk)
      .where('c.algorithm', 'in', [algorithm, 'all'])
      .orderBy('coins.position')
      .execute();
    for (const c of conversions) {
      const account = byId.get(c.account_id);
      const wanted = allAlgorithms.has(c.account_id) ? 'all' : algorithm;
      if (account && c.algorithm === wanted) account.conversion.push({ ticker: c.ticker, proportion: c.proportion });
    }
    const redirects = await db
      .selectFrom('redirect_settings as r')
      .innerJoin('accounts as t', 't.id', 'r.target_account_id')
      .select(['r.account_id', 'r.target_account_id', 'r.percentage'])
      .where('r.account_id', 'in', chunk)
      .where('t.deleted_at', 'is', null)
      .orderBy('r.target_account_id')
      .execute();
    for (const r of redirects) {
      byId.get(r.account_id)?.redirects.push({ targetId: r.target_account_id, percentage: r.percentage });
    }
  }
  return out;
}

export type AccrualKind = PpsAccrualsTable['kind'];

export interface AccrualKey {
  ledgerAccountId: bigint;
  coin: string;
  kind: AccrualKind;
  /** The referred or redirecting account (0n for other kinds). */
  sourceAccountId: bigint;
}

const accrualKey = (k: AccrualKey) => `${k.ledgerAccountId}|${k.coin}|${k.kind}|${k.sourceAccountId}`;

/** Carried fractions for these keys, locked for the transaction; '0' for keys without a row. */
export async function lockAccruals(trx: Executor, keys: readonly AccrualKey[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const unique = [...new Map(keys.map((k) => [accrualKey(k), k])).values()];
  const ids = [...new Set(unique.map((k) => k.ledgerAccountId))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await trx
      .selectFrom('pps_accruals')
      .selectAll()
      .where('ledger_account_id', 'in', ids.slice(i, i + CHUNK))
      .orderBy('ledger_account_id')
      .orderBy('coin')
      .orderBy('kind')
      .orderBy('source_account_id')
      .forUpdate()
      .execute();
    for (const r of rows) {
      const key = {
        ledgerAccountId: r.ledger_account_id,
        coin: r.coin,
        kind: r.kind,
        sourceAccountId: r.source_account_id,
      };
      out.set(accrualKey(key), r.fraction);
    }
  }
  for (const k of unique) if (!out.has(accrualKey(k))) out.set(accrualKey(k), '0');
  return out;
}

export { accrualKey };

/** Writes carried fractions (sorted, so concurrent writers lock in one order). */
export async function saveAccruals(trx: Executor, rows: readonly (AccrualKey & { fraction: string })[]): Promise<void> {
  const sorted = [...rows].sort((a, b) => (accrualKey(a) < accrualKey(b) ? -1 : 1));
  for (let i = 0; i < sorted.length; i += CHUNK) {
    await trx
      .insertInto('pps_accruals')
      .values(
        sorted.slice(i, i + CHUNK).map((r) => ({
          ledger_account_id: r.ledgerAccountId,
          coin: r.coin,
          kind: r.kind,
          source_account_id: r.sourceAccountId,
          fraction: r.fraction,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['ledger_account_id', 'coin', 'kind', 'source_account_id'])
          .doUpdateSet({ fraction: sql`excluded.fraction` }),
      )
      .execute();
  }
}

export interface PendingCredit {
  batchId: string;
  accountId: bigint;
  algorithm: AlgorithmKey;
  coin: string;
  acceptedDifficulty: string;
  networkDifficulty: string;
  reward: bigint;
  /** Smallest units of `coin`, exact decimal text. */
  value: string;
  intervalEnd: Date;
}

/** Keeps the PPS value of a batch's shares until a fresh price lets it be credited. */
export async function insertPendingCredits(trx: Executor, credits: readonly PendingCredit[]): Promise<void> {
  for (let i = 0; i < credits.length; i += CHUNK) {
    await trx
      .insertInto('pps_credits')
      .values(
        credits.slice(i, i + CHUNK).map((c) => ({
          batch_id: c.batchId,
          account_id: c.accountId,
          algorithm: c.algorithm,
          coin: c.coin,
          accepted_difficulty: c.acceptedDifficulty,
          network_difficulty: c.networkDifficulty,
          reward: c.reward,
          value: c.value,
          interval_end: c.intervalEnd,
        })),
      )
      .onConflict((oc) => oc.columns(['batch_id', 'account_id']).doNothing())
      .execute();
  }
}

/** Batches with credits still waiting, oldest first. */
export async function pendingCreditBatches(db: Executor, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('pps_credits')
    .select('batch_id')
    .where('credited_at', 'is', null)
    .groupBy('batch_id')
    .orderBy(sql`min(interval_end)`)
    .limit(limit)
    .execute();
  return rows.map((r) => r.batch_id);
}

/** A batch's waiting credits, locked (a second crediting process skips them until this one commits). */
export async function lockPendingCredits(trx: Executor, batchId: string): Promise<PendingCredit[]> {
  const rows = await trx
    .selectFrom('pps_credits')
    .selectAll()
    .where('batch_id', '=', batchId)
    .where('credited_at', 'is', null)
    .orderBy('account_id')
    .forUpdate()
    .skipLocked()
    .execute();
  return rows.map((r) => ({
    batchId: r.batch_id,
    accountId: r.account_id,
    algorithm: r.algorithm,
    coin: r.coin,
    acceptedDifficulty: r.accepted_difficulty,
    networkDifficulty: r.network_difficulty,
    reward: BigInt(r.reward),
    value: r.value,
    intervalEnd: r.interval_end,
  }));
}

export async function markCredited(
  trx: Executor,
  batchId: string,
  ledgerTransactionId: bigint | null,
  at: Date,
): Promise<void> {
  await trx
    .updateTable('pps_credits')
    .set({ credited_at: at, ledger_transaction_id: ledgerTransactionId })
    .where('batch_id', '=', batchId)
    .where('credited_at', 'is', null)
    .execute();
}

/** Usernames of account ids (pending credits store ids). */
export async function usernamesOf(db: Executor, ids: readonly bigint[]): Promise<Map<bigint, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('accounts')
    .select(['id', 'username'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.username]));
}
