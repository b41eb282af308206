import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDatabase, type Database, type DatabaseLogEvent, MEMORY_DATA_DIR } from './connection.js';
import { migrate } from './migrator.js';
import { createTestDatabase, testEngines } from './testing.js';

describe('createDatabase options', () => {
  it.each([
    ['mysql://root@localhost/pool', "DATABASE_URL: unsupported scheme 'mysql:'"],
    ['sqlite:///var/pool.db', "DATABASE_URL: unsupported scheme 'sqlite:'"],
    ['127.0.0.1:5432', 'DATABASE_URL: not a URL'],
  ])('refuses DATABASE_URL %s, naming the setting', async (url, message) => {
    await expect(createDatabase({ url })).rejects.toThrow(
      `${message}; use postgres:// or postgresql://, or leave it unset for the embedded database`,
    );
  });

  it('never echoes the rest of the URL, which may hold a password', async () => {
    await expect(createDatabase({ url: 'mysql://pool:s3cret@db/pool' })).rejects.not.toThrow(/s3cret/);
  });

  it('fails at start-up, naming DATABASE_URL, when PostgreSQL is unreachable', async () => {
    await expect(createDatabase({ url: 'postgres://postgres@127.0.0.1:1/none' })).rejects.toThrow(
      /^DATABASE_URL: cannot use the PostgreSQL database: .*ECONNREFUSED/,
    );
  });

  it('requires dataDir for the embedded database rather than silently keeping it in memory', async () => {
    await expect(createDatabase({})).rejects.toThrow(/dataDir is required for the embedded database/);
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(createDatabase({ dataDir: MEMORY_DATA_DIR, schema: 'x"; drop table y' })).rejects.toThrow(
      /schema: .* is not a lowercase identifier/,
    );
  });
});

describe('an in-memory embedded database started from a copy', () => {
  it('holds what the copied database held, and changes apart from it', async () => {
    const source = await PGlite.create();
    await source.exec('create table kept (n int); insert into kept values (7);');
    const copy = await source.dumpDataDir('none');
    await source.close();
    const first = await createDatabase({ dataDir: MEMORY_DATA_DIR, startFrom: copy });
    const second = await createDatabase({ dataDir: MEMORY_DATA_DIR, startFrom: copy });
    try {
      await sql`insert into kept values (8)`.execute(first.db);
      const count = async (d: Database) =>
        (await sql<{ n: number }>`select count(*)::int as n from kept`.execute(d.db)).rows[0]?.n;
      expect(await count(first)).toBe(2);
      expect(await count(second)).toBe(1);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('is refused for a database on disk, where it would be ignored', async () => {
    const startFrom = new Blob([]);
    await expect(createDatabase({ dataDir: tmpdir(), startFrom })).rejects.toThrow(
      'startFrom is for an in-memory embedded database in this thread only',
    );
  });
});

describe('embedded database on disk', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lodestone-db-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps its data across close and reopen', async () => {
    const first = await createDatabase({ dataDir: dir });
    expect(first.engine).toBe('pglite');
    await migrate(first);
    await first.db
      .insertInto('pool_stats')
      .values({
        algorithm: 'x11',
        taken_at: new Date('2024-05-06T07:08:09.123Z'),
        hashrate: '1234.5',
        miners: 3,
        workers: 4,
        profit: '0.000000000001',
        profit_avg_24h: '0.000000000002',
      })
      .execute();
    await first.close();

    const second = await createDatabase({ dataDir: dir });
    try {
      expect(await migrate(second)).toEqual([]);
      const rows = await second.db.selectFrom('pool_stats').select(['algorithm', 'taken_at', 'hashrate']).execute();
      expect(rows).toEqual([{ algorithm: 'x11', taken_at: new Date('2024-05-06T07:08:09.123Z'), hashrate: '1234.5' }]);
    } finally {
      await second.close();
    }
  });
});

describe('embedded database, one session', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase({ engine: 'pglite', migrate: false });
    await sql`create table markers (seq integer generated always as identity primary key, who text not null)`.execute(
      database.db,
    );
  });
  afterAll(async () => {
    await database.close();
  });

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('never interleaves the statements of concurrent transactions', async () => {
    const { db } = database;
    const transaction = (who: string) =>
      db.transaction().execute(async (trx) => {
        for (let i = 0; i < 3; i++) {
          await sql`insert into markers (who) values (${who})`.execute(trx);
          await pause(15); // plenty of time for the other one to slip in, were it allowed
        }
      });
    // Two transactions and a lone statement, all started in the same tick.
    await Promise.all([transaction('a'), transaction('b'), sql`insert into markers (who) values ('c')`.execute(db)]);

    const { rows } = await sql<{ who: string }>`select who from markers order by seq`.execute(db);
    const sequence = rows.map((r) => r.who).join('');
    // Each writer's rows form one contiguous run, whichever went first.
    const runs = [...sequence.matchAll(/(.)\1*/g)].map((m) => m[0]);
    expect(runs.sort()).toEqual(['aaa', 'bbb', 'c']);
  });

  it('releases the session after a failed transaction', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`insert into markers (who) values ('rolled back')`.execute(trx);
        await sql`select 1 / 0`.execute(trx);
      }),
    ).rejects.toThrow('division by zero');
    const { rows } = await sql<{ n: bigint }>`select count(*) as n from markers where who = 'rolled back'`.execute(
      database.db,
    );
    expect(rows).toEqual([{ n: 0n }]);
  });
});

describe.each(testEngines())('on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });

  it('reports its engine and answers ping', async () => {
    expect(database.engine).toBe(engine);
    expect(await database.ping()).toBe(true);
  });

  it('parses column types the same way on both engines', async () => {
    const { rows } = await sql<Record<string, unknown>>`
      select
        12345678901234567890123456789.000000000000000000001::numeric as numeric,
        1.10::numeric as numeric_scale,
        array[1.5, 2.25]::numeric[] as numeric_array,
        9007199254740993::int8 as int8_big,
        1::int8 as int8_small,
        count(*) as count,
        array[1, 2]::int8[] as int8_array,
        42::int4 as int4,
        '2024-05-06 07:08:09.123456+02'::timestamptz as timestamptz,
        array['2024-01-01 00:00:00+00']::timestamptz[] as timestamptz_array,
        '2024-05-06 07:08:09'::timestamp as timestamp,
        '2024-05-06'::date as date,
        '1 day 02:00:00'::interval as interval,
        null::numeric as null_numeric,
        true as bool,
        '{"a": 1}'::jsonb as jsonb
    `.execute(database.db);
    expect(rows[0]).toStrictEqual({
      numeric: '12345678901234567890123456789.000000000000000000001',
      numeric_scale: '1.10',
      numeric_array: ['1.5', '2.25'],
      int8_big: 9007199254740993n,
      int8_small: 1n,
      count: 1n,
      int8_array: [1n, 2n],
      int4: 42,
      timestamptz: new Date('2024-05-06T05:08:09.123Z'),
      timestamptz_array: [new Date('2024-01-01T00:00:00.000Z')],
      timestamp: '2024-05-06 07:08:09',
      date: '2024-05-06',
      interval: '1 day 02:00:00',
      null_numeric: null,
      bool: true,
      jsonb: { a: 1 },
    });
  });

  it('round-trips parameters exactly: bigint, numeric strings and Dates', async () => {
    const at = new Date('1999-12-31T23:59:59.999Z');
    const { rows } = await sql<{ big: bigint; amount: string; at: Date; same: boolean }>`
      select ${2n ** 62n}::int8 as big, ${'0.000000000000000000123456789'}::numeric as amount,
             ${at}::timestamptz as at, ${at}::timestamptz = '1999-12-31 23:59:59.999+00' as same
    `.execute(database.db);
    expect(rows).toStrictEqual([{ big: 2n ** 62n, amount: '0.000000000000000000123456789', at, same: true }]);
  });

  it('does date arithmetic in UTC', async () => {
    const { rows } = await sql<{ zone: string; day: string }>`
      select current_setting('TimeZone') as zone, ('2024-05-06 23:30:00-05'::timestamptz)::date as day
    `.execute(database.db);
    expect(rows).toEqual([{ zone: 'UTC', day: '2024-05-07' }]);
  });

  it('rolls back a transaction whose callback throws, and commits one that returns', async () => {
    const { db } = database;
    const sample = { hashrate: '1', miners: 1, workers: 1, profit: '0', profit_avg_24h: '0' };
    await expect(
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('pool_stats')
          .values({ ...sample, algorithm: 'scrypt', taken_at: new Date('2020-01-01T00:00:00Z') })
          .execute();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await db.transaction().execute((trx) =>
      trx
        .insertInto('pool_stats')
        .values({ ...sample, algorithm: 'sha256', taken_at: new Date('2020-01-01T00:00:00Z') })
        .execute(),
    );
    const rows = await db.selectFrom('pool_stats').select('algorithm').execute();
    expect(rows).toEqual([{ algorithm: 'sha256' }]);
    const { numDeletedRows } = await db.deleteFrom('pool_stats').executeTakeFirstOrThrow();
    expect(numDeletedRows).toBe(1n);
  });

  it('supports savepoints inside a transaction', async () => {
    const trx = await database.db.startTransaction().execute();
    try {
      await sql`create temporary table sp (n int)`.execute(trx);
      await sql`insert into sp values (1)`.execute(trx);
      const inner = await trx.savepoint('before_two').execute();
      await sql`insert into sp values (2)`.execute(inner);
      const back = await inner.rollbackToSavepoint('before_two').execute();
      const { rows } = await sql<{ n: number }>`select n from sp`.execute(back);
      expect(rows).toEqual([{ n: 1 }]);
    } finally {
      await trx.rollback().execute();
    }
  });

  it('logs each query with its duration, and failures, but never parameters', async () => {
    const events: DatabaseLogEvent[] = [];
    const logged =
      engine === 'pglite'
        ? await createDatabase({ dataDir: MEMORY_DATA_DIR, log: (e) => events.push(e) })
        : await createDatabase({ url: process.env.TEST_DATABASE_URL as string, log: (e) => events.push(e) });
    events.length = 0; // drop the start-up check
    try {
      await sql`select ${'s3cret'}::text as x`.execute(logged.db);
      await expect(sql`select 1 / 0`.execute(logged.db)).rejects.toThrow();
    } finally {
      await logged.close();
    }
    expect(events.map((e) => e.type)).toEqual(['query', 'query-error']);
    expect(events[0]).toMatchObject({ sql: 'select $1::text as x', durationMs: expect.any(Number) });
    expect(JSON.stringify(events[0])).not.toContain('s3cret');
  });

  it('closes idempotently; ping is false afterwards', async () => {
    const extra = await createTestDatabase({ engine, migrate: false });
    await Promise.all([extra.close(), extra.close()]);
    await extra.close();
    expect(await extra.ping()).toBe(false);
  });
});

describe('PostgreSQL connections that break', () => {
  it.skipIf(!testEngines().includes('postgres'))(
    'survive an idle connection ended by the server (a restart) and reconnect',
    async () => {
      const events: DatabaseLogEvent[] = [];
      const database = await createDatabase({
        url: process.env.TEST_DATABASE_URL as string,
        log: (e) => events.push(e),
      });
      const admin = await createTestDatabase({ engine: 'postgres', migrate: false });
      try {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
        const pid = rows[0]?.pid;
        // What a PostgreSQL restart does to every connection; this one is idle in the pool.
        await sql`select pg_terminate_backend(${pid}::int)`.execute(admin.db);
        // The pool hears of it as an 'error' event on the idle client, which must not end the process;
        // the database reports it to its log.
        await vi.waitFor(() => expect(events).toContainEqual(expect.objectContaining({ type: 'pool-error' })), {
          timeout: 5000,
          interval: 10,
        });
        expect(await database.ping()).toBe(true);
        const again = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
        expect(again.rows[0]?.pid).not.toBe(pid);
      } finally {
        await admin.close();
        await database.close();
      }
    },
  );
});
