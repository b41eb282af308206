/**
 * Replayed miner sessions against a real listener on 127.0.0.1: subscribe → configure → authorize →
 * notify → submit, covering every share outcome, and how the shares reach the bus.
 */
import { POW } from '@lodestone/pow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findShare } from './client/miner.js';
import type { StratumClient } from './client/stratumClient.js';
import { hex32 } from './client/work.js';
import { EASY_SHA256_DIFFICULTY, type Harness, startHarness } from './testing/harness.js';
import { roundDifficulty } from './vardiff.js';

const pow = POW.sha256;
let harness: Harness;

afterEach(async () => {
  await harness?.close();
});

/** subscribe → configure → authorize, then the first set_difficulty and notify. */
async function miner(h: Harness, login = 'alice.rig1', options: { configure?: boolean; password?: string } = {}) {
  const client = await h.connect();
  const subscribed = await client.subscribe('cgminer/4.12.0');
  expect(subscribed.error).toBeNull();
  if (options.configure !== false) {
    const configured = await client.configure('ffffffff', 2);
    expect(configured.result).toEqual({ 'version-rolling': true, 'version-rolling.mask': '1fffe000' });
  }
  const authorized = await client.authorize(login, options.password ?? 'x');
  expect(authorized).toEqual({ id: expect.any(Number), result: true, error: null });
  const difficulty = await client.next((m) => m.method === 'mining.set_difficulty');
  const job = await client.nextJob();
  return { client, difficulty: difficulty.params?.[0] as number, job };
}

function state(client: StratumClient) {
  if (!client.job || client.difficulty === undefined) throw new Error('no work yet');
  return {
    job: client.job,
    extranonce1: client.extranonce1,
    extranonce2Size: client.extranonce2Size,
    difficulty: client.difficulty,
    versionMask: client.versionMask,
  };
}

describe('stratum session over TCP', () => {
  it('replays a miner session: valid, rolled, low, duplicate, bad ntime, bad version, bad extranonce2, unknown job', async () => {
    harness = await startHarness();
    const { client, difficulty, job } = await miner(harness);
    expect(client.extranonce1).toMatch(/^[0-9a-f]{8}$/);
    expect(client.extranonce2Size).toBe(4);
    expect(difficulty).toBe(EASY_SHA256_DIFFICULTY);
    expect(job.cleanJobs).toBe(true);
    // set_difficulty came before the notify.
    expect(client.notifications.map((m) => m.method)).toEqual(['mining.set_difficulty', 'mining.notify']);

    const worker = 'alice.rig1';
    const valid = findShare(state(client), pow);
    if (!valid) throw new Error('no share');
    expect(await client.submit({ worker, ...valid })).toMatchObject({ result: true, error: null });

    const rolled = findShare(state(client), pow, { versionBits: 0x00006000 });
    if (!rolled) throw new Error('no share');
    expect(await client.submit({ worker, ...rolled })).toMatchObject({ result: true, error: null });

    const low = findShare(state(client), pow, { miss: true });
    if (!low) throw new Error('no share');
    expect((await client.submit({ worker, ...low })).error?.[0]).toBe(23);

    expect((await client.submit({ worker, ...valid })).error?.[0]).toBe(22);

    const tooLate = findShare(state(client), pow, { ntime: job.ntime + 7300 });
    if (!tooLate) throw new Error('no share');
    expect((await client.submit({ worker, ...tooLate })).error).toEqual([20, 'ntime out of range', null]);

    const badVersion = findShare(state(client), pow, { versionBits: 0x40000000 });
    if (!badVersion) throw new Error('no share');
    expect((await client.submit({ worker, ...badVersion })).error?.[0]).toBe(20);

    expect((await client.submit({ worker, ...valid, extranonce2: '000001' })).error?.[0]).toBe(20);
    expect((await client.submit({ worker, ...valid, jobId: 'ffff' })).error?.[0]).toBe(21);

    await harness.server.flush();
    const totals = harness.bus.totals('alice', 'rig1');
    expect(totals).toEqual({
      acceptedDifficulty: 2 * EASY_SHA256_DIFFICULTY,
      valid: 2,
      invalid: 6,
      stale: 0,
      rejectReasons: {
        'low-difficulty': 1,
        duplicate: 1,
        'ntime-out-of-range': 1,
        'bad-version-bits': 1,
        'bad-extranonce2': 1,
        'job-not-found': 1,
      },
    });
    expect(harness.bus.batches[0]).toMatchObject({ node: 'test-node', algorithm: 'sha256' });
  });

  it('answers shares of jobs from an older block as stale after a clean job', async () => {
    harness = await startHarness();
    const { client } = await miner(harness, 'alice.rig1', { configure: false });
    const old = state(client);
    harness.source.nextJob();
    const second = await client.nextJob();
    expect(second.cleanJobs).toBe(false);
    // A job of the same block stays valid.
    const stillValid = findShare(old, pow);
    if (!stillValid) throw new Error('no share');
    expect((await client.submit({ worker: 'alice.rig1', ...stillValid })).result).toBe(true);

    harness.source.newBlock();
    const clean = await client.nextJob();
    expect(clean.cleanJobs).toBe(true);
    const stale = findShare(old, pow);
    if (!stale) throw new Error('no share');
    expect((await client.submit({ worker: 'alice.rig1', ...stale })).error).toEqual([
      21,
      'Stale share (job of an older block)',
      null,
    ]);
    const fresh = findShare(state(client), pow);
    if (!fresh) throw new Error('no share');
    expect((await client.submit({ worker: 'alice.rig1', ...fresh })).result).toBe(true);

    await harness.server.flush();
    expect(harness.bus.totals('alice', 'rig1')).toMatchObject({ valid: 2, stale: 1, invalid: 0 });
  });

  it('refuses submits before subscribe (25) and for workers not authorized (24)', async () => {
    harness = await startHarness();
    const client = await harness.connect();
    const early = await client.submit({
      worker: 'alice.rig1',
      jobId: '1',
      extranonce2: '00000000',
      ntime: 1,
      nonce: 1,
    });
    expect(early.error).toEqual([25, 'Not subscribed', null]);
    await client.subscribe();
    const unauthorized = await client.submit({
      worker: 'alice.rig1',
      jobId: '1',
      extranonce2: '00000000',
      ntime: 1,
      nonce: 1,
    });
    expect(unauthorized.error).toEqual([24, 'Unauthorized worker', null]);
    await client.authorize('alice.rig1');
    await client.nextJob();
    const other = findShare(state(client), pow);
    if (!other) throw new Error('no share');
    expect((await client.submit({ worker: 'mallory.rig1', ...other })).error?.[0]).toBe(24);
    expect((await client.authorize('no')).error?.[0]).toBe(24);
    expect((await client.authorize('bad name.rig')).error?.[0]).toBe(24);
    await harness.server.flush();
    // No share was counted; the one login that succeeded is reported as a connection, the refused ones are not.
    expect(harness.bus.batches.flatMap((b) => b.workers)).toEqual([]);
    expect(harness.bus.batches.flatMap((b) => b.connections ?? []).map((e) => [e.worker, e.event])).toEqual([
      ['rig1', 'connect'],
    ]);
  });

  it('asks the injected account check, and serves several workers on one connection', async () => {
    harness = await startHarness({ authorize: async (account) => account !== 'banned-user' });
    const client = await harness.connect();
    await client.subscribe();
    expect((await client.authorize('banned-user.rig')).error).toEqual([24, "Unknown account 'banned-user'", null]);
    expect((await client.authorize('alice.rig1')).result).toBe(true);
    expect((await client.authorize('bob', 'x')).result).toBe(true);
    await client.nextJob();
    for (const worker of ['alice.rig1', 'bob']) {
      const share = findShare(state(client), pow);
      if (!share) throw new Error('no share');
      expect((await client.submit({ worker, ...share })).result).toBe(true);
    }
    await harness.server.flush();
    expect(harness.bus.totals('alice', 'rig1').valid).toBe(1);
    expect(harness.bus.totals('bob', 'default').valid).toBe(1);
  });

  it('reports each worker’s connect and its disconnect with the reason, in the share batches', async () => {
    harness = await startHarness();
    const left = await miner(harness, 'alice.rig1');
    left.client.close();
    await left.client.closed;
    const idle = await miner(harness, 'bob.rig2');
    const client = await harness.connect();
    client.send(`{"id":1,"method":"mining.subscribe","params":["${'x'.repeat(2000)}"]}\n`);
    await vi.waitFor(async () => {
      await harness.server.flush();
      expect(harness.bus.batches.flatMap((b) => b.connections ?? []).map((e) => e.worker)).toEqual([
        'rig1',
        'rig1',
        'rig2',
      ]);
    });
    await harness.server.stop();
    await idle.client.closed;
    const events = harness.bus.batches.flatMap((b) => b.connections ?? []);
    const [connect, disconnect, bobIn, bobOut] = events;
    expect(connect).toEqual({
      account: 'alice',
      worker: 'rig1',
      session: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event: 'connect',
      at: expect.any(Number),
      ipRange: '127.0.0.0/24',
      userAgent: 'cgminer/4.12.0',
    });
    expect(disconnect).toMatchObject({ session: connect?.session, event: 'disconnect', reason: 'closed by miner' });
    expect(bobIn?.session).not.toBe(connect?.session);
    // The pool's own reason when it closes the connection; a connection that never logged in is not a worker's.
    expect(bobOut).toMatchObject({ worker: 'rig2', event: 'disconnect', reason: 'server shutting down' });
    expect(events).toHaveLength(4);
  });

  it('answers malformed JSON with error 20 and goes on', async () => {
    harness = await startHarness();
    const client = await harness.connect();
    client.send('this is not json\n');
    expect(await client.next()).toEqual({ id: null, result: null, error: [20, 'Malformed request: not JSON', null] });
    client.send('{"id":7,"method":"mining.submit","params":{}}\n');
    expect((await client.next()).error).toEqual([20, 'Malformed request: params must be a list', null]);
    client.send('{"id":8,"method":"mining.get_transactions","params":[]}\n');
    expect((await client.next()).error).toEqual([20, 'Unknown method mining.get_transactions', null]);
    expect((await client.subscribe()).error).toBeNull();
  });

  it('handles lines sent in one TCP chunk, and lines split across chunks, in order', async () => {
    harness = await startHarness();
    const client = await harness.connect();
    const lines = [
      '{"id":1,"method":"mining.subscribe","params":["x"]}',
      '{"id":2,"method":"mining.configure","params":[["version-rolling"],{"version-rolling.mask":"1fffe000"}]}',
      '{"id":3,"method":"mining.authorize","params":["alice.rig1","x"]}',
      '{"id":4,"method":"mining.suggest_difficulty","params":[0.5]}',
      '{"id":5,"method":"mining.extranonce.subscribe","params":[]}',
    ];
    client.send(`${lines.join('\n')}\n`);
    const ids: unknown[] = [];
    for (let i = 0; i < 5; i++) ids.push((await client.next((m) => m.id !== null)).id);
    expect(ids).toEqual([1, 2, 3, 4, 5]);

    const split = await harness.connect();
    const text = `${lines.map((l) => l.replace(/"id":(\d)/, '"id":1$1')).join('\r\n')}\r\n`;
    for (let i = 0; i < text.length; i += 7) {
      split.send(text.slice(i, i + 7));
      // No time to wait, two turns of the event loop: the client writes without delay (setNoDelay) and
      // the server, in this process, reads its socket in the poll phase between them; each piece its own read.
      for (let turn = 0; turn < 2; turn++) await new Promise((r) => setImmediate(r));
    }
    const splitIds: unknown[] = [];
    for (let i = 0; i < 5; i++) splitIds.push((await split.next((m) => m.id !== null)).id);
    expect(splitIds).toEqual([11, 12, 13, 14, 15]);
  });

  it('closes the connection on an over-long line', async () => {
    harness = await startHarness({ limits: { maxLineBytes: 1024 } });
    const client = await harness.connect();
    client.send(`{"id":1,"method":"mining.subscribe","params":["${'x'.repeat(2000)}"]}\n`);
    expect((await client.next()).error).toEqual([20, 'Line too long', null]);
    await client.closed;
  });

  it('applies d=N and suggest_difficulty within the port bounds, set_difficulty before the notify', async () => {
    harness = await startHarness({
      listeners: [{ kind: 'standard', minDifficulty: 0.001, maxDifficulty: 1000, startDifficulty: 1 }],
    });
    const { client, difficulty } = await miner(harness, 'alice.rig1', { password: 'x,d=5000' });
    expect(difficulty).toBe(1000);
    expect((await client.request('mining.suggest_difficulty', [0.01])).result).toBe(true);
    const set = await client.next((m) => m.method === 'mining.set_difficulty');
    expect(set.params).toEqual([0.01]);
    const job = await client.nextJob();
    expect(job.cleanJobs).toBe(false);
    expect(harness.server.listeners[0]).toMatchObject({
      minDifficulty: 0.001,
      maxDifficulty: 1000,
      startDifficulty: 1,
    });
  });

  it('never sends a share difficulty above the blocks’ (a miner would keep blocks to itself), nor below the port’s start', async () => {
    // Blocks at difficulty 4: a share difficulty of 50,000 would hide every block between 4 and 50,000.
    const networkTarget = pow.targetForDifficulty(4);
    harness = await startHarness({
      networkTarget,
      listeners: [{ kind: 'standard', minDifficulty: 0.001, maxDifficulty: 1_000_000, startDifficulty: 1 }],
    });
    const { client, difficulty } = await miner(harness, 'alice.rig1', { password: 'x,d=50000' });
    expect(difficulty).toBeCloseTo(pow.difficultyForTarget(networkTarget), 9);
    expect(difficulty).toBeLessThanOrEqual(4);
    // Asking below it is honoured; asking above it again is capped again.
    expect((await client.request('mining.suggest_difficulty', [0.5])).result).toBe(true);
    expect((await client.next((m) => m.method === 'mining.set_difficulty')).params).toEqual([0.5]);
    expect((await client.request('mining.suggest_difficulty', [900])).result).toBe(true);
    const capped = (await client.next((m) => m.method === 'mining.set_difficulty')).params?.[0] as number;
    expect(capped).toBeCloseTo(difficulty, 9);
    await harness.close();

    // Blocks easier than the port's start difficulty (regtest): the start holds, as the operator set it
    // for the share rate the node takes; each share is a block.
    harness = await startHarness({
      networkTarget: pow.targetForDifficulty(0.0001),
      listeners: [{ kind: 'standard', minDifficulty: 0.00001, maxDifficulty: 1000, startDifficulty: 1 }],
    });
    expect((await miner(harness, 'alice.rig1', { password: 'x,d=50' })).difficulty).toBe(1);
  });

  it('checks shares of an older job at the difficulty that job was sent with', async () => {
    harness = await startHarness({
      listeners: [
        { kind: 'standard', minDifficulty: 1e-12, maxDifficulty: 1, startDifficulty: EASY_SHA256_DIFFICULTY },
      ],
    });
    const { client } = await miner(harness, 'alice.rig1', { configure: false });
    const before = state(client);
    // Much harder: one hash in 2^20 would meet it. The old job keeps its easy target.
    await client.request('mining.suggest_difficulty', [EASY_SHA256_DIFFICULTY * 65536]);
    await client.nextJob();
    const share = findShare(before, pow);
    if (!share) throw new Error('no share');
    expect((await client.submit({ worker: 'alice.rig1', ...share })).result).toBe(true);
    // On the new job the easy share is low difficulty.
    const easyOnNew = findShare({ ...state(client), difficulty: EASY_SHA256_DIFFICULTY }, pow);
    if (!easyOnNew) throw new Error('no share');
    const answer = await client.submit({ worker: 'alice.rig1', ...easyOnNew });
    // One in 65536 easy shares also meets the hard target; anything else is refused as low difficulty.
    if (answer.error) expect(answer.error[0]).toBe(23);
  });

  it('retargets a fast miner: set_difficulty, then a notify carrying it', async () => {
    harness = await startHarness({ vardiff: { retargetWindowMs: 60_000, earlyRetargetShares: 8 } });
    const { client, difficulty } = await miner(harness, 'alice.rig1', { configure: false });
    for (let i = 0; i < 8; i++) {
      const share = findShare(state(client), pow);
      if (!share) throw new Error('no share');
      expect((await client.submit({ worker: 'alice.rig1', ...share })).result).toBe(true);
    }
    const set = await client.next((m) => m.method === 'mining.set_difficulty');
    expect(set.params?.[0]).toBe(roundDifficulty(difficulty * 16));
    const methods = client.notifications.map((m) => m.method);
    expect(methods.slice(-2)).toEqual(['mining.set_difficulty', 'mining.notify']);
  });

  it('re-sends the job for a retarget with a later ntime, and keeps the old job at its own difficulty', async () => {
    harness = await startHarness({ vardiff: { retargetWindowMs: 60_000, earlyRetargetShares: 8 } });
    const { client, difficulty, job } = await miner(harness, 'alice.rig1', { configure: false });
    const old = state(client);
    for (let i = 0; i < 8; i++) {
      const share = findShare(old, pow);
      if (!share) throw new Error('no share');
      expect((await client.submit({ worker: 'alice.rig1', ...share })).result).toBe(true);
    }
    const resent = await client.nextJob();
    expect(client.difficulty).toBeGreaterThan(difficulty);
    // Same template, new id, ntime one second later: a different header, so no miner re-hashes old work.
    expect(resent.jobId).not.toBe(job.jobId);
    expect(resent.coinbase1).toBe(job.coinbase1);
    expect(resent.ntime).toBe(job.ntime + 1);
    expect(resent.cleanJobs).toBe(false);
    // A miner still on the old job (cpuminer 2.5.1 keeps it until the header changes) is credited at
    // the old difficulty (vardiff counts them at it too: vardiff.test.ts).
    for (let i = 0; i < 8; i++) {
      const share = findShare(old, pow);
      if (!share) throw new Error('no share');
      expect((await client.submit({ worker: 'alice.rig1', ...share })).result).toBe(true);
    }
    await harness.server.flush();
    expect(harness.bus.totals('alice', 'rig1')).toMatchObject({ valid: 16, acceptedDifficulty: 16 * difficulty });
  });

  it('offers extranonce subscription on the xnsub port only, and sends set_extranonce when the size changes', async () => {
    harness = await startHarness();
    const standard = await harness.connect('standard');
    expect((await standard.request('mining.extranonce.subscribe', [])).result).toBe(false);

    const xnsub = await harness.connect('xnsub');
    await xnsub.subscribe();
    await xnsub.authorize('alice.rig1#xnsub');
    await xnsub.nextJob();
    const plain = await harness.connect('xnsub');
    await plain.subscribe();
    await plain.authorize('alice.rig2');
    await plain.nextJob();

    harness.source.extranonceSize = 12;
    harness.source.newBlock();
    const set = await xnsub.next((m) => m.method === 'mining.set_extranonce');
    expect(set.params).toEqual([xnsub.extranonce1, 8]);
    const job = await xnsub.nextJob();
    const share = findShare(state(xnsub), pow);
    if (!share) throw new Error('no share');
    expect(share.extranonce2).toHaveLength(16);
    expect((await xnsub.submit({ worker: 'alice.rig1#xnsub', ...share, jobId: job.jobId })).result).toBe(true);
    // A session that cannot be told about the new size is closed so the miner reconnects.
    await plain.closed;
  });

  it('gives each session its own extranonce1', async () => {
    harness = await startHarness();
    const clients = await Promise.all(Array.from({ length: 20 }, () => harness.connect()));
    await Promise.all(clients.map((c) => c.subscribe()));
    expect(new Set(clients.map((c) => c.extranonce1)).size).toBe(20);
  });

  it('accepts ntime rolled forward within the window', async () => {
    harness = await startHarness();
    const { client, job } = await miner(harness, 'alice.rig1', { configure: false });
    const share = findShare(state(client), pow, { ntime: job.ntime + 30 });
    if (!share) throw new Error('no share');
    expect(share.ntime).toBe(hex32(job.ntime + 30));
    expect((await client.submit({ worker: 'alice.rig1', ...share })).result).toBe(true);
  });

  it('works when authorize comes before subscribe', async () => {
    harness = await startHarness();
    const client = await harness.connect();
    expect((await client.authorize('alice.rig1')).result).toBe(true);
    expect(client.notifications).toEqual([]);
    await client.subscribe();
    await client.nextJob();
    const share = findShare(state(client), pow);
    if (!share) throw new Error('no share');
    expect((await client.submit({ worker: 'alice.rig1', ...share })).result).toBe(true);
  });

  it('answers "job not found" for a job of this block let go for memory, "stale" only after a new block', async () => {
    harness = await startHarness({ limits: { maxIssuedJobs: 4 } });
    const { client } = await miner(harness, 'alice.rig1', { configure: false });
    const first = state(client);
    for (let i = 0; i < 4; i++) {
      harness.source.nextJob();
      await client.nextJob();
    }
    const share = findShare(first, pow);
    if (!share) throw new Error('no share');
    expect((await client.submit({ worker: 'alice.rig1', ...share })).error).toEqual([21, 'Job not found', null]);
    const recent = state(client);
    harness.source.newBlock();
    await client.nextJob();
    const late = findShare(recent, pow);
    if (!late) throw new Error('no share');
    expect((await client.submit({ worker: 'alice.rig1', ...late })).error).toEqual([
      21,
      'Stale share (job of an older block)',
      null,
    ]);
    await harness.server.flush();
    expect(harness.bus.totals('alice', 'rig1')).toMatchObject({ stale: 1, invalid: 1 });
  });
});
