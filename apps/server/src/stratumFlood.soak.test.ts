/**
 * Issue 15, finding 3: 20,000 idle stratum sockets used every file descriptor and took the HTTP API
 * down. The real program runs with an open-file limit of 1,024 (stratum gets 512 of it) and takes a
 * bounded flood of 1,500 idle connections from 15 loopback addresses: the API answers throughout, the
 * cap is logged and counted, idle unauthorized sockets are shed, and a real miner gets in afterwards.
 *
 * A soak test: `npm test` floods the program once (its short form); `npm run test:soak` (SOAK=full)
 * floods the same process ten times, each flood let go before the next: a descriptor or a session count
 * a flood leaked would refuse the miner, or leave no room for the next flood's shedding.
 */

import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildBundle, freePort, run, waitForHealth } from '../test/process.js';

/** SOAK=full: the soak tests at full length (`npm run test:soak`); else their short form. */
const FLOODS = process.env.SOAK === 'full' ? 10 : 1;

/** GET on a new connection each time (no keep-alive): each one needs a descriptor on the server. */
function getStatus(port: number, pathname: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: pathname, agent: false, timeout: 5_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(0));
  });
}

async function text(port: number, pathname: string): Promise<string> {
  return (await fetch(`http://127.0.0.1:${port}${pathname}`)).text();
}

/** A counter or gauge of `/metrics`, summed over its labels. */
async function metric(port: number, name: string, labels = ''): Promise<number> {
  const lines = (await text(port, '/metrics')).split('\n').filter((l) => l.startsWith(`${name}{${labels}`));
  return lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** One line of stratum: the answer to `request`. */
function ask(socket: Socket, request: object): Promise<{ result: unknown; error: unknown }> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += String(chunk);
      for (const line of buffer.split('\n').slice(0, -1)) {
        const message = JSON.parse(line) as { id: unknown; result: unknown; error: unknown };
        if (message.id === (request as { id: unknown }).id) {
          socket.off('data', onData);
          resolve(message);
        }
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(`${JSON.stringify(request)}\n`);
  });
}

describe('a stratum connection flood', () => {
  beforeAll(() => buildBundle(), 120_000);

  it('leaves the HTTP API answering, is capped, logged and counted, and sheds idle sockets', {
    timeout: FLOODS * 180_000,
  }, async () => {
    const port = await freePort();
    const stratumPort = await freePort();
    const server = run(
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'lodestone-data-')),
        STRATUM_LISTENERS: JSON.stringify([{ algorithm: 'sha256', port: stratumPort, host: '127.0.0.1' }]),
        DEMO_WORKERS: '1',
      },
      [],
      { fileLimit: 1_024 },
    );
    try {
      await waitForHealth(port, server, 60_000);

      let refusedBefore = 0;
      for (let flood = 0; flood < FLOODS; flood++) {
        // The flood before is let go: its sockets are gone from the server too, which holds at most the
        // session of the demo fleet's one worker.
        if (flood > 0) {
          await vi.waitFor(
            async () => expect(await metric(port, 'lodestone_stratum_sessions')).toBeLessThanOrEqual(1),
            {
              timeout: 10_000,
              interval: 100,
            },
          );
        }

        // The API is polled on fresh connections for the whole flood, one request every 50 ms or so: the
        // pause paces a client, it waits for nothing (back to back, the poller would be a flood of its own).
        const statuses: number[] = [];
        let flooding = true;
        const poller = (async () => {
          while (flooding) {
            statuses.push(await getStatus(port, '/v1/health'));
            await sleep(50);
          }
        })();

        const sockets: Socket[] = [];
        let closedByServer = 0;
        for (let a = 2; a <= 16; a++) {
          const opened = Array.from(
            { length: 100 },
            () =>
              new Promise<void>((resolve) => {
                const socket = connect({ port: stratumPort, host: '127.0.0.1', localAddress: `127.0.0.${a}` }, () =>
                  resolve(),
                );
                socket.on('error', () => resolve());
                socket.on('close', () => {
                  closedByServer++;
                  resolve();
                });
                sockets.push(socket);
              }),
          );
          await Promise.all(opened);
        }
        // Idle sockets that never authorized are shed under pressure (after the 5 s pressure timeout, at a
        // 5 s sweep), and more than the refused ones; the API answers all along.
        await vi.waitFor(() => expect(closedByServer).toBeGreaterThan(1_500 - 512 + 100), {
          timeout: 12_000,
          interval: 100,
        });
        flooding = false;
        await poller;

        expect(statuses.length).toBeGreaterThan(50);
        expect(statuses.every((s) => s === 200)).toBe(true);
        const refused = await metric(port, 'lodestone_stratum_refused_total', 'reason="process-connection-cap"');
        expect(refused).toBeGreaterThan(refusedBefore);
        refusedBefore = refused;
        expect(server.stdout()).toContain('stratum connection cap reached');

        // A miner connecting now gets in.
        const miner = connect({ port: stratumPort, host: '127.0.0.1' });
        await new Promise((resolve) => miner.once('connect', resolve));
        expect((await ask(miner, { id: 1, method: 'mining.subscribe', params: [] })).error).toBeNull();
        expect(await ask(miner, { id: 2, method: 'mining.authorize', params: ['demo1.flood', 'x'] })).toMatchObject({
          result: true,
        });
        miner.destroy();
        for (const socket of sockets) socket.destroy();
        expect(await getStatus(port, '/v1/health')).toBe(200);
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.exit;
    }
  });
});
