import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './connection.js';
import { createTestDatabase, emptyTestDatabase, insertTestAccount, testEngines } from './testing.js';

describe.each(testEngines())('emptyTestDatabase on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });

  const count = async (table: string) =>
    Number((await sql<{ n: string }>`select count(*) as n from ${sql.id(table)}`.execute(database.db)).rows[0]?.n);

  it('empties every table but the migrations and the coin catalogue, and restarts identities', async () => {
    const coins = await count('coins');
    const migrations = await count('schema_migrations');
    expect(coins).toBeGreaterThan(0);
    const first = await insertTestAccount(database.db, 'alice');
    await emptyTestDatabase(database.db);
    expect(await count('accounts')).toBe(0);
    expect(await count('users')).toBe(0);
    expect(await count('coins')).toBe(coins);
    expect(await count('schema_migrations')).toBe(migrations);
    // Identities start again: the next account gets the first account's id.
    expect((await insertTestAccount(database.db, 'bob')).id).toBe(first.id);
  });
});
