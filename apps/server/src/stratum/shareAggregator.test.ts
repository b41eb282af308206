import type { ShareBatch } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import { SILENT_LOG } from './log.js';
import { MAX_PENDING_CONNECTIONS, ShareAggregator } from './shareAggregator.js';

function setup(failures = 0) {
  let now = 1_000;
  let failuresLeft = failures;
  const published: ShareBatch[] = [];
  const aggregator = new ShareAggregator({
    node: 'node-a',
    log: SILENT_LOG,
    now: () => now,
    bus: {
      async publishShareBatch(batch) {
        if (failuresLeft > 0) {
          failuresLeft--;
          throw new Error('bus down');
        }
        published.push(structuredClone(batch));
      },
    },
  });
  return { aggregator, published, tick: (ms: number) => (now += ms) };
}

describe('ShareAggregator', () => {
  it('stamps each batch with the network its algorithm mines against at flush time', async () => {
    const published: ShareBatch[] = [];
    let now = 1_000;
    const aggregator = new ShareAggregator({
      node: 'node-a',
      log: SILENT_LOG,
      now: () => now,
      bus: { publishShareBatch: async (b) => void published.push(structuredClone(b)) },
      networkOf: (algorithm) =>
        algorithm === 'scrypt'
          ? { coin: 'LTC', height: 7, reward: '625000000', difficulty: '123.5', demo: true }
          : undefined,
    });
    aggregator.record('scrypt', 'alice', 'rig1', { kind: 'valid', difficulty: 8 }, 1_100);
    aggregator.record('sha256', 'alice', 'rig1', { kind: 'valid', difficulty: 8 }, 1_100);
    now += 5_000;
    await aggregator.flush();
    expect(published.find((b) => b.algorithm === 'scrypt')?.network).toEqual({
      coin: 'LTC',
      height: 7,
      reward: '625000000',
      difficulty: '123.5',
      demo: true,
    });
    expect(published.find((b) => b.algorithm === 'sha256')).not.toHaveProperty('network');
  });

  it('sums shares per worker and algorithm into one batch per algorithm', async () => {
    const { aggregator, published, tick } = setup();
    aggregator.record('sha256', 'alice', 'rig1', { kind: 'valid', difficulty: 1024 }, 1_100);
    aggregator.record('sha256', 'alice', 'rig1', { kind: 'valid', difficulty: 2048 }, 1_200);
    aggregator.record('sha256', 'alice', 'rig1', { kind: 'invalid', reason: 'low-difficulty' }, 1_300);
    aggregator.record('sha256', 'alice', 'rig1', { kind: 'stale', reason: 'stale' }, 1_250);
    aggregator.record('sha256', 'bob', 'default', { kind: 'invalid', reason: 'duplicate' }, 1_400);
    aggregator.record('scrypt', 'alice', 'rig1', { kind: 'valid', difficulty: 0.5 }, 1_500);
    tick(5_000);
    await aggregator.flush();

    expect(published).toHaveLength(2);
    const sha = published.find((b) => b.algorithm === 'sha256');
    expect(sha).toMatchObject({ node: 'node-a', intervalStart: 1_100, intervalEnd: 6_000 });
    expect(sha?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sha?.workers).toEqual([
      {
        account: 'alice',
        worker: 'rig1',
        acceptedDifficulty: 3072,
        valid: 2,
        invalid: 1,
        stale: 1,
        lastShareAt: 1_300,
        // The refused shares came later: the last accepted one is its own time.
        lastAcceptedAt: 1_200,
        rejectReasons: { 'low-difficulty': 1, stale: 1 },
      },
      {
        account: 'bob',
        worker: 'default',
        acceptedDifficulty: 0,
        valid: 0,
        invalid: 1,
        stale: 0,
        lastShareAt: 1_400,
        rejectReasons: { duplicate: 1 },
      },
    ]);

    // Nothing new: nothing published.
    tick(5_000);
    await aggregator.flush();
    expect(published).toHaveLength(2);
  });

  it('keeps a solo port’s shares in their own list with the best share a hash achieved, never in workers', async () => {
    const { aggregator, published, tick } = setup();
    aggregator.record('sha256', 'alice', 'rig1', { kind: 'valid', difficulty: 64 }, 1_100);
    aggregator.record('sha256', 'alice', 'rig1', { kind: 'valid', difficulty: 64, achieved: 900, solo: true }, 1_200);
    aggregator.record('sha256', 'alice', 'rig1', { kind: 'valid', difficulty: 64, achieved: 70, solo: true }, 1_300);
    // A share that found a block (achieved 0) counts as work, not as a best share.
    aggregator.record('sha256', 'alice', 'rig1', { kind: 'valid', difficulty: 64, achieved: 0, solo: true }, 1_350);
    aggregator.record('sha256', 'alice', 'rig1', { kind: 'invalid', reason: 'duplicate', solo: true }, 1_400);
    tick(5_000);
    await aggregator.flush();
    const [batch] = published;
    expect(batch?.workers).toEqual([expect.objectContaining({ account: 'alice', acceptedDifficulty: 64, valid: 1 })]);
    expect(batch?.workers[0]).not.toHaveProperty('bestDifficulty');
    expect(batch?.soloWorkers).toEqual([
      {
        account: 'alice',
        worker: 'rig1',
        acceptedDifficulty: 192,
        valid: 3,
        invalid: 1,
        stale: 0,
        lastShareAt: 1_400,
        lastAcceptedAt: 1_350,
        rejectReasons: { duplicate: 1 },
        bestDifficulty: 900,
      },
    ]);
    // A batch without solo shares carries no list at all.
    aggregator.record('sha256', 'bob', 'rig1', { kind: 'valid', difficulty: 8 }, 6_100);
    tick(5_000);
    await aggregator.flush();
    expect(published[1]).not.toHaveProperty('soloWorkers');
  });

  it('carries connection events in the batch, even one without shares, and bounds them between flushes', async () => {
    const { aggregator, published, tick } = setup();
    const connect = { account: 'alice', worker: 'rig1', session: 's-1', event: 'connect' as const, at: 1_100 };
    aggregator.connection('scrypt', { ...connect, ipRange: '203.0.113.0/24', userAgent: 'cgminer/4.12.1' });
    tick(5_000);
    await aggregator.flush();
    expect(published).toHaveLength(1);
    expect(published[0]?.workers).toEqual([]);
    expect(published[0]?.connections).toEqual([{ ...connect, ipRange: '203.0.113.0/24', userAgent: 'cgminer/4.12.1' }]);

    // A batch of shares alone carries none; the next events start a fresh list.
    aggregator.record('scrypt', 'alice', 'rig1', { kind: 'valid', difficulty: 8 }, 6_100);
    tick(5_000);
    await aggregator.flush();
    expect(published[1]).not.toHaveProperty('connections');

    for (let i = 0; i <= MAX_PENDING_CONNECTIONS; i++) {
      aggregator.connection('scrypt', { ...connect, session: `s-${i}`, event: 'disconnect', reason: 'idle' });
    }
    tick(5_000);
    await aggregator.flush();
    expect(published[2]?.connections).toHaveLength(MAX_PENDING_CONNECTIONS);
  });

  it('retries a batch that failed with the same id and keeps counting meanwhile', async () => {
    const { aggregator, published, tick } = setup(2);
    aggregator.record('sha256', 'alice', 'rig1', { kind: 'valid', difficulty: 10 }, 1_000);
    tick(5_000);
    await aggregator.flush(); // fails
    aggregator.record('sha256', 'alice', 'rig1', { kind: 'valid', difficulty: 20 }, 7_000);
    tick(5_000);
    await aggregator.flush(); // fails again
    expect(published).toHaveLength(0);
    aggregator.record('sha256', 'alice', 'rig1', { kind: 'valid', difficulty: 30 }, 12_000);
    tick(5_000);
    await aggregator.flush(); // the first batch, then everything since
    expect(published.map((b) => b.workers[0]?.acceptedDifficulty)).toEqual([10, 50]);
    expect(published[1]?.intervalStart).toBe(published[0]?.intervalEnd);
    const total = published.reduce((sum, b) => sum + (b.workers[0]?.valid ?? 0), 0);
    expect(total).toBe(3);
  });

  it('flushes on stop and reports batches it could not publish', async () => {
    const ok = setup();
    ok.aggregator.start();
    ok.aggregator.record('x11', 'carol', 'a', { kind: 'valid', difficulty: 1 }, 1_000);
    await ok.aggregator.stop();
    expect(ok.published).toHaveLength(1);

    const failing = setup(10);
    failing.aggregator.record('x11', 'carol', 'a', { kind: 'valid', difficulty: 1 }, 1_000);
    await expect(failing.aggregator.stop()).rejects.toThrow('could not be published');
  });
});
