/**
 * npm run bench:dashboard — the dashboard's calls for an account with 10,000 workers and a year of
 * statistics and money, timed through the HTTP API as the browser makes them (a real connection on
 * the loopback, session cookie, input and response schemas, JSON), against the pool stats read the
 * public pages make in the same run (the baseline). PostgreSQL when TEST_DATABASE_URL is set (a throwaway
 * schema), the embedded database otherwise. `--short` seeds 30 days of history and fewer active
 * workers so CI proves it works in well under a minute.
 *
 * The data is what the tables hold after a year of mining under the retention of the worker-rollup
 * job (docs/dashboard.md): account half hours for the whole period, worker hours for the last 8
 * days (every worker in every hour: the worst case for the workers table), the workers' period totals,
 * minute rows for the last 48 hours of the active workers, and the newest two minutes not rolled up
 * yet (the most the job leaves, a few seconds before its run); for the Revenue tab, earnings in every
 * quarter hour of the period in two coins, and an hourly payout for the whole period.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  chartResponse,
  miningSummaryResponse,
  miningWorkersPageResponse,
  miningWorkersResponse,
  revenueBalanceResponse,
  revenueEarningsResponse,
  revenuePayoutsResponse,
} from '@lodestone/contract';
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
import { createTestDatabase, setWorkerUnrolledFromMinutes } from '@lodestone/db/testing';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { parseConfig } from '../src/config/config.js';
import { runWorkerRollup } from '../src/jobs/workerRollup.js';
import { SESSION_COOKIE, Sessions } from '../src/services/auth/sessions.js';
import { miningPeriods } from '../src/services/mining.js';
import { describeStratum } from '../src/services/stratumInfo.js';

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

const FULL: Plan = { historyDays: 365, workerHourDays: 8, activeWorkers: 5_000, minuteHours: 48, iterations: 100 };
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
  // Their last accepted shares too, so every worker's state is judged (online, or offline two hours on), not
  // skipped as never seen.
  await sql`update workers set last_accepted_at = last_share_at`.execute(db);
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
  // What those two minutes hold, on their workers' rows as accounting keeps it beside them (migration 0034).
  await setWorkerUnrolledFromMinutes(db, unrolledFrom);
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
      dayPeriod(new Date(hourNow - DAY + HOUR)),
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
  await savePrices(db, {
    source: 'bench',
    takenAt: now,
    quotes: [
      { ticker: 'BTC', usd: '100000' },
      { ticker: 'LTC', usd: '85.5' },
      { ticker: 'DOGE', usd: '0.21' },
    ],
  });
  // The Revenue tab: the account's ledger account with balances in two coins, its earnings in every
  // quarter hour of the period (LTC from its SCRYPT shares, and DOGE for the last half of it), and an
  // hourly payout of LTC with one item. Written straight to the rollup and payout tables: this
  // measures their reads, and the ledger's own writes are benchmarked by bench:accounting.
  const period = { from: new Date(hourNow - plan.historyDays * DAY), to: new Date(minuteNow) };
  await sql`insert into ledger_accounts (account_id) select id from accounts where username = 'farm'`.execute(db);
  await sql`
    insert into balances (ledger_account_id, coin, amount, may_be_negative)
    select la.id, c.coin, c.amount, false
      from ledger_accounts la join accounts a on a.id = la.account_id,
           (values ('LTC', 123456789::numeric), ('DOGE', 98765432100::numeric)) c (coin, amount)
     where a.username = 'farm'
  `.execute(db);
  await sql`
    insert into earnings_quarter_hours (ledger_account_id, coin, algorithm, bucket, amount)
    select la.id, c.coin, 'scrypt', q, c.amount
      from ledger_accounts la join accounts a on a.id = la.account_id,
           generate_series(${period.from}::timestamptz, ${period.to}::timestamptz - interval '15 minutes', interval '15 minutes') q,
           (values ('LTC', 28571::numeric, 0), ('DOGE', 1234567::numeric, 1)) c (coin, amount, half)
     where a.username = 'farm'
       and (c.half = 0 or q >= ${new Date(hourNow - (plan.historyDays / 2) * DAY)}::timestamptz)
  `.execute(db);
  await sql`
    with made as (
      insert into payouts (idempotency_key, coin, status, total, fee, txid, demo, created_at, sending_at, sent_at)
      select 'bench:' || extract(epoch from h)::bigint, 'LTC', 'sent', 2742857, 10000,
             md5(h::text) || md5(h::text || 'x'), false, h, h, h + interval '1 second'
        from generate_series(${period.from}::timestamptz, ${period.to}::timestamptz - interval '1 hour', interval '1 hour') h
      returning id
    )
    insert into payout_items (payout_id, account_id, address, amount)
    select made.id, a.id, 'ltc1qg82tegrn2ewqnwh5tk8hj3rvjw4fq8sqrrde9e', 2742857
      from made, accounts a where a.username = 'farm'
  `.execute(db);
  // What autovacuum would have done on a live database: planner statistics, and hint bits and the
  // visibility map set, so the timings are not of pages touched for the first time. Only this
  // database's own tables: on TEST_DATABASE_URL, the schemas of tests running beside it are not ours.
  const { rows: tables } = await sql<{ name: string }>`
    select tablename as name from pg_tables where schemaname = current_schema()
  `.execute(db);
  await sql`vacuum analyze ${sql.join(tables.map((t) => sql.id(t.name)))}`.execute(db);
  return db.selectFrom('accounts').selectAll().where('username', '=', 'farm').executeTakeFirstOrThrow();
}

/** The app on the seeded database, its clock at `now`, and a session cookie of the account's owner. */
async function startApp(database: Database, account: Account, now: Date) {
  const config = parseConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'lodestone-bench-')),
    STATS_WINDOW_MINUTES: '10',
    FEE_PERCENT: '1',
  });
  const app = await buildApp({
    config,
    database,
    network: { demo: false },
    stratum: () => describeStratum(config),
    logger: false,
    now: () => now,
  });
  // The server's own time per request (received → response written): what its request-duration
  // metric reports, without the client's reading in this same process.
  const served: number[] = [];
  app.addHook('onResponse', async (_request, reply) => {
    served.push(reply.elapsedTime);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const token = await new Sessions(database.db, 3_600_000, () => now).create(account.user_id);
  const headers = { cookie: `${SESSION_COOKIE}=${token}` };
  /**
   * One GET of the dashboard over a real connection, as the browser sends it, timed until the whole
   * body has arrived; anything but a 200 stops the run.
   */
  const call = async (url: string, query: Record<string, string>): Promise<Buffer> => {
    const res = await fetch(`http://127.0.0.1:${address.port}${url}?${new URLSearchParams(query)}`, { headers });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.toString('utf8', 0, 200)}`);
    return body;
  };
  return { app, call, served };
}

interface Timing {
  p50: number;
  p99: number;
  mean: number;
}

function timing(ms: number[]): Timing {
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)] ?? 0;
  return { p50: at(0.5), p99: at(0.99), mean: ms.reduce((a, b) => a + b, 0) / ms.length };
}

async function time(iterations: number, call: () => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < 3; i += 1) await call(); // warm-up: plans and caches
  const ms: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const began = performance.now();
    await call();
    ms.push(performance.now() - began);
  }
  return timing(ms);
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
    const { app, call, served } = await startApp(database, account, now);
    try {
      const own = { account_name: account.username };
      const mining = { ...own, algorithm: 'scrypt' };
      const zoned = { ...mining, timezone: 'Europe/Madrid' };
      const calls: [string, string, Record<string, string>][] = [
        ['GET /user/mining (summary)', '/v1/user/mining', mining],
        ['GET /user/mining/chart', '/v1/user/mining/chart', zoned],
        [`GET /user/mining/workers (${WORKERS} rows)`, '/v1/user/mining/workers', mining],
        ['GET /user/mining/workers/page (the table)', '/v1/user/mining/workers/page', mining],
        [
          '  … sorted by hashrate, searched, page 40',
          '/v1/user/mining/workers/page',
          { ...mining, sort: 'hashrate', direction: 'desc', search: 'rig0', page: '40' },
        ],
        ['GET /user/mining/workers/matching (all)', '/v1/user/mining/workers/matching', mining],
        ['GET /user/revenue/balance', '/v1/user/revenue/balance', own],
        ['GET /user/revenue/payouts', '/v1/user/revenue/payouts', { ...own, timezone: 'Europe/Madrid' }],
        ['GET /user/revenue/earnings', '/v1/user/revenue/earnings', zoned],
        ['GET /user/revenue/lifetimeearnings', '/v1/user/revenue/lifetimeearnings', zoned],
        ['GET /user/revenue/chart', '/v1/user/revenue/chart', zoned],
      ];

      // The answers must be the real thing, or the timings mean nothing.
      const answer = async (url: string, query: Record<string, string>) =>
        JSON.parse((await call(url, query)).toString('utf8')) as unknown;
      const summary = miningSummaryResponse.parse(await answer('/v1/user/mining', mining));
      const workersBody = await call('/v1/user/mining/workers', mining);
      const workers = miningWorkersResponse.parse(JSON.parse(workersBody.toString('utf8')));
      const chart = chartResponse.parse(await answer('/v1/user/mining/chart', zoned));
      const balances = revenueBalanceResponse.parse(await answer('/v1/user/revenue/balance', own));
      const payouts = revenuePayoutsResponse.parse(
        await answer('/v1/user/revenue/payouts', { ...own, timezone: 'Europe/Madrid' }),
      );
      const earnings = revenueEarningsResponse.parse(await answer('/v1/user/revenue/earnings', zoned));
      if (summary.total_workers !== WORKERS || summary.active_workers !== plan.activeWorkers) {
        throw new Error(`unexpected summary ${JSON.stringify(summary)}`);
      }
      if (workers.length !== WORKERS || chart.y_axis.some((y) => y <= 0)) {
        throw new Error('unexpected workers or chart');
      }
      const table = miningWorkersPageResponse.parse(await answer('/v1/user/mining/workers/page', mining));
      if (table.total !== WORKERS || table.workers.length !== 10 || table.states.online !== plan.activeWorkers) {
        throw new Error(`unexpected workers page ${JSON.stringify({ ...table, workers: table.workers.length })}`);
      }
      if (balances.length !== 2 || payouts.length === 0 || earnings.length === 0) {
        throw new Error('unexpected balances, payouts or earnings');
      }

      const periods = miningPeriods(now, 10);
      const range = {
        account: account.username,
        algorithm: 'scrypt' as const,
        windowFrom: periods.window.from,
        windowMinutes: periods.window.minutes,
        dayFrom: periods.day.from,
        to: now,
      };
      const baseline = await time(plan.iterations, () => latestPoolStats(database.db));
      const rows: [string, Timing, Timing?][] = [['baseline: pool stats (latestPoolStats)', baseline]];
      for (const [name, url, query] of calls) {
        served.length = 0;
        const client = await time(plan.iterations, () => call(url, query));
        rows.push([name, client, timing(served.slice(-plan.iterations))]);
        if (url === '/v1/user/mining/workers') {
          rows.push([
            '  of which the query (accountWorkerRows)',
            await time(plan.iterations, () => accountWorkerRows(database.db, range)),
          ]);
        }
      }
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
        `  ${'call'.padEnd(44)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'mean ms'.padStart(9)}${'server p50'.padStart(12)}${'server p99'.padStart(12)}   p50 × baseline`,
      );
      const ms = (n: number | undefined, width: number) => (n === undefined ? '' : n.toFixed(2)).padStart(width);
      for (const [name, t, server] of rows) {
        console.log(
          `  ${name.padEnd(44)}${ms(t.p50, 9)}${ms(t.p99, 9)}${ms(t.mean, 9)}${ms(server?.p50, 12)}${ms(server?.p99, 12)}   ${(t.p50 / baseline.p50).toFixed(1)}×`,
        );
      }
      console.log(
        '  (p50 / p99 / mean: the whole call as the client sees it, body received; server: received → response written)',
      );
      console.log(
        `  (${plan.iterations} runs each after 3 warm-ups; p99 of ${plan.iterations} runs is their slowest but one or so)`,
      );
      console.log(`  workers list: ${(workersBody.length / 1e6).toFixed(2)} MB of JSON for ${workers.length} workers`);
      console.log(
        `  worker-rollup run: ${rolled.batches} batches, ${rolled.rows} minute rows rolled, ${rolled.minutesDeleted} minute rows past retention deleted in ${rollMs.toFixed(0)} ms`,
      );
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
