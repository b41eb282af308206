import { DemoJobSource } from '@lodestone/chain';
import { afterEach, describe, expect, it } from 'vitest';
import { SILENT_LOG } from '../stratum/log.js';
import type { StratumAlgorithm } from '../stratum/pow.js';
import { type Harness, startHarness } from '../stratum/testing/harness.js';
import { type Fleet, fleetAssignments, startFleet } from './fleet.js';

let harness: Harness | undefined;
let fleet: Fleet | undefined;
const sources: DemoJobSource[] = [];

afterEach(async () => {
  await fleet?.stop();
  await harness?.close();
  for (const s of sources) await s.stop();
});

describe('demo fleet', () => {
  it('spreads workers over algorithms and accounts', () => {
    const targets = (['scrypt', 'sha256', 'x11'] as const).map((algorithm, i) => ({ algorithm, host: 'h', port: i }));
    const plan = fleetAssignments(6, 3, targets).map((a) => `${a.target.algorithm}:${a.account}.${a.worker}`);
    expect(plan).toEqual([
      'scrypt:demo1.rig1',
      'sha256:demo2.rig2',
      'x11:demo3.rig3',
      'scrypt:demo2.rig4',
      'sha256:demo3.rig5',
      'x11:demo1.rig6',
    ]);
    expect(fleetAssignments(3, 1, [])).toEqual([]);
  });

  it('mines real shares over TCP on the demo network, for every algorithm', async () => {
    for (const algorithm of ['sha256', 'scrypt'] as const) {
      const source = new DemoJobSource({ algorithm });
      await source.start();
      sources.push(source);
    }
    harness = await startHarness({
      sources,
      flushIntervalMs: 60_000,
      listeners: [
        { algorithm: 'sha256', minDifficulty: undefined, startDifficulty: undefined },
        { algorithm: 'scrypt', minDifficulty: undefined, startDifficulty: undefined },
      ],
    });
    const h = harness;
    fleet = startFleet({
      targets: h.server.listeners.map((l) => ({
        algorithm: l.algorithm as StratumAlgorithm,
        host: '127.0.0.1',
        port: l.port,
      })),
      workers: 4,
      accounts: 2,
      hashrate: { sha256: 20_000, scrypt: 400 },
      shareIntervalSeconds: 0.25,
      log: SILENT_LOG,
    });
    const running = fleet;
    const end = Date.now() + 20_000;
    while (running.workers.some((w) => w.accepted < 2) && Date.now() < end)
      await new Promise((r) => setTimeout(r, 100));
    expect(running.workers.map((w) => w.accepted >= 2)).toEqual([true, true, true, true]);
    expect(running.workers.every((w) => w.rejected === 0)).toBe(true);
    await h.server.flush();
    const algorithms = new Set(h.bus.batches.map((b) => b.algorithm));
    expect(algorithms).toEqual(new Set(['sha256', 'scrypt']));
    for (const w of running.workers) {
      const [account, worker] = w.login.split('.') as [string, string];
      expect(h.bus.totals(account, worker).valid).toBeGreaterThanOrEqual(2);
    }
  });
});
