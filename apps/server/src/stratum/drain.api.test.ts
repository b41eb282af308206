import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StratumClient } from './client/stratumClient.js';
import { type Harness, startHarness } from './testing/harness.js';

/**
 * A stratum node that stops for a restart (SIGTERM): it stops accepting, asks every miner to reconnect
 * (client.reconnect) while their sessions still take shares, and goes as soon as they have left, or
 * once its drain time is up.
 */

let harness: Harness | undefined;
const clients: StratumClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await harness?.close().catch(() => undefined);
  harness = undefined;
});

async function miner(port: number): Promise<StratumClient> {
  const client = await StratumClient.connect({ host: '127.0.0.1', port, timeoutMs: 5000 });
  clients.push(client);
  expect((await client.subscribe()).error).toBeNull();
  expect((await client.authorize('alice.rig1')).result).toBe(true);
  await client.nextJob();
  return client;
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('a stratum node draining before it stops', () => {
  it('asks each miner to reconnect where it connected, refuses new ones, and stops once they left', async () => {
    harness = await startHarness({ listeners: [{ kind: 'standard' }] });
    const port = harness.port();
    const first = await miner(port);
    const second = await miner(port);

    const started = performance.now();
    const stopped = harness.server.stop({ ms: 30_000 });
    for (const client of [first, second]) {
      const message = await client.next((m) => m.method === 'client.reconnect');
      expect(message.params).toEqual([]);
    }
    expect(await refused(port)).toBe(true);
    // Still mining while it has not left: a session that was asked stays served.
    expect(first.isOpen).toBe(true);
    first.destroy();
    second.destroy();
    await stopped;
    // Gone when the miners left, not at the end of its 30 s.
    expect(performance.now() - started).toBeLessThan(10_000);
    harness = undefined;
  });

  it('sends miners to a sibling on the same port when one is set', async () => {
    harness = await startHarness({ listeners: [{ kind: 'standard' }] });
    const port = harness.port();
    const client = await miner(port);
    const stopped = harness.server.stop({ ms: 30_000, reconnectHost: 'stratum-b.pool.example' });
    const message = await client.next((m) => m.method === 'client.reconnect');
    expect(message.params).toEqual(['stratum-b.pool.example', port, 0]);
    client.destroy();
    await stopped;
    harness = undefined;
  });

  it('closes a miner that does not follow once its drain time is up', async () => {
    harness = await startHarness({ listeners: [{ kind: 'standard' }] });
    const client = await miner(harness.port());
    const started = performance.now();
    await harness.server.stop({ ms: 300 });
    await vi.waitFor(() => expect(client.isOpen).toBe(false), { timeout: 5000, interval: 20 });
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(300);
    expect(took).toBeLessThan(5000);
    harness = undefined;
  });
});
