import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, expect, vi } from 'vitest';
import { createDatabase, type Database, type DatabaseEngine, MEMORY_DATA_DIR } from './connection.js';
import { migrate } from './migrator.js';
import { once } from './once.js';
import { PGliteDialect } from './pgliteDialect.js';
import { PGLITE_OPTIONS } from './pgliteOptions.js';
import { insertAccount } from './queries/accounts.js';
import type { Inserted } from './queries/inserted.js';
import { postLedgerTransaction } from './queries/ledger.js';
import { inTransaction } from './queries/payouts.js';
import { insertUser } from './queries/users.js';
import type { Account, DB, Executor } from './schema.js';
import { sessionSettings } from './session.js';
import {
  claimTestSchema,
  dropTestSchema,
  emptySchema,
  newTestSchemaName,
  recycleTestSchema,
  schemaFingerprint,
} from './testSchemas.js';

// Test helpers. Unlike the rest of the package they read process.env: TEST_DATABASE_URL points at a
// PostgreSQL database that tests may fill with throwaway schemas.

function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

/** The engines database tests must pass on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testEngines(): DatabaseEngine[] {
  return testDatabaseUrl() ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDatabaseOptions {
  /** Default: PostgreSQL when TEST_DATABASE_URL is set, else PGlite. */
  engine?: DatabaseEngine;
  /** Apply all migrations first (default true). */
  migrate?: boolean;
  /**
   * PostgreSQL only: open another connection pool on the schema of `sameAs` (a second process of
   * the same pool, say); closing it leaves the schema to `sameAs`.
   */
  sameAs?: Database;
  /** PostgreSQL only: the sessions' application_name (createDatabase's `applicationName`). */
  applicationName?: string;
}

/** The throwaway schema of each PostgreSQL test database, for `sameAs`. */
const testSchemas = new WeakMap<Database, string>();

/**
 * A database of its own for one test or file: an in-memory PGlite, or on PostgreSQL a schema with a
 * random name that close() empties and offers to the next test, or drops (testSchemas.ts). Close it in
 * afterEach/afterAll.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<Database> {
  const url = testDatabaseUrl();
  const engine = options.engine ?? (url ? 'postgres' : 'pglite');
  const migrated = options.migrate !== false;
  if (engine === 'pglite') {
    // The copy holds every migration already.
    return migrated
      ? createDatabase({ dataDir: MEMORY_DATA_DIR, startFrom: await migratedCopy() })
      : createDatabase({ dataDir: MEMORY_DATA_DIR });
  }
  if (!url) throw new Error('a PostgreSQL test database needs TEST_DATABASE_URL');
  if (options.sameAs === undefined) return createSchemaDatabase(url, options.applicationName, migrated);
  const joined = testSchemas.get(options.sameAs);
  if (joined === undefined) throw new Error('sameAs: not a PostgreSQL test database');
  return createDatabase({ url, schema: joined, applicationName: options.applicationName });
}

let migrated: Promise<Blob> | undefined;

/**
 * A migrated in-memory database's data directory, made once per process (per Vitest worker: the files
 * of a worker share modules): each PGlite test database starts from it, one CPU second instead of the
 * three of initdb and the migrations (CI opens hundreds).
 */
function migratedCopy(): Promise<Blob> {
  migrated ??= (async () => {
    const pglite = await PGlite.create(PGLITE_OPTIONS);
    try {
      const session = sessionSettings(undefined);
      await pglite.query(session.sql, session.parameters);
      const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
      await migrate({ db, engine: 'pglite', ping: async () => true, close: async () => undefined });
      return await pglite.dumpDataDir('none');
    } finally {
      await pglite.close();
    }
  })().catch((error: unknown) => {
    migrated = undefined;
    throw error;
  });
  return migrated;
}

/**
 * A PostgreSQL test database on a schema of its own: a recycled one when `migrated` and one is free
 * (testSchemas.ts), else a new one, migrated when `migrated`. Closing it recycles or drops the schema.
 */
async function createSchemaDatabase(url: string, applicationName: string | undefined, migrated: boolean) {
  const recycled = migrated ? await claimTestSchema(url) : undefined;
  const schema = recycled?.name ?? newTestSchemaName();
  const database = await createDatabase({ url, schema, applicationName }).catch(async (error: unknown) => {
    if (recycled) await dropTestSchema(url, schema).catch(() => undefined);
    throw error;
  });
  let fingerprint = recycled?.fingerprint;
  if (migrated && fingerprint === undefined) {
    try {
      await migrate(database);
      // The schema as the migrations left it: it is offered again only when it is so once more.
      fingerprint = await schemaFingerprint(database.db);
    } catch (error) {
      await recycleTestSchema(database, schema, undefined);
      throw error;
    }
  }
  const owned: Database = {
    ...database,
    close: once(async () => {
      await recycleTestSchema(database, schema, fingerprint);
    }),
  };
  testSchemas.set(owned, schema);
  return owned;
}

/**
 * Empties every table of a test database but the reference ones (the migrations' own record and the
 * coin catalogue), identities restarted: a test starts on a freshly migrated database without a
 * hand-kept list of tables that a new migration outgrows.
 */
export function emptyTestDatabase(db: Executor): Promise<void> {
  return emptySchema(db);
}

/**
 * Per worker, what its minute rows hold beyond the rollups (a subquery: worker_id, difficulty, valid, invalid, stale),
 * from the minute `since` on when given: before it, every row is rolled up.
 */
function minuteDeltasByWorker(since?: Date) {
  const from = since === undefined ? sql`` : sql`where minute >= ${since}`;
  return sql`select worker_id, sum(accepted_difficulty - rolled_difficulty) as difficulty,
                    sum(valid - rolled_valid) as valid, sum(invalid - rolled_invalid) as invalid,
                    sum(stale - rolled_stale) as stale
               from worker_stats_minute ${from} group by worker_id`;
}

/**
 * Workers whose unrolled figures are not what their minute rows hold beyond the rollups (migration 0034's invariant),
 * with both: a test that wrote shares, rolled them up or removed workers expects none.
 */
export async function workerUnrolledDrift(db: Executor): Promise<Record<string, unknown>[]> {
  const { rows } = await sql<Record<string, unknown>>`
    select w.account, w.name, w.unrolled_difficulty::text, w.unrolled_valid::text, w.unrolled_invalid::text,
           w.unrolled_stale::text, d.difficulty::text, d.valid::text, d.invalid::text, d.stale::text
      from workers w
      left join (${minuteDeltasByWorker()}) d on d.worker_id = w.id
     where w.unrolled_difficulty <> coalesce(d.difficulty, 0) or w.unrolled_valid <> coalesce(d.valid, 0)
        or w.unrolled_invalid <> coalesce(d.invalid, 0) or w.unrolled_stale <> coalesce(d.stale, 0)
  `.execute(db);
  return rows;
}

/**
 * Gives each worker the unrolled figures its minute rows call for, as accounting would have kept them: for seeds that
 * write minute rows directly (the dashboard benchmark). `since`: the oldest minute not wholly rolled up.
 */
export async function setWorkerUnrolledFromMinutes(db: Executor, since?: Date): Promise<void> {
  await sql`
    update workers w
       set unrolled_difficulty = d.difficulty, unrolled_valid = d.valid, unrolled_invalid = d.invalid,
           unrolled_stale = d.stale
      from (${minuteDeltasByWorker(since)}) d
     where d.worker_id = w.id
  `.execute(db);
}

/**
 * A migrated test database for the tests of one `describe` block on `engine`: created before them,
 * emptied before each, closed after them. Read `.database` inside a test or hook.
 */
export function useTestDatabase(engine: DatabaseEngine): { readonly database: Database } {
  let opened: Database | undefined;
  const current = () => {
    if (!opened) throw new Error('the test database is opened before the first test, not while tests are collected');
    return opened;
  };
  beforeAll(async () => {
    opened = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await opened?.close();
  });
  beforeEach(async () => {
    await emptyTestDatabase(current().db);
  });
  return {
    get database() {
      return current();
    },
  };
}

/** The row of an insert a test seeds with; a value already taken means the test itself is wrong. */
export function insertedRow<Row>(result: Inserted<Row, string>): Row {
  if (!result.ok) throw new Error(`the test seeds a ${result.taken} that is already taken`);
  return result.row;
}

/**
 * A user (`<name>@example.com`, no password) with one account named `name`, its keys and referral code
 * derived from the name: the account most tests seed.
 */
export async function insertTestAccount(db: Executor, name: string): Promise<Account> {
  const user = insertedRow(await insertUser(db, { email: `${name}@example.com`, passwordHash: null }));
  return insertedRow(
    await insertAccount(db, {
      userId: user.id,
      username: name,
      apiKey: `api-${name}`,
      observerKey: `observer-${name}`,
      referralCode: `REF${name.toUpperCase()}`,
    }),
  );
}

let seeded = 0;

/** Credits an account `amount` units of `coin` (an admin adjustment stands in for PPS credits). */
export async function seedBalance(db: Executor, accountId: bigint, coin: string, amount: bigint): Promise<void> {
  await inTransaction(db, (trx) =>
    postLedgerTransaction(trx, {
      key: `seed:${++seeded}:${accountId}:${coin}`,
      kind: 'admin_adjustment',
      legs: [
        { account: { accountId }, coin, amount, kind: 'admin_adjustment' },
        { account: { system: 'pool:adjustments' }, coin, amount: -amount, kind: 'admin_adjustment' },
      ],
    }),
  );
}

/** Payout settings of an account for a coin: its addresses with their proportions (text), in position order. */
export async function seedPayoutSettings(
  db: Executor,
  accountId: bigint,
  coin: string,
  addresses: readonly (readonly [string, string])[],
  over: { threshold?: string; interval?: string; pausedUntil?: Date | null } = {},
): Promise<void> {
  await db
    .insertInto('payout_settings')
    .values({
      account_id: accountId,
      ticker: coin,
      threshold: over.threshold ?? '0.01',
      interval_hours: over.interval ?? '1',
      paused_until: over.pausedUntil ?? null,
    })
    .execute();
  if (addresses.length === 0) return;
  await db
    .insertInto('payout_addresses')
    .values(
      addresses.map(([address, proportion], position) => ({
        account_id: accountId,
        ticker: coin,
        position,
        address,
        proportion,
      })),
    )
    .execute();
}

/** The PostgreSQL backend of a connection or open transaction: whose locks others may wait for. */
export async function backendPid(db: Executor): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
  const pid = rows[0]?.pid;
  if (pid === undefined) throw new Error('pg_backend_pid: no answer');
  return pid;
}

/**
 * Waits until PostgreSQL shows a session blocked by a lock of `holder` (a backend pid): a lock wait,
 * not mere slowness, and of this test's own sessions, not of the tests running beside it.
 */
export async function someSessionWaitsFor(db: Executor, holder: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const { rows } = await sql<{ blocked: number }>`
        select count(*)::int as blocked from pg_stat_activity where ${holder}::int = any(pg_blocking_pids(pid))
      `.execute(db);
      expect(rows[0]?.blocked).toBeGreaterThan(0);
    },
    { timeout: 5000, interval: 10 },
  );
}
