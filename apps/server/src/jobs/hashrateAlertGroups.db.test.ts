import { hashrateAlertsOf, insertHashrateAlert } from '@lodestone/db';
import { insertTestAccount, testEngines, useTestDatabase } from '@lodestone/db/testing';
import { seededRandom } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import { applyShareBatch } from './accounting.js';
import { checkHashrateAlerts } from './hashrateAlerts.js';
import { mineSteadily, shareBatch, shareCounts } from './testing.js';
import { runWorkerRollup } from './workerRollup.js';

// Hashrate alerts of one worker group (docs/notifications.md, "Hashrate alerts"): shares applied as
// accounting applies them, rolled up as the jobs role rolls them, the rules judged as it runs the
// check. A group's drop shows even while the account's other group keeps its total up.

const T0 = Date.parse('2024-05-06T00:00:00Z');
const MIN = 60_000;
const HOUR = 3_600_000;
const OPTIONS = { poolName: 'Lodestone', publicUrl: 'https://pool.example.org' };
// SCRYPT: a 10 MH/s rig at share difficulty 4096 sends a share every 26.8 s on average.
const DIFFICULTY = 4096;
const PER_MS = 10_000_000 / (DIFFICULTY * 65_536) / 1000;

/** A Poisson count of mean `mean` (Knuth's method; small means). */
function poisson(mean: number, next: () => number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = next(); p > limit; p *= next()) k++;
  return k;
}

describe.each(testEngines())('hashrate alerts of a worker group on %s', (engine) => {
  const test = useTestDatabase(engine);

  const outbox = () =>
    test.database.db.selectFrom('notifications').select(['kind', 'subject', 'body']).orderBy('id').execute();

  // 60 simulated hours of batches, rollups and checks: some 6 s alone, several times that beside other suites.
  it('fires once when a group falls to 40% while the other group keeps the account up, clears once', async () => {
    const { db } = test.database;
    const dave = await insertTestAccount(db, 'dave');
    const group = await insertHashrateAlert(
      db,
      dave.id,
      'scrypt',
      { kind: 'hashrate', thresholdPercent: 70 },
      new Date(T0),
      'rack1-',
    );
    const account = await insertHashrateAlert(
      db,
      dave.id,
      'scrypt',
      { kind: 'hashrate', thresholdPercent: 70 },
      new Date(T0),
    );
    // rack1- (two rigs) falls to 40% from 36 h to 48 h; rack2- (six rigs) mines on, so the account
    // keeps 85% of its rate, above its own 70% bar.
    const rigs = [
      ...['rack1-a', 'rack1-b'].map((name) => ({ name, drops: true })),
      ...['rack2-a', 'rack2-b', 'rack2-c', 'rack2-d', 'rack2-e', 'rack2-f'].map((name) => ({ name, drops: false })),
    ];
    const next = seededRandom(2801);
    const rateAt = (drops: boolean, t: number) =>
      (drops && t >= T0 + 36 * HOUR && t < T0 + 48 * HOUR ? 0.4 : 1) * PER_MS;
    const step = 10 * MIN;
    const changes: { at: number; fell: number; recovered: number }[] = [];
    for (let t = T0; t < T0 + 60 * HOUR; t += step) {
      const counts = rigs
        .map((rig) => ({ rig, shares: poisson(rateAt(rig.drops, t) * step, next) }))
        .filter(({ shares }) => shares > 0)
        .map(({ rig, shares }) =>
          shareCounts('dave', rig.name, { acceptedDifficulty: shares * DIFFICULTY, valid: shares }),
        );
      if (counts.length > 0) await applyShareBatch(db, shareBatch(new Date(t + step - 1000).toISOString(), counts));
      // The rollup each hour, so the group's shares are read from hour rows and minute rows alike.
      if ((t + step) % HOUR === 0) await runWorkerRollup(db, new Date(t + step));
      if (t + step >= T0 + 24 * HOUR) {
        const run = await checkHashrateAlerts(db, new Date(t + step), OPTIONS);
        if (run.fell + run.recovered > 0) changes.push({ at: t + step, fell: run.fell, recovered: run.recovered });
      }
    }
    expect(changes.map((c) => [c.fell, c.recovered])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    const [fell, recovered] = changes;
    // Within a judging window (the 15-minute floor, from the start of its hour) of each change.
    expect(fell?.at).toBeGreaterThan(T0 + 36 * HOUR);
    expect(fell?.at).toBeLessThan(T0 + 38 * HOUR);
    expect(recovered?.at).toBeGreaterThan(T0 + 48 * HOUR);
    expect(recovered?.at).toBeLessThan(T0 + 50 * HOUR);
    // The account's own rule never turned.
    const rules = await hashrateAlertsOf(db, dave.id);
    expect(rules.find((r) => r.id === account.id)?.changed_at).toBeNull();
    expect(rules.find((r) => r.id === group.id)?.low).toBe(false);
    const messages = await outbox();
    expect(messages.map((m) => m.kind)).toEqual(['hashrate-low', 'hashrate-recovered']);
    expect(messages[0]?.subject).toMatch(/^Lodestone: dave's SCRYPT hashrate of group rack1- fell below \d/);
    expect(messages[1]?.subject).toMatch(/^Lodestone: dave's SCRYPT hashrate of group rack1- back to \d.* or more$/);
    expect(messages[0]?.body).toContain('Account dave, SCRYPT hashrate of group rack1-: below your alert');
  }, 120_000);

  it('counts only the online workers of the group, by label or name, and leaves an empty group alone', async () => {
    const { db } = test.database;
    const erin = await insertTestAccount(db, 'erin');
    await insertHashrateAlert(db, erin.id, 'scrypt', { kind: 'workers', minWorkers: 2 }, new Date(T0), 'rack1-');
    const empty = await insertHashrateAlert(
      db,
      erin.id,
      'scrypt',
      { kind: 'workers', minWorkers: 1 },
      new Date(T0),
      'rack9-',
    );
    const check = async (at: number) => {
      await runWorkerRollup(db, new Date(at));
      return checkHashrateAlerts(db, new Date(at), OPTIONS);
    };
    // rack1-: rack1-a by its name and spare by its label; rack2-: two more rigs.
    const all = ['rack1-a', 'spare', 'rack2-a', 'rack2-b'];
    await mineSteadily(db, 'erin', all, { fromMs: T0, toMs: T0 + 2 * HOUR, everyMs: MIN });
    await db
      .updateTable('workers')
      .set({ label: 'rack1-' })
      .where('account', '=', 'erin')
      .where('name', '=', 'spare')
      .execute();
    expect(await check(T0 + 2 * HOUR)).toMatchObject({ fell: 0, recovered: 0 });
    // spare stops: three of four rigs are online, one of the group's two.
    await mineSteadily(db, 'erin', ['rack1-a', 'rack2-a', 'rack2-b'], {
      fromMs: T0 + 2 * HOUR,
      toMs: T0 + 3 * HOUR,
      everyMs: MIN,
    });
    expect((await check(T0 + 2 * HOUR + 15 * MIN)).fell).toBe(1);
    expect((await check(T0 + 2 * HOUR + 30 * MIN)).fell).toBe(0);
    await mineSteadily(db, 'erin', all, { fromMs: T0 + 3 * HOUR, toMs: T0 + 3 * HOUR + 2 * MIN, everyMs: MIN });
    expect((await check(T0 + 3 * HOUR + 2 * MIN)).recovered).toBe(1);
    const messages = await outbox();
    expect(messages.map((m) => [m.kind, m.subject])).toEqual([
      ['hashrate-low', "Lodestone: erin's online SCRYPT workers of group rack1- fell below 2"],
      ['hashrate-recovered', "Lodestone: erin's online SCRYPT workers of group rack1- back to 2 or more"],
    ]);
    expect(messages[0]?.body).toContain('1 online now.');
    // rack9- has no workers: never judged, so never "0 online".
    const rule = (await hashrateAlertsOf(db, erin.id)).find((r) => r.id === empty.id);
    expect(rule).toMatchObject({ low: false, changed_at: null });
  });
});
