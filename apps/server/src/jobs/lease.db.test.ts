import type { Database } from '@lodestone/db';
import { createTestDatabase, testEngines } from '@lodestone/db/testing';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InProcessBus } from '../bus/inProcess.js';
import { Lease } from './lease.js';
import { type JobsRole, startJobsRole } from './role.js';
import { poolStatsRollup, recordingLog } from './testing.js';

// Two jobs processes of one pool: two connection pools on one schema, each naming its sessions as a
// process does (main.ts), so the lease's fencing ends real PostgreSQL sessions.
describe.skipIf(!testEngines().includes('postgres'))('jobs lease on PostgreSQL', () => {
  const opened: Database[] = [];
  const roles: JobsRole[] = [];
  afterEach(async () => {
    for (const role of roles.splice(0)) await role.stop();
    // The schema's owner (opened first) closes last: it drops the schema.
    for (const database of opened.splice(0).reverse()) await database.close();
  });

  // Session names unique to each test, so a fence in one never reaches another's sessions.
  let run = 0;
  let nameA = '';
  let nameB = '';
  async function twoProcesses(): Promise<[Database, Database]> {
    run++;
    nameA = `lease-test-a-${process.pid}-${run}`;
    nameB = `lease-test-b-${process.pid}-${run}`;
    const a = await createTestDatabase({ engine: 'postgres', applicationName: nameA });
    opened.push(a);
    const b = await createTestDatabase({ engine: 'postgres', sameAs: a, applicationName: nameB });
    opened.push(b);
    return [a, b];
  }

  function lease(database: Database, holder: string, ttlMs: number): Lease {
    return new Lease({ database, name: 'jobs', holder, ttlMs, log: recordingLog() });
  }

  it('is held by one process at a time and passes on at once when released', async () => {
    const [a, b] = await twoProcesses();
    const first = lease(a, nameA, 60_000);
    const second = lease(b, nameB, 60_000);
    expect(await first.tryAcquire()).toEqual({ token: 1n, previousHolder: null });
    expect(first.held()).toBe(true);
    expect(await second.tryAcquire()).toBeUndefined();
    expect(second.held()).toBe(false);
    expect(await first.renew()).toBe(true);

    await first.release();
    expect(first.held()).toBe(false);
    // Released, not expired: nothing is fenced, the next token is handed out.
    expect(await second.tryAcquire()).toMatchObject({ token: 2n });
    expect(await first.renew()).toBe(false);
  });

  it('is taken from a frozen holder after its deadline, whose open transaction is rolled back and whose renewal fails', async () => {
    const [a, b] = await twoProcesses();
    const frozen = lease(a, nameA, 400);
    const standby = lease(b, nameB, 400);
    expect(await frozen.tryAcquire()).toMatchObject({ token: 1n });

    // The frozen process was in the middle of a transaction when it stopped.
    let commitError: unknown;
    let release!: () => void;
    const paused = new Promise<void>((resolve) => {
      release = resolve;
    });
    let began!: () => void;
    const inTransaction = new Promise<void>((resolve) => {
      began = resolve;
    });
    const transaction = a.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into prices (ticker, usd, taken_at, source) values ('LTC', 80, now(), 'frozen')`.execute(trx);
        began();
        await paused;
      })
      .catch((error: unknown) => {
        commitError = error;
      });
    await inTransaction;

    expect(await standby.tryAcquire()).toBeUndefined();
    await vi.waitFor(() => expect(frozen.held()).toBe(false), { timeout: 2_000, interval: 20 });
    let taken: Awaited<ReturnType<Lease['tryAcquire']>>;
    await vi.waitFor(
      async () => {
        taken = await standby.tryAcquire();
        expect(taken).toBeDefined();
      },
      { timeout: 2_000, interval: 50 },
    );
    expect(taken).toEqual({ token: 2n, previousHolder: nameA });

    release();
    await transaction;
    expect(commitError).toBeInstanceOf(Error);
    const rows = await b.db.selectFrom('prices').select('source').where('source', '=', 'frozen').execute();
    expect(rows).toEqual([]);
    // Back from its freeze, the old holder learns it lost the lease.
    expect(await frozen.renew()).toBe(false);
    expect(frozen.held()).toBe(false);
  });

  it('makes one of two jobs roles active and the other stand by, until the active one stops', async () => {
    const [a, b] = await twoProcesses();
    const active = await startJobsRole({
      database: a,
      bus: new InProcessBus(),
      log: recordingLog(),
      jobs: [poolStatsRollup()],
      lease: { holder: nameA, ttlMs: 3_000, standbyPollMs: 50 },
    });
    roles.push(active);
    const standby = await startJobsRole({
      database: b,
      bus: new InProcessBus(),
      log: recordingLog(),
      jobs: [poolStatsRollup()],
      lease: { holder: nameB, ttlMs: 3_000, standbyPollMs: 50 },
    });
    roles.push(standby);
    expect(active.state()).toBe('active');
    expect(standby.state()).toBe('standby');
    // The standby runs no job: its scheduler has not started.
    expect(standby.status()).toEqual([]);

    await active.stop();
    expect(active.state()).toBe('stopped');
    await vi.waitFor(() => expect(standby.state()).toBe('active'), { timeout: 2_000, interval: 20 });
    // Its first run starts at once; the patience is for a loaded machine (CI3 saw more than 5 s).
    await vi.waitFor(() => expect(standby.status()[0]?.runs).toBeGreaterThanOrEqual(1), { timeout: 20_000 });
  });
});
