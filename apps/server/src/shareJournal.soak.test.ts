/**
 * Issue 15, finding 4: kill -9 lost shares the miner had been told were accepted. A miner mines on
 * the real program, which is killed with SIGKILL mid-stream; started again on the same DATA_DIR, it
 * publishes what its share journal kept. Every share answered `true` is in the ledger's statistics.
 *
 * A soak test: `npm test` kills the program once (its short form); `npm run test:soak` (SOAK=full) kills
 * it ten times in a row on the same DATA_DIR, each start recovering the journal of the run before while
 * the miner goes on, and no kill may lose a share answered `true` or count one twice.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase } from '@lodestone/db';
import { POW } from '@lodestone/pow';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, freePort, run, waitForHealth } from '../test/process.js';
import { findShare } from './stratum/client/miner.js';
import { StratumClient } from './stratum/client/stratumClient.js';
import { EASY_SHA256_DIFFICULTY } from './stratum/testing/harness.js';

/** SOAK=full: the soak tests at full length (`npm run test:soak`); else their short form. */
const KILLS = process.env.SOAK === 'full' ? 10 : 1;

describe('shares answered true survive kill -9', () => {
  beforeAll(() => buildBundle(), 120_000);

  it('counts every share answered true after a SIGKILL and a restart', {
    timeout: KILLS * 120_000 + 120_000,
  }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lodestone-data-'));
    const port = await freePort();
    const stratumPort = await freePort();
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DEMO_WORKERS: '1',
      DEMO_ACCOUNTS: '2',
      STRATUM_LISTENERS: JSON.stringify([
        {
          algorithm: 'sha256',
          port: stratumPort,
          host: '127.0.0.1',
          min_difficulty: EASY_SHA256_DIFFICULTY,
          start_difficulty: EASY_SHA256_DIFFICULTY,
          max_difficulty: EASY_SHA256_DIFFICULTY,
        },
      ]),
    };
    let answeredTrue = 0;
    let submitted = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const pool = run(env);
      await waitForHealth(port, pool, 60_000);
      // A start after a kill recovered the journal of the run before without an error.
      if (kill > 0) expect(pool.stdout()).not.toContain('"level":50');

      const client = await StratumClient.connect({ host: '127.0.0.1', port: stratumPort, timeoutMs: 5_000 });
      await client.subscribe();
      expect((await client.authorize('demo2.journal')).result).toBe(true);
      await client.nextJob();
      let answeredTrueThisRun = 0;
      // Kill at a moment that is not in step with the 5 s batches. Each share waits for the answer to the
      // one before: the miner's own pace.
      const killAt = Date.now() + 6_000 + Math.floor(Math.random() * 4_000);
      while (Date.now() < killAt) {
        submitted++;
        const answer = await client.submit({ worker: 'demo2.journal', ...shareFor(client) });
        if (answer.result === true) answeredTrueThisRun++;
      }
      const inFlight = client.submit({ worker: 'demo2.journal', ...shareFor(client) }).catch(() => undefined);
      submitted++;
      pool.child.kill('SIGKILL');
      await pool.exit;
      if ((await inFlight)?.result === true) answeredTrueThisRun++;
      client.destroy();
      expect(answeredTrueThisRun).toBeGreaterThan(300);
      answeredTrue += answeredTrueThisRun;
    }

    // Started again on the same directory: the journal's shares go out with the first batches.
    const last = run(env);
    await waitForHealth(port, last, 60_000);
    expect(last.stdout()).not.toContain('"level":50');
    // Nothing to wait for: a graceful stop publishes what the journal gave back (the stratum's last flush
    // fails the stop if any batch stays unpublished) and the bus delivers it to accounting before exit 0.
    last.child.kill('SIGTERM');
    expect(await last.exit).toBe(0);

    const database = await createDatabase({ dataDir });
    try {
      const row = await sql<{ valid: string | null }>`
      select sum(m.valid)::text as valid
      from worker_stats_minute m join workers w on w.id = m.worker_id
      where w.account = 'demo2' and w.name = 'journal'`.execute(database.db);
      const credited = Number(row.rows[0]?.valid ?? 0);
      expect(credited).toBeGreaterThanOrEqual(answeredTrue);
      expect(credited).toBeLessThanOrEqual(submitted);
    } finally {
      await database.close();
    }
  });
});

/** A share for the client's current job and difficulty. */
function shareFor(client: StratumClient) {
  const job = client.job;
  if (!job || client.difficulty === undefined) throw new Error('no work');
  const share = findShare(
    { job, extranonce1: client.extranonce1, extranonce2Size: client.extranonce2Size, difficulty: client.difficulty },
    POW.sha256,
  );
  if (!share) throw new Error('no share found');
  return share;
}
