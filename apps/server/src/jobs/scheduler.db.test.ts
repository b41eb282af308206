import type { Database } from '@lodestone/db';
import { createTestDatabase, testEngines } from '@lodestone/db/testing';
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
});
