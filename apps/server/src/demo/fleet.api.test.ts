import { DEFAULT_DEMO_HASHES_PER_BLOCK } from '@lodestone/chain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoWork, minerDialectFor } from '../chains/registry.js';
import { SILENT_LOG, type StratumLog } from '../stratum/log.js';
import { type Harness, startHarness } from '../stratum/testing/harness.js';
import type { StratumWork } from '../stratum/work.js';
import { type Fleet, fleetAssignments, startFleet } from './fleet.js';

let harness: Harness | undefined;
let fleet: Fleet | undefined;
let work: StratumWork[] = [];

afterEach(async () => {
  await fleet?.stop();
  await harness?.close();
  for (const { source } of work) await source.stop();
  work = [];
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

  it('mines real shares over TCP on the demo network through each algorithm’s miner dialect', async () => {
    work = (['sha256', 'scrypt', 'x11'] as const).map((algorithm) =>
      demoWork(algorithm, { expectedHashesPerBlock: DEFAULT_DEMO_HASHES_PER_BLOCK, valuation: 'reference' }),
    );
    for (const { source } of work) await source.start();
    harness = await startHarness({
      work,
      flushIntervalMs: 60_000,
      listeners: [
        { algorithm: 'sha256', minDifficulty: undefined, startDifficulty: undefined },
        { algorithm: 'scrypt', minDifficulty: undefined, startDifficulty: undefined },
        { algorithm: 'x11', minDifficulty: undefined, startDifficulty: undefined },
      ],
    });
    const h = harness;
    const warnings: { fields: object; message: string }[] = [];
    const log: StratumLog = { ...SILENT_LOG, warn: (fields, message) => warnings.push({ fields, message }) };
    fleet = startFleet({
      targets: [
        ...h.server.listeners.map((l) => ({ algorithm: l.algorithm, host: '127.0.0.1', port: l.port })),
        // A port whose algorithm the fleet cannot mine: named once in the log, given no workers.
        { algorithm: 'eaglesong', host: '127.0.0.1', port: 1 },
      ],
      workers: 6,
      accounts: 2,
      hashrate: { sha256: 20_000, scrypt: 400, x11: 3_000 },
      shareIntervalSeconds: 0.25,
      minerDialect: (algorithm) => (algorithm === 'eaglesong' ? undefined : minerDialectFor(algorithm)),
      log,
    });
    expect(warnings).toEqual([{ fields: { algorithms: ['eaglesong'] }, message: expect.stringMatching(/no miner/) }]);
    const running = fleet;
    expect(running.workers.map((w) => w.algorithm).sort()).toEqual([
      'scrypt',
      'scrypt',
      'sha256',
      'sha256',
      'x11',
      'x11',
    ]);
    await vi.waitFor(() => expect(running.workers.map((w) => w.accepted >= 2)).toEqual(Array(6).fill(true)), {
      timeout: 20_000,
      interval: 100,
    });
    expect(running.workers.every((w) => w.rejected === 0)).toBe(true);
    await h.server.flush();
    const algorithms = new Set(h.bus.batches.map((b) => b.algorithm));
    expect(algorithms).toEqual(new Set(['sha256', 'scrypt', 'x11']));
    for (const w of running.workers) {
      const [account, worker] = w.login.split('.') as [string, string];
      expect(h.bus.totals(account, worker).valid).toBeGreaterThanOrEqual(2);
    }
    // SCRYPT's demo is merge-mined: its batches carry the demo Dogecoin and Bellscoin, valued at a
    // real difficulty (20 M in getdifficulty terms, about 20 M × 65,536 in scrypt's share convention:
    // getdifficulty's difficulty 1 is 0xffff × 2^208, the share convention's 2^224 ÷ 65,536).
    const scrypt = h.bus.batches.find((b) => b.algorithm === 'scrypt');
    expect(scrypt?.network?.coin).toBe('LTC');
    expect(scrypt?.merged?.map((n) => [n.coin, n.reward, n.demo])).toEqual([
      ['DOGE', '1000000000000', true],
      ['BELLS', '1500000000', true],
    ]);
    for (const n of scrypt?.merged ?? []) {
      expect(Math.abs(Number(n.difficulty) / (20_000_000 * 65_536) - 1)).toBeLessThan(1e-4);
    }
  });

  it('mines the CKB, Kadena and Kaspa demo chains through their miner dialects', async () => {
    work = (['eaglesong', 'blake2s', 'kheavyhash'] as const).map((algorithm) =>
      demoWork(algorithm, { expectedHashesPerBlock: 1n << 40n, valuation: 'reference' }),
    );
    for (const { source } of work) await source.start();
    harness = await startHarness({
      work,
      flushIntervalMs: 60_000,
      listeners: (['eaglesong', 'blake2s', 'kheavyhash'] as const).map((algorithm) => ({
        algorithm,
        minDifficulty: undefined,
        startDifficulty: undefined,
      })),
    });
    const h = harness;
    fleet = startFleet({
      targets: h.server.listeners.map((l) => ({ algorithm: l.algorithm, host: '127.0.0.1', port: l.port })),
      workers: 3,
      accounts: 3,
      shareIntervalSeconds: 0.5,
      log: SILENT_LOG,
    });
    const running = fleet;
    await vi.waitFor(() => expect(running.workers.map((w) => w.accepted >= 2)).toEqual([true, true, true]), {
      timeout: 30_000,
      interval: 100,
    });
    expect(running.workers.map((w) => [w.algorithm, w.accepted >= 2, w.rejected])).toEqual([
      ['eaglesong', true, 0],
      ['blake2s', true, 0],
      ['kheavyhash', true, 0],
    ]);
    await h.server.flush();
    expect(new Set(h.bus.batches.map((b) => b.algorithm))).toEqual(new Set(['eaglesong', 'blake2s', 'kheavyhash']));
  });
});
