import type { Database } from '@lodestone/db';
import { createTestDatabase, testEngines } from '@lodestone/db/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduler } from './scheduler.js';
import { recordingLog } from './testing.js';
import type { JobDefinition } from './types.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testEngines())('singleton jobs on %s', (engine) => {
  // Two "processes": two connection pools on one database (advisory locks are per database).
  let first: Database;
  let second: Database;
  beforeAll(async () => {
    first = await createTestDatabase({ engine });
    second = engine === 'postgres' ? await createTestDatabase({ engine }) : first;
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('one process runs a singleton job while the other stands by; then either may run it', async () => {
    const runs: string[] = [];
    const job = (who: string): JobDefinition => ({
      name: `lock-test-${engine}`,
      everyMs: 3_600_000, // never due during the test: runs come from runNow
      async run() {
        runs.push(`${who} start`);
        await pause(150);
        runs.push(`${who} end`);
      },
    });
    const a = startScheduler({ jobs: [job('a')], database: first, log: recordingLog() });
    const b = startScheduler({ jobs: [job('b')], database: second, log: recordingLog() });
    try {
      await a.runNow(`lock-test-${engine}`).then(() => {});
      runs.length = 0;
      const startedA = a.runNow(`lock-test-${engine}`);
      await pause(30);
      await b.runNow(`lock-test-${engine}`);
      await startedA;
      if (engine === 'postgres') {
        expect(runs).toEqual(['a start', 'a end']);
        expect(b.status()[0]).toMatchObject({ runs: 0, skippedLocked: 1 });
        await b.runNow(`lock-test-${engine}`); // the lock was released
        expect(runs).toEqual(['a start', 'a end', 'b start', 'b end']);
      } else {
        // PGlite is one process: nothing to stand by for.
        expect(runs.sort()).toEqual(['a end', 'a start', 'b end', 'b start']);
      }
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('runs more singleton jobs at once than the pool has connections, none holding one while it waits', async () => {
    // Twelve jobs on a pool of ten, each with two statements: a lock connection per running job used to
    // hold all ten while every job waited for one more (issue 32: the jobs role deadlocked at start-up).
    const names = Array.from({ length: 12 }, (_, i) => `crowd-${engine}-${i}`);
    const done = new Set<string>();
    const jobs: JobDefinition[] = names.map((name) => ({
      name,
      everyMs: 3_600_000,
      async run(ctx) {
        await sql`select pg_sleep(0.05)`.execute(ctx.database.db);
        await sql`select 1`.execute(ctx.database.db);
        done.add(name);
      },
    }));
    const scheduler = startScheduler({ jobs, database: first, log: recordingLog() });
    try {
      const all = Promise.all(names.map((name) => scheduler.runNow(name)));
      const deadline = new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`${done.size} of 12 jobs ran`)), 10_000),
      );
      await Promise.race([all, deadline]);
      expect(done.size).toBe(12);
      expect(scheduler.status().every((status) => status.runs === 1 && status.skippedLocked === 0)).toBe(true);
    } finally {
      await scheduler.stop();
    }
  });
});
