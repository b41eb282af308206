import type { AlgorithmKey } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Executor } from '../../schema.js';
import { accountWorkerIds, BATCH_MINUTE, bin, DIRTY, deltaRows } from './sql.js';

/** Longer histories for other screens (minute rows are kept 48 hours). */

export interface DayDifficulty {
  /** The day in `timeZone`, 'YYYY-MM-DD'. */
  day: string;
  /** Σ accepted difficulty of the account on the algorithm that day, decimal text. */
  acceptedDifficulty: string;
}

/**
 * An account's accepted difficulty per day in `timeZone` for `from` ≤ t < `to` (half-hour
 * boundaries), from the half-hour rollups: exact for time zones on whole or half hours; in the few
 * zones on a quarter hour (Nepal, Chatham) a half hour counts on the day it starts. The account's
 * history includes workers removed since. Days without shares are absent.
 */
export async function accountDifficultyByDay(
  db: Executor,
  options: { account: string; algorithm: AlgorithmKey; from: Date; to: Date; timeZone: string },
): Promise<DayDifficulty[]> {
  const { account, algorithm, from, to } = options;
  const { rows } = await sql<{ day: string; difficulty: string }>`
    select to_char(x.t at time zone ${options.timeZone}, 'YYYY-MM-DD') as day, sum(x.difficulty) as difficulty
      from (
        select a.half_hour as t, a.accepted_difficulty as difficulty
          from account_stats_half_hour a
         where a.account = ${account} and a.algorithm = ${algorithm} and a.half_hour >= ${from} and a.half_hour < ${to}
        union all
        select s.minute, s.accepted_difficulty - s.rolled_difficulty
          ${deltaRows(algorithm, accountWorkerIds(account, algorithm), from, to)}
      ) x
     group by 1
     order by 1
  `.execute(db);
  return rows.map((r) => ({ day: r.day, acceptedDifficulty: r.difficulty }));
}

/**
 * The algorithm an account mined in the most worker-minutes with an accepted share since `since`
 * (counted from the half hour `since` falls in), from the rollups; ties go to the most recent.
 * Undefined when it mined nothing. The same measure as accountActivity's mostActiveAlgorithm, which
 * reads minute rows and so cannot look back further than their 48 hours.
 */
export async function mostActiveAlgorithmSince(
  db: Executor,
  account: string,
  since: Date,
): Promise<AlgorithmKey | undefined> {
  const { rows } = await sql<{ algorithm: AlgorithmKey }>`
    with unrolled as (
      select distinct b.algorithm, ${BATCH_MINUTE} as minute from share_batches b where b.rolled_at is null
    )
    select x.algorithm from (
      select a.algorithm, a.worker_minutes as minutes, a.half_hour as last
        from account_stats_half_hour a
       where a.account = ${account} and a.half_hour >= ${bin(sql`${since}::timestamptz`, 1800)}
         and a.worker_minutes > 0
      union all
      select s.algorithm, (s.valid > 0)::int - (s.rolled_valid > 0)::int, s.minute
        from worker_stats_minute s
        join unrolled u on u.algorithm = s.algorithm and u.minute = s.minute
       where s.worker_id in (select id from workers where account = ${account})
         and s.minute >= ${since} and s.valid > 0 and ${DIRTY}
    ) x
    group by x.algorithm
    having sum(x.minutes) > 0
    order by sum(x.minutes) desc, max(x.last) desc
    limit 1
  `.execute(db);
  return rows[0]?.algorithm;
}
