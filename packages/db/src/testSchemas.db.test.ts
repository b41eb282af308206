import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDatabase, type Database } from './connection.js';
import { migrate } from './migrator.js';
import { insertTestAccount } from './testing.js';
import { claimTestSchema, newTestSchemaName, recycleTestSchema, schemaFingerprint } from './testSchemas.js';

const url = process.env.TEST_DATABASE_URL;

describe.runIf(url)('recycled PostgreSQL test schemas', () => {
  const adminUrl = url as string;

  async function freshSchema() {
    const schema = newTestSchemaName();
    const database = await createDatabase({ url: adminUrl, schema });
    await migrate(database);
    return { schema, database, fingerprint: await schemaFingerprint(database.db) };
  }

  async function withAdmin<T>(use: (database: Database) => Promise<T>): Promise<T> {
    const admin = await createDatabase({ url: adminUrl });
    try {
      return await use(admin);
    } finally {
      await admin.close();
    }
  }

  const schemaExists = (name: string) =>
    withAdmin(async ({ db }) => {
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_namespace where nspname = ${name}`.execute(db);
      return rows[0]?.n === 1;
    });

  it('offers a used schema again: emptied, identities restarted, renamed, as fresh as a new one', async () => {
    const { schema, database, fingerprint } = await freshSchema();
    const first = await insertTestAccount(database.db, 'alice');
    await insertTestAccount(database.db, 'bob');
    const offered = await recycleTestSchema(database, schema, fingerprint);

    expect(offered).toMatch(/^test_[0-9a-f]{16}$/);
    expect(await schemaExists(schema)).toBe(false);
    const again = await createDatabase({ url: adminUrl, schema: offered as string });
    try {
      expect(await schemaFingerprint(again.db)).toBe(fingerprint);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from accounts`.execute(again.db);
      expect(rows[0]?.n).toBe(0);
      expect(
        (await sql<{ n: number }>`select count(*)::int as n from coins`.execute(again.db)).rows[0]?.n,
      ).toBeGreaterThan(0);
      expect((await insertTestAccount(again.db, 'carol')).id).toBe(first.id);
    } finally {
      // Back to the registry's care is not this test's business: it drops what it made.
      await recycleTestSchema(again, offered as string, undefined);
      await withAdmin(({ db }) => sql`delete from public.lodestone_test_schemas where name = ${offered}`.execute(db));
    }
  });

  it.each([
    ['a table added', sql`create table extra (x int)`],
    ['a column added', sql`alter table accounts add column extra int`],
    ['an index dropped', sql`drop index accounts_user`],
    ['a coin of the catalogue edited', sql`update coins set name = name || ' (edited)' where ticker = 'LTC'`],
    ['a function replaced', sql`create function extra() returns int language sql as 'select 1'`],
  ])('drops a schema a test changed (%s) instead of offering it', async (_, statement) => {
    const { schema, database, fingerprint } = await freshSchema();
    await statement.execute(database.db);
    expect(await recycleTestSchema(database, schema, fingerprint)).toBeUndefined();
    expect(await schemaExists(schema)).toBe(false);
  });

  it('drops a schema whose fresh state is unknown (not migrated by createTestDatabase)', async () => {
    const schema = newTestSchemaName();
    const database = await createDatabase({ url: adminUrl, schema });
    expect(await recycleTestSchema(database, schema, undefined)).toBeUndefined();
    expect(await schemaExists(schema)).toBe(false);
  });

  it('gives each offered schema to one claimant only', async () => {
    const offered = await Promise.all(
      [0, 1].map(async () => {
        const { schema, database, fingerprint } = await freshSchema();
        return recycleTestSchema(database, schema, fingerprint);
      }),
    );
    const claims = await Promise.all([0, 1, 2, 3, 4, 5].map(() => claimTestSchema(adminUrl)));
    expect(offered.every((name) => name !== undefined)).toBe(true);
    // Other files of the run offer and claim too: which schemas these claims get is open, but never one twice,
    // and a claimed one leaves the registry.
    const names = claims.flatMap((claim) => (claim === undefined ? [] : [claim.name]));
    expect(new Set(names).size).toBe(names.length);
    const registered = await withAdmin(async ({ db }) => {
      const { rows } = await sql<{ name: string }>`select name from public.lodestone_test_schemas`.execute(db);
      return rows.map((r) => r.name);
    });
    for (const name of names) {
      expect(registered).not.toContain(name);
      expect(await schemaExists(name)).toBe(true);
      await withAdmin(({ db }) => sql`drop schema ${sql.id(name)} cascade`.execute(db));
    }
  });
});
