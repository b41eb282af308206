/**
 * npm run bench:dashboard — the Mining tab's reads for an account with 10,000 workers and a year of
 * statistics, timed at the service (no HTTP), against the pool stats read the public pages make in
 * the same run (the baseline). PostgreSQL when TEST_DATABASE_URL is set (a throwaway schema), the
 * embedded database otherwise. `--short` seeds 30 days of history and fewer active workers so CI
 * proves it works in well under a minute.
 *
 * The data is what the tables hold after a year of mining under the retention of the worker-rollup
 * job (docs/dashboard.md): account half hours for the whole period, worker hours for the last 8
 * days (every worker in every hour: the worst case for the workers table), the workers' period totals,
 * minute rows for the last 48 hours of the active workers, and the newest two minutes not rolled up
 * yet (the most the job leaves, a few seconds before its run).
 */
import {
  type Account,
  accountWorkerRows,
  type Database,
  dayPeriod,
  latestPoolStats,
  lockWorkerRollups,
  refreshWorkerPeriodTotals,
  savePoolStats,
  savePrices,
  windowPeriod,
} from '@lodestone/db';
import { createTestDatabase } from '@lodestone/db/testing';
import { sql } from 'kysely';
import { runWorkerRollup } from '../src/jobs/workerRollup.js';
import { powHashesPerDifficulty } from '../src/services/hashesPerDifficulty.js';
import {
  type MiningContext,
  miningPeriods,
  readMiningChart,
  readMiningSummary,
  readMiningWorkers,
} from '../src/services/mining.js';

const WORKERS = 10_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Plan {
  historyDays: number;
  workerHourDays: number;
  activeWorkers: number;
  minuteHours: number;
  iterations: number;
}

const FULL: Plan = { historyDays: 365, workerHourDays: 8, activeWorkers: 5_000, minuteHours: 48, iterations: 60 };
const SHORT: Plan = { historyDays: 30, workerHourDays: 1.25, activeWorkers: 1_000, minuteHours: 2, iterations: 20 };

async function seed(database: Database, plan: Plan, now: Date): Promise<Account> {
  const db = database.db;
  const minuteNow = Math.floor(now.getTime() / MINUTE) * MINUTE;
  const hourNow = Math.floor(now.getTime() / HOUR) * HOUR;
  /** The job has rolled everything before this minute; the two newest minutes are deltas. */
  const unrolledFrom = new Date(minuteNow - MINUTE);
  /** Minutes of the current hour already in its worker-hour rows. */
  const rolledThisHour = (unrolledFrom.getTime() - hourNow) / MINUTE;
  const [user] = await sql<{ id: bigint }>`
    insert into users (email, password_hash) values ('bench@example.org', null) returning id
  `
    .execute(db)
    .then((r) => r.rows);
  if (!user) throw new Error('no user');
  await sql`
    insert into accounts (user_id, username, api_key, observer_key, referral_code, fee_discount)
    values (${user.id}, 'farm', 'api-farm', 'obs-farm', 'RFARM', 0)
  `.execute(db);
  await sql`
    insert into workers (account, algorithm, name, first_seen_at, last_share_at, total_accepted_difficulty)
    select 'farm', 'scrypt', 'rig' || lpad(i::text, 5, '0'), ${new Date(now.getTime() - plan.historyDays * DAY)}::timestamptz,
           case when i <= ${plan.activeWorkers}::int then ${now}::timestamptz
                else ${new Date(now.getTime() - 2 * HOUR)}::timestamptz end, 0
      from generate_series(1, ${WORKERS}::int) i
  `.execute(db);
  // A year of the account's half hours: 10,000 workers at 64 difficulty a minute each.
  await sql`
    insert into account_stats_half_hour (account, algorithm, half_hour, accepted_difficulty, valid, invalid, stale, worker_minutes)
    select 'farm', 'scrypt', t, ${WORKERS * 64 * 30}::numeric, ${WORKERS * 30}::bigint, 30, 3, ${WORKERS * 30}::int
      from generate_series(${new Date(hourNow - plan.historyDays * DAY)}::timestamptz, ${new Date(minuteNow - 2 * MINUTE)}::timestamptz, interval '30 minutes') t
  `.execute(db);
  // Worker hours, the current hour with its rolled minutes only.
  await sql`
    insert into worker_stats_hour (worker_id, algorithm, hour, accepted_difficulty, valid, invalid, stale, active_minutes)
    select w.id, 'scrypt', hours.h, 64 * hours.n, hours.n, (w.id % 7 = 0)::int, (w.id % 11 = 0)::int, hours.n
      from (select h, case when h = ${new Date(hourNow)}::timestamptz then ${rolledThisHour}::int else 60 end as n
              from generate_series(${new Date(hourNow - plan.workerHourDays * DAY)}::timestamptz,
                                   ${new Date(hourNow)}::timestamptz, interval '1 hour') h) hours,
           workers w
  `.execute(db);
  // Minute rows of the active workers; rolled up except the newest two minutes.
  await sql`
    insert into worker_stats_minute
           (worker_id, algorithm, minute, accepted_difficulty, valid, invalid, stale,
            rolled_difficulty, rolled_valid, rolled_invalid, rolled_stale)
    select w.id, 'scrypt', m, 64, 1, 0, 0,
           case when m < ${unrolledFrom}::timestamptz then 64 else 0 end,
           case when m < ${unrolledFrom}::timestamptz then 1 else 0 end, 0, 0
      from workers w,
           generate_series(${new Date(minuteNow - plan.minuteHours * HOUR)}::timestamptz, ${new Date(minuteNow)}::timestamptz, interval '1 minute') m
     where w.id <= (select min(id) from workers) + ${plan.activeWorkers - 1}::int
  `.execute(db);
  // Every 5 s a batch; those of the newest two minutes are not rolled up yet.
  await sql`
    insert into share_batches (id, node, algorithm, interval_start, interval_end, rolled_at)
    select gen_random_uuid(), 'bench', 'scrypt', e - interval '5 seconds', e,
           case when e <= ${unrolledFrom}::timestamptz then e end
      from generate_series(${new Date(minuteNow - plan.minuteHours * HOUR + 5000)}::timestamptz, ${new Date(minuteNow + 30_000)}::timestamptz, interval '5 seconds') e
  `.execute(db);
  // The workers' period totals, as the job's run of this minute leaves them.
  await db.transaction().execute(async (trx) => {
    await lockWorkerRollups(trx);
    await refreshWorkerPeriodTotals(trx, [
      dayPeriod(new Date(hourNow - DAY)),
      windowPeriod(new Date(minuteNow - 10 * MINUTE), 10),
      windowPeriod(new Date(minuteNow - 9 * MINUTE), 10),
    ]);
  });
  await savePoolStats(db, {
    algorithm: 'scrypt',
    taken_at: new Date(now.getTime() - 10_000),
    hashrate: '0',
    miners: 0,
    workers: 0,
    profit: '0.000000006591796875',
    profit_avg_24h: '0.000000006591796875',
  });
  await savePrices(db, { source: 'bench', takenAt: now, quotes: [{ ticker: 'BTC', usd: '100000' }] });
  // What autovacuum would have done on a live database: planner statistics, and hint bits and the
  // visibility map set, so the timings are not of pages touched for the first time.
  await sql`vacuum analyze`.execute(db);
  return db.selectFrom('accounts').selectAll().where('username', '=', 'farm').executeTakeFirstOrThrow();
}

interface Timing {
  p50: number;
  p99: number;
  mean: number;
}

async function time(iterations: number, call: () => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < 3; i += 1) await call(); // warm-up: plans and caches
  const ms: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const began = performance.now();
    await call();
    ms.push(performance.now() - began);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)] ?? 0;
  return { p50: at(0.5), p99: at(0.99), mean: ms.reduce((a, b) => a + b, 0) / ms.length };
}

async function count(
  database: Database,
  table: 'worker_stats_minute' | 'worker_stats_hour' | 'account_stats_half_hour',
) {
  const row = await database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function main(): Promise<void> {
  const short = process.argv.includes('--short');
  const plan = short ? SHORT : FULL;
  // Half past the hour (and 30 s into its minute), so that the rolled part of the current hour is a
  // whole half hour and the seeded rollups agree with the seeded minute rows.
  const now = new Date(Math.floor(Date.now() / HOUR) * HOUR + 31 * MINUTE + 30_000);
  const began = performance.now();
  const database = await createTestDatabase();
  try {
    const account = await seed(database, plan, now);
    const seededIn = (performance.now() - began) / 1000;
    const ctx: MiningContext = {
      db: database.db,
      now: () => now,
      windowMinutes: 10,
      feePercent: 1,
      hashesPerDifficulty: powHashesPerDifficulty,
    };

    // The answers must be the real thing, or the timings mean nothing.
    const summary = await readMiningSummary(ctx, account, 'scrypt');
    const workers = await readMiningWorkers(ctx, account, 'scrypt');
    const chart = await readMiningChart(ctx, account, 'scrypt', 'Europe/Madrid');
    if (summary.total_workers !== WORKERS || summary.active_workers !== plan.activeWorkers) {
      throw new Error(`unexpected summary ${JSON.stringify(summary)}`);
    }
    if (workers.length !== WORKERS || chart.y_axis.some((y) => y <= 0)) throw new Error('unexpected workers or chart');

    const periods = miningPeriods(now, ctx.windowMinutes);
    const range = {
      account: account.username,
      algorithm: 'scrypt' as const,
      windowFrom: periods.window.from,
      windowMinutes: periods.window.minutes,
      dayFrom: periods.day.from,
      to: now,
    };
    const baseline = await time(plan.iterations, () => latestPoolStats(database.db));
    const rows: [string, Timing][] = [
      ['baseline: pool stats (latestPoolStats)', baseline],
      ['GET /user/mining (summary)', await time(plan.iterations, () => readMiningSummary(ctx, account, 'scrypt'))],
      [
        'GET /user/mining/chart',
        await time(plan.iterations, () => readMiningChart(ctx, account, 'scrypt', 'Europe/Madrid')),
      ],
      [
        `GET /user/mining/workers (${WORKERS} rows)`,
        await time(plan.iterations, () => readMiningWorkers(ctx, account, 'scrypt')),
      ],
      [
        '  of which the query (accountWorkerRows)',
        await time(plan.iterations, () => accountWorkerRows(database.db, range)),
      ],
    ];
    // The job's next run: the two newest minutes of the active workers, then retention.
    const rollBegan = performance.now();
    const rolled = await runWorkerRollup(database.db, new Date(now.getTime() + MINUTE));
    const rollMs = performance.now() - rollBegan;

    const [minutes, hours, halves] = [
      await count(database, 'worker_stats_minute'),
      await count(database, 'worker_stats_hour'),
      await count(database, 'account_stats_half_hour'),
    ];
    console.log(
      `bench:dashboard on ${database.engine}${short ? ' (--short)' : ''} — 1 account, ${WORKERS} scrypt workers (${plan.activeWorkers} active)`,
    );
    console.log(
      `  history: ${plan.historyDays} days of account half hours (${halves} rows), ${plan.workerHourDays} days of worker hours (${hours} rows), ${plan.minuteHours} h of minute rows (${minutes} rows); seeded in ${seededIn.toFixed(1)} s`,
    );
    console.log(
      `  ${'call'.padEnd(44)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'mean ms'.padStart(9)}   p50 × baseline`,
    );
    for (const [name, t] of rows) {
      console.log(
        `  ${name.padEnd(44)}${t.p50.toFixed(2).padStart(9)}${t.p99.toFixed(2).padStart(9)}${t.mean.toFixed(2).padStart(9)}   ${(t.p50 / baseline.p50).toFixed(1)}×`,
      );
    }
    console.log(
      `  (${plan.iterations} runs each after 3 warm-ups; p99 of ${plan.iterations} runs is their slowest but one or so)`,
    );
    console.log(
      `  worker-rollup run: ${rolled.batches} batches, ${rolled.rows} minute rows rolled, ${rolled.minutesDeleted} minute rows past retention deleted in ${rollMs.toFixed(0)} ms`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
