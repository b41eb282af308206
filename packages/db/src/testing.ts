import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createDatabase, type Database, type DatabaseEngine, MEMORY_DATA_DIR } from './connection.js';
import { migrate } from './migrator.js';
import { once } from './once.js';
import { insertAccount } from './queries/accounts.js';
import type { Inserted } from './queries/inserted.js';
import { insertUser } from './queries/users.js';
import type { Account, Executor } from './schema.js';

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
}

/**
 * A database of its own for one test or file: an in-memory PGlite, or on PostgreSQL a schema with a
 * random name that close() drops with everything in it. Close it in afterEach/afterAll.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<Database> {
  const url = testDatabaseUrl();
  const engine = options.engine ?? (url ? 'postgres' : 'pglite');
  let database: Database;
  if (engine === 'postgres') {
    if (!url) throw new Error('a PostgreSQL test database needs TEST_DATABASE_URL');
    database = await createSchemaDatabase(url);
  } else {
    database = await createDatabase({ dataDir: MEMORY_DATA_DIR });
  }
  if (options.migrate !== false) {
    try {
      await migrate(database);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

async function createSchemaDatabase(url: string): Promise<Database> {
  const schema = `test_${randomBytes(8).toString('hex')}`;
  const database = await createDatabase({ url, schema });
  const dropAndClose = once(async () => {
    try {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db);
    } finally {
      await database.close();
    }
  });
  return { ...database, close: dropAndClose };
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
