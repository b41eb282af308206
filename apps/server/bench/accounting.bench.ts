/**
 * npm run bench:accounting — share batches per second applied AND credited (PPS: valuation,
 * conversion, fee, referral, redirects, one balanced ledger transaction, carried fractions) with
 * 10,000 active workers in every batch, against the same batches applied for statistics only in the
 * same run: the ratio is what instant credits cost on top of the share accounting that already
 * existed. Each batch is first parsed with its contract schema, as the bus does before accounting
 * sees it; that parse is timed on its own too. PostgreSQL when TEST_DATABASE_URL is set (a throwaway
 * schema), the embedded database otherwise. `--short` applies fewer batches (CI proves it works).
 */
import { randomUUID } from 'node:crypto';
import { shareBatchMessage } from '@lodestone/contract';
import { type Database, reconcileLedger, savePrices } from '@lodestone/db';
import { createTestDatabase } from '@lodestone/db/testing';
import type { ShareBatch } from '@lodestone/domain';
import { sql } from 'kysely';
import { applyShareBatch, type CreditSettings } from '../src/jobs/accounting.js';

const WORKERS = 10_000;
const WORKERS_PER_ACCOUNT = 5;
const ACCOUNTS = WORKERS / WORKERS_PER_ACCOUNT;

async function seed(database: Database): Promise<void> {
  const db = database.db;
  const [user] = await sql<{ id: bigint }>`
    insert into users (email, password_hash) values ('bench@example.org', null) returning id
  `
    .execute(db)
    .then((r) => r.rows);
  if (!user) throw new Error('no user');
  // Accounts m0000…m1999; every 10th referred by m0000, every 7th redirects 5% to m0001, every 3rd
  // converts half of its scrypt earnings to BTC: the paths a real pool mixes.
  await sql`
    insert into accounts (user_id, username, api_key, observer_key, referral_code, fee_discount)
    select ${user.id}, 'm' || lpad(i::text, 4, '0'), 'api' || i, 'obs' || i, 'R' || lpad(i::text, 5, '0'),
           case when i % 4 = 0 then 0.25 else 0 end
      from generate_series(0, ${ACCOUNTS - 1}) i
  `.execute(db);
  await sql`update accounts set referred_by = (select id from accounts where username = 'm0000')
             where username <> 'm0000' and (substr(username, 2)::int) % 10 = 0`.execute(db);
  await sql`
    insert into redirect_settings (account_id, target_account_id, percentage)
    select a.id, t.id, 5 from accounts a, accounts t
     where t.username = 'm0001' and a.username <> 'm0001' and (substr(a.username, 2)::int) % 7 = 0
  `.execute(db);
  await sql`
    insert into conversion_settings (account_id, algorithm, ticker, proportion)
    select a.id, 'scrypt', c.ticker, 50 from accounts a, (values ('LTC'), ('BTC')) c(ticker)
     where (substr(a.username, 2)::int) % 3 = 0
  `.execute(db);
}

function batch(n: number, start: number): ShareBatch {
  const workers = Array.from({ length: WORKERS }, (_, i) => ({
    account: `m${String(Math.floor(i / WORKERS_PER_ACCOUNT)).padStart(4, '0')}`,
    worker: `rig${i % WORKERS_PER_ACCOUNT}`,
    acceptedDifficulty: 65_536 * (1 + (i % 3)),
    valid: 1 + (i % 3),
    invalid: i % 50 === 0 ? 1 : 0,
    stale: 0,
    lastShareAt: start + n * 5000 + 4000,
    rejectReasons: {},
  }));
  return {
    id: randomUUID(),
    node: 'bench',
    algorithm: 'scrypt',
    intervalStart: start + n * 5000,
    intervalEnd: start + (n + 1) * 5000,
    workers,
    network: { coin: 'LTC', height: 2_900_000, reward: '625000000', difficulty: '45000000.5', demo: false },
  };
}

async function run(database: Database, batches: number, credit: CreditSettings | undefined, start: number) {
  let parsing = 0;
  const began = performance.now();
  for (let n = 0; n < batches; n += 1) {
    const message = batch(n, start);
    const parseBegan = performance.now();
    const parsed = shareBatchMessage.parse(message);
    parsing += performance.now() - parseBegan;
    await applyShareBatch(database.db, parsed, credit);
  }
  const seconds = (performance.now() - began) / 1000;
  return { batches, seconds, perSecond: batches / seconds, parseMs: parsing / batches };
}

async function main(): Promise<void> {
  const short = process.argv.includes('--short');
  const batches = short ? 3 : 20;
  const database = await createTestDatabase();
  try {
    await seed(database);
    const now = new Date();
    await savePrices(database.db, {
      source: 'bench',
      takenAt: now,
      quotes: [
        { ticker: 'LTC', usd: '80' },
        { ticker: 'BTC', usd: '100000' },
      ],
    });
    const credit: CreditSettings = { feePercent: 1, priceMaxAgeMs: 86_400_000 };
    // Warm-up: creates the workers, ledger accounts and balance rows both runs then update.
    await run(database, 1, credit, Date.parse('2026-01-01T00:00:00Z'));
    const baseline = await run(database, batches, undefined, Date.parse('2026-01-02T00:00:00Z'));
    const credited = await run(database, batches, credit, Date.parse('2026-01-03T00:00:00Z'));
    const problems = await reconcileLedger(database.db);
    if (problems.length > 0) throw new Error(`ledger does not reconcile: ${JSON.stringify(problems.slice(0, 3))}`);
    const entries = await database.db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    console.log(`bench:accounting on ${database.engine} — ${WORKERS} workers, ${ACCOUNTS} accounts per batch`);
    console.log(
      `  statistics only (baseline): ${baseline.perSecond.toFixed(2)} batches/s (${(baseline.seconds / batches).toFixed(3)} s per batch)`,
    );
    console.log(
      `  statistics + PPS credits:   ${credited.perSecond.toFixed(2)} batches/s (${(credited.seconds / batches).toFixed(3)} s per batch)`,
    );
    console.log(`  ratio credited / baseline: ${(credited.perSecond / baseline.perSecond).toFixed(2)}`);
    console.log(
      `  contract parse of a batch (the bus, included above): ${((baseline.parseMs + credited.parseMs) / 2).toFixed(2)} ms`,
    );
    console.log(
      `  a node flushes one batch per algorithm every 5 s: headroom ${(credited.perSecond * 5).toFixed(1)}× ; ledger entries written: ${entries.n}; ledger reconciles`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
