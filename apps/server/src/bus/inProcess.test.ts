import type { FoundBlock, ShareBatch } from '@lodestone/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BusClosedError, type BusEvent, BusFullError, InProcessBus, type InProcessBusOptions } from './inProcess.js';
import type { InvalidMessage } from './types.js';

function batch(n: number): ShareBatch {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    node: 'node-1',
    algorithm: 'scrypt',
    intervalStart: 1_700_000_000_000 + n * 5000,
    intervalEnd: 1_700_000_005_000 + n * 5000,
    workers: [
      {
        account: 'alice',
        worker: 'rig1',
        acceptedDifficulty: n,
        valid: 1,
        invalid: 0,
        stale: 0,
        lastShareAt: 1_700_000_004_000 + n * 5000,
        rejectReasons: {},
      },
    ],
  };
}

const block: FoundBlock = {
  id: '00000000-0000-4000-8000-00000000b10c',
  node: 'node-1',
  algorithm: 'scrypt',
  coin: 'LTC',
  height: 100,
  hash: 'ab'.repeat(32),
  reward: '625000000',
  account: 'alice',
  worker: 'rig1',
  difficulty: 1024,
  foundAt: 1_700_000_000_000,
  submitResult: { accepted: true },
};

/** A handler's own work: what the bus must wait out, not a wait in the test. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long a test waits for the bus to deliver, and how often it looks. */
const delivery = { timeout: 2000, interval: 2 };

describe('InProcessBus', () => {
  let bus: InProcessBus;
  const events: BusEvent[] = [];
  const make = (options: InProcessBusOptions = {}) => {
    events.length = 0;
    bus = new InProcessBus({ retryBackoffMs: 5, onEvent: (e) => events.push(e), ...options });
    return bus;
  };
  afterEach(async () => {
    await bus?.close();
  });

  it('delivers messages in publish order, including those published before anyone consumed', async () => {
    make();
    await bus.publishShareBatch(batch(1));
    await bus.publishShareBatch(batch(2));
    const seen: number[] = [];
    await bus.consumeShareBatches(async (b) => {
      await pause(Math.random() * 3);
      seen.push(b.workers[0]?.acceptedDifficulty ?? -1);
    });
    for (let n = 3; n <= 20; n++) await bus.publishShareBatch(batch(n));
    await vi.waitFor(() => expect(seen).toHaveLength(20), delivery);
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('keeps subjects apart', async () => {
    make();
    const batches: string[] = [];
    const blocks: string[] = [];
    await bus.consumeShareBatches(async (b) => void batches.push(b.id));
    await bus.consumeFoundBlocks(async (b) => void blocks.push(b.hash));
    await bus.publishFoundBlock(block);
    await bus.publishShareBatch(batch(1));
    await vi.waitFor(() => {
      expect(batches).toHaveLength(1);
      expect(blocks).toHaveLength(1);
    }, delivery);
    expect(batches).toEqual([batch(1).id]);
    expect(blocks).toEqual([block.hash]);
  });

  it('redelivers a message whose handler threw, after a growing back-off, before any later message', async () => {
    make();
    const calls: { n: number; at: number }[] = [];
    let failures = 2;
    await bus.consumeShareBatches(async (b) => {
      const n = b.workers[0]?.acceptedDifficulty ?? -1;
      calls.push({ n, at: Date.now() });
      if (n === 1 && failures-- > 0) throw new Error('database unavailable');
    });
    await bus.publishShareBatch(batch(1));
    await bus.publishShareBatch(batch(2));
    await vi.waitFor(() => expect(calls).toHaveLength(4), delivery);
    expect(calls.map((c) => c.n)).toEqual([1, 1, 1, 2]);
    expect(events).toEqual([
      {
        type: 'handler-failed',
        subject: 'share-batches',
        attempt: 1,
        retryInMs: 5,
        error: new Error('database unavailable'),
      },
      {
        type: 'handler-failed',
        subject: 'share-batches',
        attempt: 2,
        retryInMs: 10,
        error: new Error('database unavailable'),
      },
    ]);
    const [a, b, c] = calls.map((x) => x.at);
    expect((b ?? 0) - (a ?? 0)).toBeGreaterThanOrEqual(4);
    expect((c ?? 0) - (b ?? 0)).toBeGreaterThanOrEqual(9);
  });

  it('hands each consumer a copy, as if the message had been serialized', async () => {
    make();
    const original = batch(1);
    const received: ShareBatch[] = [];
    await bus.publishShareBatch(original);
    (original.workers[0] as ShareBatch['workers'][number]).rejectReasons.duplicate = 1;
    original.workers[0] = { ...(original.workers[0] as ShareBatch['workers'][number]), acceptedDifficulty: 999 };
    await bus.consumeShareBatches(async (b) => void received.push(b));
    await vi.waitFor(() => expect(received).toHaveLength(1), delivery);
    expect(received[0]).toEqual(batch(1));
    expect(received[0]).not.toBe(original);
  });

  it('parses each delivery with its contract schema: an invalid message is reported and dropped, never handled', async () => {
    make();
    const nan = batch(3);
    nan.workers[0] = { ...(nan.workers[0] as ShareBatch['workers'][number]), acceptedDifficulty: Number.NaN };
    await bus.publishShareBatch(batch(1));
    await bus.publishShareBatch({ ...batch(2), id: 'garbage' });
    await bus.publishShareBatch(nan);
    await bus.publishShareBatch(batch(4));
    const handled: number[] = [];
    const invalid: InvalidMessage[] = [];
    await bus.consumeShareBatches(async (b) => void handled.push(b.workers[0]?.acceptedDifficulty ?? -1), {
      onInvalid: (i) => invalid.push(i),
    });
    // An empty queue means every message was delivered or dropped: nothing is left to be handled later.
    await vi.waitFor(() => expect(bus.pending()['share-batches']).toBe(0), delivery);
    expect(handled).toEqual([1, 4]);
    expect(invalid.map(({ subject, id }) => ({ subject, id }))).toEqual([
      { subject: 'share-batches', id: 'garbage' },
      { subject: 'share-batches', id: nan.id },
    ]);
    expect(invalid[1]?.error).toBeInstanceOf(z.ZodError);
    expect(bus.pending()['share-batches']).toBe(0);
    expect(events).toEqual([]);
  });

  it('reports an invalid message to onEvent when its consumer has no onInvalid', async () => {
    make();
    const blocks: string[] = [];
    await bus.consumeFoundBlocks(async (b) => void blocks.push(b.id));
    await bus.publishFoundBlock({ ...block, hash: `0x${block.hash}` });
    await bus.publishFoundBlock(block);
    await vi.waitFor(() => expect(blocks).toHaveLength(1), delivery);
    expect(blocks).toEqual([block.id]);
    expect(events).toEqual([expect.objectContaining({ type: 'invalid', subject: 'found-blocks', id: block.id })]);
  });

  it('never runs two handlers of a subject at once; several consumers take turns', async () => {
    make();
    let running = 0;
    let maxRunning = 0;
    const byConsumer: Record<string, number[]> = { a: [], b: [] };
    const handler = (name: 'a' | 'b') => async (b: ShareBatch) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await pause(1);
      byConsumer[name]?.push(b.workers[0]?.acceptedDifficulty ?? -1);
      running--;
    };
    await bus.consumeShareBatches(handler('a'));
    await bus.consumeShareBatches(handler('b'));
    for (let n = 1; n <= 6; n++) await bus.publishShareBatch(batch(n));
    await vi.waitFor(() => expect((byConsumer.a?.length ?? 0) + (byConsumer.b?.length ?? 0)).toBe(6), delivery);
    expect(maxRunning).toBe(1);
    expect(byConsumer).toEqual({ a: [1, 3, 5], b: [2, 4, 6] });
  });

  it('unsubscribe waits for the running handler; later messages wait for the next consumer', async () => {
    make();
    let started = false;
    let finished = false;
    const unsubscribe = await bus.consumeShareBatches(async () => {
      started = true;
      await pause(30);
      finished = true;
    });
    await bus.publishShareBatch(batch(1));
    await bus.publishShareBatch(batch(2));
    await vi.waitFor(() => {
      expect(started).toBe(true);
      expect(finished).toBe(false);
      expect(bus.pending()['share-batches']).toBe(2);
    }, delivery);
    await unsubscribe();
    expect(finished).toBe(true);
    expect(bus.pending()['share-batches']).toBe(1);
    const later: number[] = [];
    await bus.consumeShareBatches(async (b) => void later.push(b.workers[0]?.acceptedDifficulty ?? -1));
    await vi.waitFor(() => expect(later).toHaveLength(1), delivery);
    expect(later).toEqual([2]);
  });

  it('close() delivers what is queued, then refuses new messages', async () => {
    make();
    const seen: number[] = [];
    await bus.consumeShareBatches(async (b) => {
      await pause(2);
      seen.push(b.workers[0]?.acceptedDifficulty ?? -1);
    });
    for (let n = 1; n <= 5; n++) await bus.publishShareBatch(batch(n));
    await bus.close();
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    await expect(bus.publishShareBatch(batch(6))).rejects.toBeInstanceOf(BusClosedError);
    await expect(bus.publishFoundBlock(block)).rejects.toBeInstanceOf(BusClosedError);
    await expect(bus.consumeFoundBlocks(async () => {})).rejects.toBeInstanceOf(BusClosedError);
    expect(events).toEqual([]);
  });

  it('close() stops at its deadline when a handler keeps failing, and reports what it dropped', async () => {
    make({ drainTimeoutMs: 60 });
    let calls = 0;
    await bus.consumeShareBatches(async () => {
      calls++;
      throw new Error('still down');
    });
    await bus.publishShareBatch(batch(1));
    await bus.publishShareBatch(batch(2));
    const started = Date.now();
    await bus.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(calls).toBeGreaterThan(1);
    expect(events.at(-1)).toEqual({ type: 'dropped', subject: 'share-batches', count: 2 });
    expect(events.filter((e) => e.type === 'handler-failed').length).toBe(calls);
  });

  it('close() without consumers reports the waiting messages as dropped at once', async () => {
    make();
    await bus.publishFoundBlock(block);
    await bus.close();
    expect(events).toEqual([{ type: 'dropped', subject: 'found-blocks', count: 1 }]);
  });

  it('refuses to queue more than maxQueued messages', async () => {
    make({ maxQueued: 2 });
    await bus.publishShareBatch(batch(1));
    await bus.publishShareBatch(batch(2));
    await expect(bus.publishShareBatch(batch(3))).rejects.toBeInstanceOf(BusFullError);
    await bus.publishFoundBlock(block); // another subject has its own room
  });
});
