import { insertHashrateAlert } from '@lodestone/db';
import { insertTestAccount, testEngines, useTestDatabase } from '@lodestone/db/testing';
import { seededRandom } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import { applyShareBatch } from './accounting.js';
import { checkHashrateAlerts, hashrateAlertMessage } from './hashrateAlerts.js';
import { mineSteadily, shareBatch, shareCounts } from './testing.js';
import { runWorkerRollup } from './workerRollup.js';

// Hashrate alerts end to end: shares applied as accounting applies them, the rules judged as the jobs
// role runs the check, the messages in the outbox.

const T0 = Date.parse('2024-05-06T00:00:00Z');
const MIN = 60_000;
const HOUR = 3_600_000;
const OPTIONS = { poolName: 'Lodestone', publicUrl: 'https://pool.example.org' };
// SCRYPT: a 10 MH/s rig at share difficulty 4096 sends a share every 26.8 s on average; at 70% of
// that rate, 100 shares take 64 minutes (the judging window).
const DIFFICULTY = 4096;
const PER_MS = 10_000_000 / (DIFFICULTY * 65_536) / 1000;

/** A Poisson count of mean `mean` (Knuth's method; small means). */
function poisson(mean: number, next: () => number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = next(); p > limit; p *= next()) k++;
  return k;
}

describe('hashrate alerts', () => {
  // One engine (PostgreSQL when there is one): the reads it makes are proven on both elsewhere.
  const test = useTestDatabase(testEngines().at(-1) ?? 'pglite');

  const outbox = () =>
    test.database.db
      .selectFrom('notifications')
      .select(['kind', 'subject', 'body', 'dedupe_key'])
      .orderBy('id')
      .execute();

  it('fires once when the rig falls to 40% of its rate, clears once when it comes back, and never on noise', async () => {
    const { db } = test.database;
    const alice = await insertTestAccount(db, 'alice');
    await insertHashrateAlert(db, alice.id, 'scrypt', { kind: 'hashrate', thresholdPercent: 70 }, new Date(T0));
    const next = seededRandom(28);
    const rateAt = (t: number) => (t >= T0 + 36 * HOUR && t < T0 + 48 * HOUR ? 0.4 : 1) * PER_MS;
    const step = 10 * MIN;
    const states: { at: number; fell: number; recovered: number }[] = [];
    for (let t = T0; t < T0 + 60 * HOUR; t += step) {
      const shares = poisson(rateAt(t) * step, next);
      if (shares > 0) {
        await applyShareBatch(
          db,
          shareBatch(new Date(t + step - 1000).toISOString(), [
            shareCounts('alice', 'rig1', { acceptedDifficulty: shares * DIFFICULTY, valid: shares }),
          ]),
        );
      }
      // Judged from 24 hours on, as a rule set on a rig with a day's history.
      if (t + step >= T0 + 24 * HOUR) {
        const run = await checkHashrateAlerts(db, new Date(t + step), OPTIONS);
        if (run.fell + run.recovered > 0) states.push({ at: t + step, fell: run.fell, recovered: run.recovered });
      }
    }
    // One fall within a judging window (64 min, from its half hour) of the drop at 36 h, one recovery
    // within one of the return at 48 h; nothing in the 12 healthy hours before.
    expect(states.map((s) => [s.fell, s.recovered])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    const [fell, recovered] = states;
    expect(fell?.at).toBeGreaterThan(T0 + 36 * HOUR);
    expect(fell?.at).toBeLessThan(T0 + 38 * HOUR);
    expect(recovered?.at).toBeGreaterThan(T0 + 48 * HOUR);
    expect(recovered?.at).toBeLessThan(T0 + 50 * HOUR);
    const messages = await outbox();
    expect(messages.map((m) => m.kind)).toEqual(['hashrate-low', 'hashrate-recovered']);
    expect(messages[0]?.subject).toMatch(/^Lodestone: alice's SCRYPT hashrate fell below \d/);
    expect(messages[0]?.body).toContain('70% of the 24-hour average');
    // A repeated check at the same instant sends nothing more.
    await checkHashrateAlerts(db, new Date(T0 + 60 * HOUR), OPTIONS);
    expect(await outbox()).toHaveLength(2);
  });

  it('alerts when online workers fall below the fewest allowed, and when they are back', async () => {
    const { db } = test.database;
    const bob = await insertTestAccount(db, 'bob');
    await insertHashrateAlert(db, bob.id, 'scrypt', { kind: 'workers', minWorkers: 2 }, new Date(T0));
    // Two rigs, a share a minute each, for two hours; then rig2 stops for an hour; then it is back.
    // The check as the jobs role runs it: after the worker rollup (the offline judgement reads hours).
    const check = async (at: number) => {
      await runWorkerRollup(db, new Date(at));
      return checkHashrateAlerts(db, new Date(at), OPTIONS);
    };
    await mineSteadily(db, 'bob', ['rig1', 'rig2'], { fromMs: T0, toMs: T0 + 2 * HOUR, everyMs: MIN });
    expect((await check(T0 + 2 * HOUR)).fell).toBe(0);
    await mineSteadily(db, 'bob', ['rig1'], { fromMs: T0 + 2 * HOUR, toMs: T0 + 3 * HOUR, everyMs: MIN });
    // rig2's offline window is ten share intervals with a 10-minute floor: low by 2 h 15 min.
    expect((await check(T0 + 2 * HOUR + 15 * MIN)).fell).toBe(1);
    expect((await check(T0 + 2 * HOUR + 30 * MIN)).fell).toBe(0);
    await mineSteadily(db, 'bob', ['rig1', 'rig2'], {
      fromMs: T0 + 3 * HOUR,
      toMs: T0 + 3 * HOUR + 2 * MIN,
      everyMs: MIN,
    });
    expect((await check(T0 + 3 * HOUR + 2 * MIN)).recovered).toBe(1);
    const messages = await outbox();
    expect(messages.map((m) => [m.kind, m.subject])).toEqual([
      ['hashrate-low', "Lodestone: bob's online SCRYPT workers fell below 2"],
      ['hashrate-recovered', "Lodestone: bob's online SCRYPT workers back to 2 or more"],
    ]);
    expect(messages[0]?.body).toContain('1 online now.');
  });

  it('states a fixed threshold in hashrate units', () => {
    const message = hashrateAlertMessage(
      OPTIONS,
      { account: 'carol', algorithm: 'sha256', kind: 'hashrate', threshold_percent: null, threshold_hashrate: '1e14' },
      { state: 'low', threshold: 1e14, seen: 6.5e13, windowMs: 3 * HOUR },
    );
    expect(message.subject).toBe("Lodestone: carol's SHA256 hashrate fell below 100 Th/s");
    expect(message.body).toContain('65 Th/s over the last 3 h.');
  });
});
