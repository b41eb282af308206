/**
 * Bad miners against a real listener: garbage, floods, idlers, cheaters. The server answers, closes
 * or bans them, never crashes and never credits a share for bad input.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { POW } from '@lodestone/pow';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findShare } from './client/miner.js';
import { StratumClient } from './client/stratumClient.js';
import { type Harness, startHarness } from './testing/harness.js';

const pow = POW.sha256;
let harness: Harness;

afterEach(async () => {
  await harness?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A connection the server closed at once or right after connecting. */
async function expectRefused(h: Harness): Promise<void> {
  const client = await h.connect();
  await client.closed;
  expect(client.isOpen).toBe(false);
}

describe('stratum robustness', () => {
  it('closes and bans an address that keeps sending garbage', async () => {
    harness = await startHarness({ limits: { maxMalformed: 3, banMs: 60_000 } });
    const client = await harness.connect();
    for (let i = 0; i < 4; i++) client.send(`garbage ${i}\n`);
    await client.closed;
    await expectRefused(harness);
  });

  it('limits connections per address', async () => {
    const registry = new Registry();
    harness = await startHarness({ limits: { maxConnectionsPerAddress: 2 }, registry });
    const first = await harness.connect();
    const second = await harness.connect();
    expect((await first.subscribe()).error).toBeNull();
    expect((await second.subscribe()).error).toBeNull();
    await expectRefused(harness);
    await first.close();
    // The server has let go of the first connection (its address slot is freed before its session ends).
    const sessions = async () => {
      const metric = await registry.getSingleMetric('lodestone_stratum_sessions')?.get();
      return (metric?.values ?? []).reduce((sum, v) => sum + v.value, 0);
    };
    await vi.waitFor(async () => expect(await sessions()).toBe(1), { timeout: 5000, interval: 10 });
    const again = await harness.connect();
    expect((await again.subscribe()).error).toBeNull();
  });

  it('closes connections that never authorize, and authorized ones that stop sending shares', async () => {
    harness = await startHarness({
      limits: { authorizeTimeoutMs: 150, inactivityTimeoutMs: 1500, sweepIntervalMs: 50 },
    });
    const idle = await harness.connect();
    await idle.subscribe();
    const worker = await harness.connect();
    await worker.subscribe();
    await worker.authorize('alice.rig1');
    await idle.closed;
    expect(worker.isOpen).toBe(true);
    await worker.closed;
  });

  it('closes and bans a miner whose shares are mostly invalid', async () => {
    harness = await startHarness({ limits: { invalidShareMinShares: 10, maxInvalidShareRatio: 0.5 } });
    const client = await harness.connect();
    await client.subscribe();
    await client.authorize('mallory.rig1');
    await client.nextJob();
    const state = () => ({
      job: client.job ?? (undefined as never),
      extranonce1: client.extranonce1,
      extranonce2Size: client.extranonce2Size,
      difficulty: client.difficulty ?? 1,
    });
    const answers: unknown[] = [];
    for (let i = 0; i < 10; i++) {
      const low = findShare(state(), pow, { miss: true });
      if (!low) throw new Error('no share');
      answers.push((await client.submit({ worker: 'mallory.rig1', ...low }).catch(() => ({ error: 'closed' }))).error);
    }
    expect(answers.slice(0, 9).every((e) => Array.isArray(e) && e[0] === 23)).toBe(true);
    await client.closed;
    await expectRefused(harness);
    await harness.server.flush();
    expect(harness.bus.totals('mallory', 'rig1')).toMatchObject({ valid: 0, invalid: 10 });
  });

  it('survives random input and never credits a share for it', async () => {
    harness = await startHarness({ limits: { maxMalformed: 1_000_000 } });
    const client = await harness.connect();
    await client.subscribe();
    await client.authorize('fuzzer.rig1');
    const job = await client.nextJob();
    const values: unknown[] = [
      null,
      true,
      -1,
      1e308,
      '',
      'ff'.repeat(40),
      job.jobId,
      'fuzzer.rig1',
      [],
      {},
      [[[]]],
      { __proto__: { polluted: true } },
      '00000000',
      'zzzzzzzz',
    ];
    const pick = () => values[Math.floor(Math.random() * values.length)];
    const methods = [
      'mining.submit',
      'mining.subscribe',
      'mining.configure',
      'mining.suggest_difficulty',
      'mining.authorize',
      42,
      null,
    ];
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) {
      const kind = i % 4;
      if (kind === 0)
        lines.push(
          randomBytes(1 + (i % 60))
            .toString('latin1')
            .replaceAll('\n', ' '),
        );
      else if (kind === 1) lines.push(JSON.stringify(pick()));
      else {
        const params = Array.from({ length: i % 8 }, pick);
        lines.push(
          JSON.stringify({ id: pick(), method: methods[i % methods.length], params: i % 5 === 0 ? pick() : params }),
        );
      }
    }
    client.send(`${lines.join('\n')}\n`);
    client.send('\u0000\u0001\u0002\r\n\r\n{"id":1,\n');
    // The server still works, for this connection and for a new one. Nothing to wait for first: a
    // session handles its lines in order, so this answer comes after every line above was dealt with.
    expect((await client.request('mining.extranonce.subscribe', [])).error).toBeNull();
    const other = await harness.connect();
    expect((await other.subscribe()).error).toBeNull();
    await harness.server.flush();
    const totals = harness.bus.totals('fuzzer', 'rig1');
    expect(totals.valid).toBe(0);
    expect(totals.acceptedDifficulty).toBe(0);
  });

  it('keeps serving others while a client floods requests without reading answers', async () => {
    harness = await startHarness({ limits: { maxWriteBufferBytes: 64 * 1024 } });
    const flooder = net.connect({ host: '127.0.0.1', port: harness.port() });
    flooder.on('error', () => {});
    await new Promise((r) => flooder.once('connect', r));
    flooder.pause();
    const line = '{"id":1,"method":"mining.subscribe","params":["flood"]}\n'.repeat(1000);
    for (let i = 0; i < 200; i++) flooder.write(line);
    // Into the flood: the server reading it, or stalled behind the flooder's full buffers. Where it is
    // shows nowhere outside its sockets, so the test gives the flood 100 ms before another miner comes.
    await sleep(100);
    const client = await harness.connect();
    const started = Date.now();
    expect((await client.subscribe()).error).toBeNull();
    expect(Date.now() - started).toBeLessThan(1000);
    flooder.destroy();
  });

  it('shrugs off connections reset mid-line', async () => {
    harness = await startHarness();
    for (let i = 0; i < 10; i++) {
      const socket = net.connect({ host: '127.0.0.1', port: harness.port() });
      socket.on('error', () => {});
      await new Promise((r) => socket.once('connect', r));
      socket.write('{"id":1,"method":"mining.subscr');
      socket.resetAndDestroy();
    }
    const client = await StratumClient.connect({ host: '127.0.0.1', port: harness.port() });
    expect((await client.subscribe()).error).toBeNull();
    client.destroy();
  });
});
