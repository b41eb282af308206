import net from 'node:net';
import tls from 'node:tls';
import Fastify from 'fastify';
import {
  Command,
  INETProtocol,
  IPv4Address,
  IPv4ProxyAddress,
  IPv6Address,
  IPv6ProxyAddress,
  Peer,
  TransportProtocol,
  V1ProxyProtocol,
  V2ProxyProtocol,
} from 'proxy-protocol-js';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../stratum/testing/harness.js';
import { selfSignedCertificate } from '../stratum/testing/selfSigned.js';
import { ANY_ADDRESS } from './dualStack.js';
import { acceptProxyProtocol, ProxyProtocolPolicy } from './proxyProtocol.js';

/**
 * PROXY protocol headers as HAProxy writes them (built with proxy-protocol-js, our framing and checks
 * read them) in front of real stratum and HTTP listeners on loopback: a listed balancer's header names
 * the miner, whose address bans and limits then count; anything else is refused.
 */

const SUBSCRIBE = '{"id":1,"method":"mining.subscribe","params":["proxytest/1.0"]}\n';

function v1(source: string): Buffer {
  const family = net.isIPv4(source) ? INETProtocol.TCP4 : INETProtocol.TCP6;
  const destination = family === INETProtocol.TCP4 ? '192.0.2.1' : '2001:db8::1';
  return Buffer.from(new V1ProxyProtocol(family, new Peer(source, 40_000), new Peer(destination, 3333)).build());
}

function v2(source: number[]): Buffer {
  const address =
    source.length === 4
      ? new IPv4ProxyAddress(IPv4Address.createFrom(source), 40_000, IPv4Address.createFrom([192, 0, 2, 1]), 3333)
      : new IPv6ProxyAddress(
          IPv6Address.createFrom(source),
          40_000,
          IPv6Address.createFrom([0x20, 0x01, 0x0d, 0xb8, ...Array(11).fill(0), 1]),
          3333,
        );
  return Buffer.from(new V2ProxyProtocol(Command.PROXY, TransportProtocol.STREAM, address).build());
}

/**
 * Connects, writes `header` and then `payload` in one segment (as a balancer forwards them), and
 * resolves with the first line the server answers, or `closed` when it ends the connection first.
 */
function firstLine(socket: net.Socket, header: Buffer, payload: string): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end >= 0) {
        resolve(text.slice(0, end));
        socket.destroy();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve('closed'));
    socket.write(Buffer.concat([header, Buffer.from(payload)]));
  });
}

function stratumLine(port: number, header: Buffer, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host }, () => resolve(firstLine(socket, header, SUBSCRIBE)));
    socket.on('error', () => resolve('closed'));
  });
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('the balancers a policy lists', () => {
  it('are addresses and ranges of either family, IPv4 also as it reaches a dual-stack socket', () => {
    const policy = new ProxyProtocolPolicy(['10.0.0.5', '192.168.8.0/24', 'fd00::/64']);
    expect(policy.enabled).toBe(true);
    expect(['10.0.0.5', '::ffff:10.0.0.5', '192.168.8.200', 'fd00::1234'].map((a) => policy.trusts(a))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['10.0.0.6', '192.168.9.1', 'fd01::1', 'not an address'].map((a) => policy.trusts(a))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(new ProxyProtocolPolicy([]).enabled).toBe(false);
    expect(() => new ProxyProtocolPolicy(['balancer.example'])).toThrow(/not an IP address/);
  });
});

describe('stratum behind a listed balancer', () => {
  it('takes the miner from a version 1 or 2 header, IPv4 or IPv6, and answers it', async () => {
    harness = await startHarness({ proxy: new ProxyProtocolPolicy(['127.0.0.1']) });
    for (const header of [
      v1('203.0.113.7'),
      v1('2001:db8::7'),
      v2([203, 0, 113, 8]),
      v2([0x20, 0x01, 0x0d, 0xb8, ...Array(11).fill(0), 9]),
    ]) {
      const answer = JSON.parse(await stratumLine(harness.port(), header)) as { id: number; error: unknown };
      expect(answer).toMatchObject({ id: 1, error: null });
    }
  });

  it('bans the miner the header names, not the balancer every other miner comes through', async () => {
    harness = await startHarness({
      proxy: new ProxyProtocolPolicy(['127.0.0.1']),
      limits: { maxMalformed: 0 },
    });
    const port = harness.port();
    // One malformed line over the limit: closed and banned.
    const socket = net.connect({ port, host: '127.0.0.1' });
    await new Promise((resolve) => socket.once('connect', resolve));
    expect(await firstLine(socket, v1('203.0.113.7'), 'not json\n')).toMatch(/error|closed/);

    expect(await stratumLine(port, v1('203.0.113.7'))).toBe('closed');
    expect(JSON.parse(await stratumLine(port, v1('203.0.113.8')))).toMatchObject({ id: 1, error: null });
  });

  it('refuses a listed balancer that sends no header, and a malformed one', async () => {
    harness = await startHarness({ proxy: new ProxyProtocolPolicy(['127.0.0.1']) });
    expect(await stratumLine(harness.port(), Buffer.alloc(0))).toBe('closed');
    expect(await stratumLine(harness.port(), Buffer.from('PROXY TCP4 not-an-address 192.0.2.1 1 2\r\n'))).toBe(
      'closed',
    );
  });

  it('refuses a header from an address that is not listed, and serves its miners without one', async () => {
    harness = await startHarness({ proxy: new ProxyProtocolPolicy(['10.0.0.5']) });
    expect(await stratumLine(harness.port(), v1('203.0.113.7'))).toBe('closed');
    expect(await stratumLine(harness.port(), v2([203, 0, 113, 7]))).toBe('closed');
    expect(JSON.parse(await stratumLine(harness.port(), Buffer.alloc(0)))).toMatchObject({ id: 1, error: null });
  });

  it('serves stratum+ssl whose TLS handshake follows the header in the same segment', async (context) => {
    const certificate = selfSignedCertificate();
    if (!certificate) return context.skip();
    harness = await startHarness({
      proxy: new ProxyProtocolPolicy(['127.0.0.1']),
      listeners: [{ kind: 'standard', tls: certificate }],
    });
    const raw = net.connect({ port: harness.port(), host: '127.0.0.1' });
    await new Promise((resolve) => raw.once('connect', resolve));
    raw.write(v1('203.0.113.7'));
    const secure = tls.connect({ socket: raw, rejectUnauthorized: false });
    await new Promise((resolve) => secure.once('secureConnect', resolve));
    expect(JSON.parse(await firstLine(secure, Buffer.alloc(0), SUBSCRIBE))).toMatchObject({ id: 1, error: null });
  });
});

describe('listening by default', () => {
  it('answers stratum on ::1 and on 127.0.0.1', async () => {
    harness = await startHarness({ listeners: [{ kind: 'standard', host: ANY_ADDRESS }] });
    for (const host of ['::1', '127.0.0.1']) {
      expect(JSON.parse(await stratumLine(harness.port(), Buffer.alloc(0), host))).toMatchObject({ id: 1 });
    }
  });
});

describe('the website behind a listed balancer', () => {
  it('sees the client the header names (request.ip), and refuses headers from anyone else', async () => {
    const app = Fastify();
    app.get('/ip', async (request) => request.ip);
    let refused = '';
    acceptProxyProtocol(app.server, new ProxyProtocolPolicy(['127.0.0.1']), {
      timeoutMs: 5000,
      onRefused: (reason) => {
        refused = reason;
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as net.AddressInfo).port;
    const request = 'GET /ip HTTP/1.1\r\nHost: pool.example\r\nConnection: close\r\n\r\n';
    try {
      for (const [header, ip] of [
        [v1('203.0.113.7'), '203.0.113.7'],
        [v2([0x20, 0x01, 0x0d, 0xb8, ...Array(11).fill(0), 9]), '2001:db8::9'],
      ] as const) {
        const socket = net.connect({ port, host: '127.0.0.1' });
        await new Promise((resolve) => socket.once('connect', resolve));
        const response = await new Promise<string>((resolve) => {
          let text = '';
          socket.on('data', (chunk) => {
            text += chunk.toString();
          });
          socket.on('close', () => resolve(text));
          socket.write(Buffer.concat([header, Buffer.from(request)]));
        });
        expect(response.startsWith('HTTP/1.1 200')).toBe(true);
        expect(response.endsWith(`\r\n\r\n${ip}`)).toBe(true);
      }
      const plain = net.connect({ port, host: '127.0.0.1' });
      await new Promise((resolve) => plain.once('connect', resolve));
      expect(await firstLine(plain, Buffer.alloc(0), request)).toBe('closed');
      expect(refused).toBe('a listed balancer sent no PROXY header');
    } finally {
      await app.close();
    }
  });
});
