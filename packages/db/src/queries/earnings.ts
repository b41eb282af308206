import type { AlgorithmKey } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Executor } from '../schema.js';

export interface DailyEarning {
  /** The day in the asked time zone, 'YYYY-MM-DD'. */
  day: string;
  coin: string;
  amount: bigint;
  /**
   * The part of `amount` known to be transaction fees (docs/money.md, "FPPS"), whole units rounded
   * down; absent when none is.
   */
  fees?: bigint;
}

/**
 * An account's earnings (PPS credits, redirects in, referral rewards) per day and coin, with day
 * boundaries in `timeZone` (an IANA name PostgreSQL knows, e.g. 'Europe/Madrid'), newest day first.
 * `algorithm` limits them to what that algorithm's shares earned. Reads the quarter-hour rollup the
 * ledger keeps (earnings_quarter_hours), not the legs.
 */
export async function dailyEarnings(
  db: Executor,
  accountId: bigint,
  options: { from: Date; to: Date; timeZone: string; algorithm?: AlgorithmKey },
): Promise<DailyEarning[]> {
  const rows = await sql<{ day: string; coin: string; amount: string; fees: string }>`
    select to_char(date_trunc('day', q.bucket at time zone ${options.timeZone}), 'YYYY-MM-DD') as day,
           q.coin, sum(q.amount)::text as amount, floor(sum(q.fees))::text as fees
      from earnings_quarter_hours q
      join ledger_accounts la on la.id = q.ledger_account_id
     where la.account_id = ${accountId}
       and q.bucket >= ${options.from} and q.bucket < ${options.to}
       ${options.algorithm ? sql`and q.algorithm = ${options.algorithm}` : sql``}
     group by 1, q.coin
    having sum(q.amount) <> 0
     order by 1 desc, q.coin
  `.execute(db);
  return rows.rows.map((r) => ({
    day: r.day,
    coin: r.coin,
    amount: BigInt(r.amount),
    ...(r.fees !== '0' && { fees: BigInt(r.fees) }),
  }));
}

/**
 * An account's earnings per coin in points of `seconds` on UTC from `from` to `to` (the revenue
 * chart's hours and 4-hour points): each point's start, the coin and the amount in smallest units.
 */
export async function earningsByPoint(
  db: Executor,
  accountId: bigint,
  options: { from: Date; to: Date; seconds: number; algorithm: AlgorithmKey },
): Promise<{ start: Date; coin: string; amount: bigint }[]> {
  const width = sql.raw(`'${Math.trunc(options.seconds)} seconds'`);
  const rows = await sql<{ start: Date; coin: string; amount: string }>`
    select date_bin(${width}::interval, q.bucket, timestamptz '2000-01-01 00:00:00+00') as start,
           q.coin, sum(q.amount)::text as amount
      from earnings_quarter_hours q
      join ledger_accounts la on la.id = q.ledger_account_id
     where la.account_id = ${accountId} and q.algorithm = ${options.algorithm}
       and q.bucket >= ${options.from} and q.bucket < ${options.to}
     group by 1, q.coin
    having sum(q.amount) <> 0
     order by 1, q.coin
  `.execute(db);
  return rows.rows.map((r) => ({ start: r.start, coin: r.coin, amount: BigInt(r.amount) }));
}

/**
 * The start of the first quarter hour in which the account earned anything from the algorithm's shares, or null
 * if it never did: where its revenue chart starts.
 */
export async function firstEarningAt(db: Executor, accountId: bigint, algorithm: AlgorithmKey): Promise<Date | null> {
  const row = await db
    .selectFrom('earnings_quarter_hours as q')
    .innerJoin('ledger_accounts as la', 'la.id', 'q.ledger_account_id')
    .select(sql<Date | null>`min(q.bucket)`.as('first'))
    .where('la.account_id', '=', accountId)
    .where('q.algorithm', '=', algorithm)
    .where('q.amount', '<>', '0')
    .executeTakeFirst();
  return row?.first ?? null;
}

/** Everything an account ever earned, per coin (optionally from one algorithm's shares). */
export async function lifetimeEarnings(
  db: Executor,
  accountId: bigint,
  algorithm?: AlgorithmKey,
): Promise<Map<string, bigint>> {
  let query = db
    .selectFrom('earnings_quarter_hours as q')
    .innerJoin('ledger_accounts as la', 'la.id', 'q.ledger_account_id')
    .select(['q.coin', sql<string>`sum(q.amount)::text`.as('amount')])
    .where('la.account_id', '=', accountId)
    .groupBy('q.coin');
  if (algorithm) query = query.where('q.algorithm', '=', algorithm);
  const rows = await query.execute();
  return new Map(rows.filter((r) => r.amount !== '0').map((r) => [r.coin, BigInt(r.amount)]));
}
