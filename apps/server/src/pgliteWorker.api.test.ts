/**
 * The embedded database in its worker thread, as the bundle runs it (dist/pglite-worker.js): the
 * same answers as PGlite in this thread — rows with their parsed types, PostgreSQL errors with their
 * fields, transactions that never interleave — while the statements run on another thread.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createDatabase, type Database, migrate } from '@lodestone/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../test/process.js';

const workerScript = pathToFileURL(fileURLToPath(new URL('../dist/pglite-worker.js', import.meta.url)));

describe('the embedded database in a worker thread', () => {
  let database: Database;
  beforeAll(async () => {
    buildBundle();
    database = await createDatabase({
      dataDir: mkdtempSync(path.join(tmpdir(), 'lodestone-worker-')),
      pgliteWorker: workerScript,
    });
    await migrate(database);
  }, 120_000);
  afterAll(() => database?.close());

  it('answers with parsed types: bigint amounts, numeric text, dates, nulls', async () => {
    const row = await sql<{ big: bigint; exact: string; at: Date; none: null; list: number[] }>`
      select 123456789012345678901234567890::numeric(40,0) as big, 1.5::numeric as exact,
             timestamptz '2026-01-02T03:04:05Z' as at, null as none, array[1,2,3] as list`.execute(database.db);
    const direct = await createDatabase({ dataDir: 'memory://' });
    const same = await sql`
      select 123456789012345678901234567890::numeric(40,0) as big, 1.5::numeric as exact,
             timestamptz '2026-01-02T03:04:05Z' as at, null as none, array[1,2,3] as list`.execute(direct.db);
    await direct.close();
    expect(row.rows).toEqual(same.rows);
    expect(row.rows[0]?.at).toBeInstanceOf(Date);
  });

  it('passes PostgreSQL errors on with their code and constraint', async () => {
    await sql`create table worker_test (name text constraint worker_test_name unique)`.execute(database.db);
    await sql`insert into worker_test values ('a')`.execute(database.db);
    const failed = await sql`insert into worker_test values (${'a'})`.execute(database.db).catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: '23505', constraint: 'worker_test_name' });
    expect((failed as Error).message).toContain('duplicate key');
  });

  it('keeps transactions whole: a rollback undoes, concurrent ones never interleave', async () => {
    await sql`create table worker_counter (n int)`.execute(database.db);
    await sql`insert into worker_counter values (0)`.execute(database.db);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`update worker_counter set n = n + 100`.execute(trx);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    // Read, another round trip to the worker, write in each transaction: any interleaving would lose increments.
    await Promise.all(
      Array.from({ length: 20 }, () =>
        database.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ n: number }>`select n from worker_counter`.execute(trx);
          await sql`select 1`.execute(trx);
          await sql`update worker_counter set n = ${(rows[0]?.n ?? 0) + 1}`.execute(trx);
        }),
      ),
    );
    const { rows } = await sql<{ n: number }>`select n from worker_counter`.execute(database.db);
    expect(rows[0]?.n).toBe(20);
  });

  it('refuses queries once closed, and a second database opens the directory after', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lodestone-worker-'));
    const first = await createDatabase({ dataDir, pgliteWorker: workerScript });
    await sql`create table kept (v int)`.execute(first.db);
    await sql`insert into kept values (7)`.execute(first.db);
    await first.close();
    expect(await first.ping()).toBe(false);
    const second = await createDatabase({ dataDir, pgliteWorker: workerScript });
    const { rows } = await sql<{ v: number }>`select v from kept`.execute(second.db);
    expect(rows).toEqual([{ v: 7 }]);
    await second.close();
  }, 60_000);
});
