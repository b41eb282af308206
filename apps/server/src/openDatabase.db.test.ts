import { describe, expect, it } from 'vitest';
import { TcpProxy } from '../test/tcpProxy.js';
import { isPassingOutage, openDatabase } from './openDatabase.js';

const url = process.env.TEST_DATABASE_URL;
const quiet = { warn: () => {}, info: () => {} };

describe.skipIf(!url)('opening PostgreSQL at start-up', () => {
  it('waits for a server that is down and opens it when it comes up', async () => {
    const target = new URL(url ?? '');
    const proxy = await TcpProxy.start(target.hostname, Number(target.port || 5432));
    await proxy.down();
    const through = new URL(target);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    const waits: number[] = [];
    const database = await openDatabase({ url: through.toString() }, quiet, {
      sleep: async (ms) => {
        waits.push(ms);
        // The server comes back after the third failed attempt.
        if (waits.length === 3) await proxy.up();
      },
    });
    try {
      expect(waits).toEqual([1_000, 2_000, 4_000]);
      expect(await database.ping()).toBe(true);
    } finally {
      await database.close();
      await proxy.down();
    }
  });

  it('fails at once where waiting cannot help (a database that does not exist)', async () => {
    const missing = new URL(url ?? '');
    missing.pathname = '/lodestone_no_such_database';
    const waits: number[] = [];
    await expect(
      openDatabase({ url: missing.toString() }, quiet, { sleep: async (ms) => void waits.push(ms) }),
    ).rejects.toThrow(/does not exist/);
    expect(waits).toEqual([]);
  });
});

describe('which failures to wait out', () => {
  it('waits on a refused or reset connection and a server starting up, not on a wrong password', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(isPassingOutage(new Error('DATABASE_URL: cannot use', { cause: refused }))).toBe(true);
    expect(isPassingOutage(new AggregateError([refused]))).toBe(true);
    expect(isPassingOutage(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe(
      true,
    );
    expect(isPassingOutage(Object.assign(new Error('password authentication failed'), { code: '28P01' }))).toBe(false);
  });
});
