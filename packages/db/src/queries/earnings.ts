import type { AlgorithmKey } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Executor, LedgerEntryKind } from '../schema.js';

/** The ledger legs that are earnings of an account: its own PPS credits, redirects and referral rewards. */
export const EARNING_KINDS: readonly LedgerEntryKind[] = ['pps', 'redirect_in', 'referral'];

export interface DailyEarning {
  /** The day in the asked time zone, 'YYYY-MM-DD'. */
  day: string;
  coin: string;
  amount: bigint;
}

/**
 * An account's earnings per day and coin, from the ledger, with day boundaries in `timeZone` (an IANA
 * name PostgreSQL knows, e.g. 'Europe/Madrid'), newest day first. `algorithm` limits them to what
 * that algorithm's shares earned.
 */
export async function dailyEarnings(
  db: Executor,
  accountId: bigint,
  options: { from: Date; to: Date; timeZone: string; algorithm?: AlgorithmKey },
): Promise<DailyEarning[]> {
  const rows = await sql<{ day: string; coin: string; amount: string }>`
    select to_char(date_trunc('day', e.created_at at time zone ${options.timeZone}), 'YYYY-MM-DD') as day,
           e.coin, sum(e.amount)::text as amount
      from ledger_entries e
      join ledger_accounts la on la.id = e.ledger_account_id
     where la.account_id = ${accountId}
       and e.kind in (${sql.join(EARNING_KINDS)})
       and e.created_at >= ${options.from} and e.created_at < ${options.to}
       ${options.algorithm ? sql`and e.algorithm = ${options.algorithm}` : sql``}
     group by 1, e.coin
     order by 1 desc, e.coin
  `.execute(db);
  return rows.rows.map((r) => ({ day: r.day, coin: r.coin, amount: BigInt(r.amount) }));
}

/** Everything an account ever earned, per coin (optionally from one algorithm's shares). */
export async function lifetimeEarnings(
  db: Executor,
  accountId: bigint,
  algorithm?: AlgorithmKey,
): Promise<Map<string, bigint>> {
  let query = db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_accounts as la', 'la.id', 'e.ledger_account_id')
    .select(['e.coin', sql<string>`sum(e.amount)::text`.as('amount')])
    .where('la.account_id', '=', accountId)
    .where('e.kind', 'in', EARNING_KINDS)
    .groupBy('e.coin');
  if (algorithm) query = query.where('e.algorithm', '=', algorithm);
  const rows = await query.execute();
  return new Map(rows.map((r) => [r.coin, BigInt(r.amount)]));
}
