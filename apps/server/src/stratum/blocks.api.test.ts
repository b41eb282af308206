/**
 * Block candidates and the server's lifecycle: a share under the network target goes to the daemon
 * at once and is reported on the bus; stop() flushes; TLS ports; metrics.
 */
import { DemoJobSource, type SubmitBlockResult } from '@lodestone/chain';
import { POW } from '@lodestone/pow';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bitcoinWork } from '../chains/bitcoin/index.js';
import { findShare } from './client/miner.js';
import { StratumClient } from './client/stratumClient.js';
import { FixtureJobSource } from './testing/fixtureJobs.js';
import { EASY_SHA256_DIFFICULTY, type Harness, startHarness } from './testing/harness.js';
import { selfSignedCertificate } from './testing/selfSigned.js';

const pow = POW.sha256;
const MAX_TARGET = (1n << 256n) - 1n;
let harness: Harness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function ready(h: Harness, login = 'alice.rig1', kind: 'standard' | 'xnsub' = 'standard') {
  const client = await h.connect(kind);
  await client.subscribe();
  await client.authorize(login);
  await client.nextJob();
  return client;
}

function state(client: StratumClient) {
  if (!client.job || client.difficulty === undefined) throw new Error('no work yet');
  return {
    job: client.job,
    extranonce1: client.extranonce1,
    extranonce2Size: client.extranonce2Size,
    difficulty: client.difficulty,
  };
}

/** How long a test waits for the server to act on the bus, and how often it looks. */
const patiently = { timeout: 5000, interval: 10 };

describe('block candidates', () => {
  it('submits a share under the network target to the daemon and publishes the found block', async () => {
    harness = await startHarness({ networkTarget: MAX_TARGET });
    const client = await ready(harness);
    const share = findShare(state(client), pow);
    if (!share) throw new Error('no share');
    expect((await client.submit({ worker: 'alice.rig1', ...share })).result).toBe(true);
    await vi.waitFor(() => expect(harness?.bus.blocks).toHaveLength(1), patiently);
    const { source, bus } = harness;
    expect(source.submitted).toHaveLength(1);
    const submitted = source.submitted[0];
    const job = source.current();
    expect(submitted?.job).toBe(job);
    expect(submitted?.blockHex.slice(0, 160)).toHaveLength(160);
    expect(bus.blocks[0]).toMatchObject({
      node: 'test-node',
      algorithm: 'sha256',
      coin: 'BTC',
      height: job?.height,
      reward: '625000000',
      account: 'alice',
      worker: 'rig1',
      difficulty: EASY_SHA256_DIFFICULTY,
      submitResult: { accepted: true },
    });
    expect(bus.blocks[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reports the daemon’s refusal, or its failure, as the block’s submit result; the miner never waits', async () => {
    let release: (result: SubmitBlockResult) => void = () => {};
    let calls = 0;
    const source = new FixtureJobSource({
      algorithm: 'sha256',
      networkTarget: MAX_TARGET,
      submitResult: () => {
        calls++;
        if (calls === 2) throw new Error('daemon unreachable');
        return new Promise((resolve) => {
          release = resolve;
        });
      },
    });
    harness = await startHarness({ work: [bitcoinWork(source)] });
    const client = await ready(harness);
    const first = findShare(state(client), pow);
    if (!first) throw new Error('no share');
    // Answered while the daemon has not answered yet.
    expect((await client.submit({ worker: 'alice.rig1', ...first })).result).toBe(true);
    expect(harness.bus.blocks).toHaveLength(0);
    release({ accepted: false, hash: 'ab'.repeat(32), reason: 'high-hash' });
    await vi.waitFor(() => expect(harness?.bus.blocks).toHaveLength(1), patiently);
    expect(harness.bus.blocks[0]).toMatchObject({
      hash: 'ab'.repeat(32),
      submitResult: { accepted: false, reason: 'high-hash' },
    });

    const second = findShare(state(client), pow);
    if (!second) throw new Error('no share');
    expect((await client.submit({ worker: 'alice.rig1', ...second })).result).toBe(true);
    await vi.waitFor(() => expect(harness?.bus.blocks).toHaveLength(2), patiently);
    expect(harness.bus.blocks[1]).toMatchObject({ submitResult: { accepted: false, reason: 'daemon unreachable' } });
    expect(harness.bus.blocks[1]?.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('finds a block the demo network (chain package) accepts: header, coinbase and merkle root agree', async () => {
    const demo = new DemoJobSource({ algorithm: 'sha256', expectedHashesPerBlock: 64n, blockIntervalMs: 3_600_000 });
    await demo.start();
    harness = await startHarness({
      work: [bitcoinWork(demo)],
      listeners: [{ kind: 'standard', minDifficulty: undefined, startDifficulty: undefined }],
    });
    const listener = harness.server.listeners[0];
    expect(listener?.startDifficulty).toBe(4096 / 2 ** 32);
    const client = await ready(harness);
    let accepted = false;
    for (let attempt = 0; attempt < 20 && !accepted; attempt++) {
      const share = findShare(state(client), pow);
      if (!share) throw new Error('no share');
      expect((await client.submit({ worker: 'alice.rig1', ...share })).result).toBe(true);
      await vi.waitFor(() => expect(harness?.bus.blocks.length).toBeGreaterThan(attempt), patiently);
      accepted = harness.bus.blocks.some((b) => b.submitResult.accepted);
      if (!accepted) await client.nextJob();
    }
    expect(accepted).toBe(true);
    expect(demo.blocksAccepted).toBeGreaterThan(0);
    // The demo chain moved on: a clean job reached the miner.
    const clean = await client.nextJob((j) => j.cleanJobs);
    expect(clean.cleanJobs).toBe(true);
    await demo.stop();
  });
});

describe('server lifecycle', () => {
  it('stop() closes sessions and publishes the last share batch', async () => {
    const h = await startHarness({ flushIntervalMs: 60_000 });
    const client = await ready(h);
    const share = findShare(state(client), pow);
    if (!share) throw new Error('no share');
    expect((await client.submit({ worker: 'alice.rig1', ...share })).result).toBe(true);
    expect(h.bus.batches).toHaveLength(0);
    await h.server.stop();
    await client.closed;
    expect(h.bus.totals('alice', 'rig1')).toMatchObject({ valid: 1, acceptedDifficulty: EASY_SHA256_DIFFICULTY });
    await expect(StratumClient.connect({ host: '127.0.0.1', port: h.port() })).rejects.toThrow();
  });

  it('flushes every interval and retries a batch the bus refused', async () => {
    harness = await startHarness({ flushIntervalMs: 100 });
    harness.bus.failBatches = 2;
    const client = await ready(harness);
    for (let i = 0; i < 3; i++) {
      const share = findShare(state(client), pow);
      if (!share) throw new Error('no share');
      await client.submit({ worker: 'alice.rig1', ...share });
    }
    // The three shares arrive in one interval or, on a loaded machine, in two: either way each is
    // delivered once, after the two refused publishes.
    await vi.waitFor(() => expect(harness?.bus.totals('alice', 'rig1').valid).toBe(3), { ...patiently, timeout: 3000 });
    expect(harness.bus.failBatches).toBe(0);
    expect(harness.bus.totals('alice', 'rig1')).toMatchObject({
      valid: 3,
      acceptedDifficulty: 3 * EASY_SHA256_DIFFICULTY,
    });
    const ids = harness.bus.batches.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('serves stratum+ssl on a TLS listener', async (context) => {
    const tls = selfSignedCertificate();
    if (!tls) return context.skip();
    harness = await startHarness({
      listeners: [{ kind: 'standard', tls }],
    });
    expect(harness.server.listeners[0]?.tls).toBe(true);
    const client = await StratumClient.connect({ host: '127.0.0.1', port: harness.port(), tls: true });
    expect((await client.subscribe()).error).toBeNull();
    expect((await client.authorize('alice.rig1')).result).toBe(true);
    await client.nextJob();
    client.destroy();
  });

  it('counts sessions and shares in the metrics registry', async () => {
    const registry = new Registry();
    harness = await startHarness({ registry });
    const client = await ready(harness);
    const share = findShare(state(client), pow);
    if (!share) throw new Error('no share');
    await client.submit({ worker: 'alice.rig1', ...share });
    await client.submit({ worker: 'alice.rig1', ...share });
    const text = await registry.metrics();
    expect(text).toContain('lodestone_stratum_sessions{algorithm="sha256",kind="standard"} 1');
    expect(text).toContain('lodestone_stratum_shares_total{algorithm="sha256",outcome="valid",reason=""} 1');
    expect(text).toContain('lodestone_stratum_shares_total{algorithm="sha256",outcome="invalid",reason="duplicate"} 1');
  });

  it('refuses to start without a job source for a configured algorithm, releasing what it opened', async () => {
    await expect(
      startHarness({ listeners: [{ kind: 'standard' }, { kind: 'standard', algorithm: 'scrypt' }] }),
    ).rejects.toThrow('no job source for scrypt');
  });
});
