import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from './checksum.js';
import { createDatabase, type Database } from './connection.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import { MigrationError, migrate } from './migrator.js';
import { createTestDatabase, testEngines } from './testing.js';

const broken: Migration = {
  version: 9000,
  name: 'broken',
  sql: 'create table half_done (id integer);\ninsert into half_done values (1);\nselect 1 / 0;',
};

async function tableExists(database: Database, table: string): Promise<boolean> {
  const { rows } = await sql<{ found: string | null }>`select to_regclass(${table})::text as found`.execute(
    database.db,
  );
  return rows[0]?.found != null;
}

describe.each(testEngines())('migrate on %s', (engine) => {
  let database: Database;
  beforeEach(async () => {
    database = await createTestDatabase({ engine, migrate: false });
  });
  afterEach(async () => {
    await database.close();
  });

  it('applies every migration once, records it, and does nothing on a re-run', async () => {
    expect(await migrate(database)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(database)).toEqual([]);

    const rows = await database.db.selectFrom('schema_migrations').selectAll().orderBy('version').execute();
    expect(rows.map(({ version, name, checksum }) => ({ version, name, checksum }))).toEqual(
      MIGRATIONS.map((m) => ({ version: m.version, name: m.name, checksum: sha256Hex(m.sql) })),
    );
    expect(rows[0]?.applied_at).toBeInstanceOf(Date);
    expect(await tableExists(database, 'pool_stats')).toBe(true);
  });

  it('refuses a database newer than this build', async () => {
    await migrate(database);
    await database.db
      .insertInto('schema_migrations')
      .values({ version: 9999, name: 'future', checksum: 'x' })
      .execute();

    const error = await migrate(database).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect(error).toMatchObject({ reason: 'newer-database' });
    expect((error as Error).message).toBe(
      `database schema version 9999 is newer than this build (max ${MIGRATIONS.at(-1)?.version}); refusing to run`,
    );
  });

  it('refuses an applied migration whose file changed', async () => {
    await migrate(database);
    const edited = MIGRATIONS.map((m, i) => (i === 0 ? { ...m, sql: `${m.sql}\n-- edited` } : m));

    await expect(migrate(database, edited)).rejects.toMatchObject({
      name: 'MigrationError',
      reason: 'checksum-mismatch',
      message: expect.stringContaining('migration 0001_pool_stats.sql changed after it was applied'),
    });
  });

  it('refuses a database with a migration this build does not have', async () => {
    await migrate(database, [...MIGRATIONS, { version: 8000, name: 'extra', sql: 'select 1' }]);

    await expect(migrate(database, [...MIGRATIONS, { ...broken, version: 9001 }])).rejects.toMatchObject({
      reason: 'unknown-version',
      message: expect.stringContaining('8000_extra.sql'),
    });
  });

  it('refuses a pending migration older than an applied one', async () => {
    await migrate(database, [...MIGRATIONS, { version: 8000, name: 'later', sql: 'select 1' }]);

    await expect(
      migrate(database, [
        ...MIGRATIONS,
        { version: 7000, name: 'earlier', sql: 'select 1' },
        { version: 8000, name: 'later', sql: 'select 1' },
      ]),
    ).rejects.toMatchObject({ reason: 'out-of-order', message: expect.stringContaining('7000_earlier.sql') });
  });

  it('rolls back a failing migration and names it with the SQL error', async () => {
    const error = await migrate(database, [...MIGRATIONS, broken]).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MigrationError);
    expect(error).toMatchObject({ reason: 'failed' });
    expect((error as Error).message).toBe(
      'migration 9000_broken.sql failed and was rolled back: division by zero (SQLSTATE 22012)',
    );
    // The migrations before it stay applied; nothing of the broken one is left.
    expect(await tableExists(database, 'pool_stats')).toBe(true);
    expect(await tableExists(database, 'half_done')).toBe(false);
    const versions = await database.db.selectFrom('schema_migrations').select('version').execute();
    expect(versions.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('0034 gives each worker what its minute rows hold beyond the rollups', async () => {
    await migrate(
      database,
      MIGRATIONS.filter((m) => m.version < 34),
    );
    const { rows: workers } = await sql<{ id: string; name: string }>`
      insert into workers (account, algorithm, name, first_seen_at, last_share_at, total_accepted_difficulty)
      values ('alice', 'scrypt', 'rig1', now(), now(), 0), ('alice', 'scrypt', 'rig2', now(), now(), 0),
             ('alice', 'scrypt', 'rig3', now(), now(), 0)
      returning id::text, name`.execute(database.db);
    const id = (name: string) => workers.find((w) => w.name === name)?.id;
    // rig1: one minute wholly rolled, one half rolled, one not at all; rig2: everything rolled; rig3: no rows.
    await sql`
      insert into worker_stats_minute (worker_id, algorithm, minute, accepted_difficulty, valid, invalid, stale,
                                       rolled_difficulty, rolled_valid, rolled_invalid, rolled_stale)
      values (${id('rig1')}, 'scrypt', '2024-05-06 10:00+00', 10.5, 3, 1, 0, 10.5, 3, 1, 0),
             (${id('rig1')}, 'scrypt', '2024-05-06 10:01+00', 20, 4, 2, 1, 5, 1, 2, 0),
             (${id('rig1')}, 'scrypt', '2024-05-06 10:02+00', 0.25, 1, 0, 0, 0, 0, 0, 0),
             (${id('rig2')}, 'scrypt', '2024-05-06 10:00+00', 7, 7, 0, 0, 7, 7, 0, 0)`.execute(database.db);
    await migrate(database);
    const { rows } = await sql<{ name: string; figures: string }>`
      select name, concat_ws(' ', unrolled_difficulty, unrolled_valid, unrolled_invalid, unrolled_stale) as figures
        from workers order by name`.execute(database.db);
    expect(rows).toEqual([
      { name: 'rig1', figures: '15.25 4 0 1' },
      { name: 'rig2', figures: '0 0 0 0' },
      { name: 'rig3', figures: '0 0 0 0' },
    ]);
  });

  it('refuses a list that is not strictly increasing', async () => {
    const twice = [...MIGRATIONS, ...MIGRATIONS];
    await expect(migrate(database, twice)).rejects.toMatchObject({ reason: 'invalid-list' });
    expect(await tableExists(database, 'schema_migrations')).toBe(false);
  });
});

describe.runIf(testEngines().includes('postgres'))('migrate on postgres, two processes at once', () => {
  it('applies each migration once: the advisory lock makes the second wait and find nothing to do', async () => {
    const url = process.env.TEST_DATABASE_URL as string;
    const schema = `test_race_${Date.now().toString(36)}`;
    const first = await createDatabase({ url, schema });
    const second = await createDatabase({ url, schema });
    // A slow first migration widens the window in which the second would otherwise start it too.
    const slow: Migration[] = [{ version: 1, name: 'slow', sql: 'select pg_sleep(0.3); create table raced (id int);' }];
    try {
      const results = await Promise.all([migrate(first, slow), migrate(second, slow)]);
      expect(results.map((r) => r.length).sort()).toEqual([0, 1]);
    } finally {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(first.db);
      await Promise.all([first.close(), second.close()]);
    }
  });
});
