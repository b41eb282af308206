import { createServer } from 'node:net';
import { BitcoinWallet } from '@lodestone/chain';
import { type Database, walletSnapshots } from '@lodestone/db';
import { createTestDatabase, testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingLog } from './testing.js';
import { type SnapshotHotWallet, snapshotWallets, walletSnapshotJob } from './walletSnapshots.js';
import { DEMO_WALLET_BALANCE, DemoWallet } from './wallets/demoWallet.js';

const T1 = new Date('2026-05-06T10:00:30Z');
const T2 = new Date('2026-05-06T10:01:30Z');

/** A loopback port nothing listens on any more: a node that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  await new Promise((resolve) => server.close(resolve));
  return address.port;
}

describe.each(testEngines())('the wallet-snapshots job on %s', (engine) => {
  let database: Database;
  let deadUrl: string;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
    deadUrl = `http://user:pass@127.0.0.1:${await closedPort()}/`;
  });
  afterAll(async () => {
    await database?.close();
  });

  it('writes what each wallet holds, and keeps the last good figures with their time when a read fails', async () => {
    const log = recordingLog();
    const demo = (coin: string): SnapshotHotWallet => ({ wallet: new DemoWallet(coin, database.db), minBalance: 0n });
    const first = await snapshotWallets(
      database.db,
      new Map([
        ['LTC', { wallet: new DemoWallet('LTC', database.db), minBalance: 5_000_000n }],
        ['BTC', demo('BTC')],
      ]),
      T1,
      log,
    );
    expect(first.read.sort()).toEqual(['BTC', 'LTC']);
    let rows = await walletSnapshots(database.db);
    expect(rows.get('LTC')).toEqual({
      coin: 'LTC',
      address: null,
      demo: true,
      minBalance: 5_000_000n,
      maxOutputs: null,
      feeCoin: null,
      reading: { balance: DEMO_WALLET_BALANCE, feePerTransaction: null, feeBalance: null, at: T1 },
      checkedAt: T1,
      error: null,
    });

    // The LTC node is down a minute later: the error and the attempt are recorded, the figures of T1 stay.
    const second = await snapshotWallets(
      database.db,
      new Map([
        ['LTC', { wallet: new BitcoinWallet({ coin: 'LTC', rpcUrl: deadUrl }), minBalance: 5_000_000n }],
        ['BTC', demo('BTC')],
      ]),
      T2,
      log,
    );
    expect(second).toEqual({ read: ['BTC'], failed: ['LTC'] });
    rows = await walletSnapshots(database.db);
    const ltc = rows.get('LTC');
    expect(ltc?.reading).toEqual({ balance: DEMO_WALLET_BALANCE, feePerTransaction: null, feeBalance: null, at: T1 });
    expect(ltc?.checkedAt).toEqual(T2);
    expect(ltc?.error).toMatch(/\S/);
    expect(ltc?.demo).toBe(false);
    expect(rows.get('BTC')?.reading?.at).toEqual(T2);
    expect(log.entries.filter((e) => e.level === 'warn').map((e) => e.fields)).toEqual([
      expect.objectContaining({ coin: 'LTC', alert: 'wallet-read-failed' }),
    ]);

    // A good read again clears the error; a coin that has no wallet any more loses its snapshot.
    await snapshotWallets(database.db, new Map([['LTC', demo('LTC')]]), T2, log);
    rows = await walletSnapshots(database.db);
    expect([...rows.keys()]).toEqual(['LTC']);
    expect(rows.get('LTC')).toMatchObject({ error: null, reading: { at: T2 } });
  });

  it('records a wallet never read successfully without figures', async () => {
    await snapshotWallets(
      database.db,
      new Map([['DOGE', { wallet: new BitcoinWallet({ coin: 'DOGE', rpcUrl: deadUrl }), minBalance: 7n }]]),
      T1,
      recordingLog(),
    );
    expect((await walletSnapshots(database.db)).get('DOGE')).toMatchObject({
      minBalance: 7n,
      reading: null,
      checkedAt: T1,
      error: expect.stringMatching(/\S/),
    });
    // Pool-signed wallets (fee estimate, fee reserve, address) are read on a real EVM node:
    // walletSnapshots.daemon.test.ts.
  });

  it('is declared as data: every minute, at start, singleton; a run where every read failed fails', async () => {
    const job = walletSnapshotJob({
      config: { coins: [], wallets: [] },
      wallets: new Map([['LTC', { wallet: new BitcoinWallet({ coin: 'LTC', rpcUrl: deadUrl }), minBalance: 0n }]]),
    });
    expect(job).toMatchObject({ name: 'wallet-snapshots', everyMs: 60_000, runOnStart: true, singleton: true });
    const ctx = { database, log: recordingLog(), now: T2, signal: new AbortController().signal };
    await expect(job.run(ctx)).rejects.toThrow('no hot wallet could be read (LTC)');

    // From the configuration: no coin daemon, so every catalogue coin has a demo wallet.
    await walletSnapshotJob({ config: { coins: [], wallets: [] } }).run(ctx);
    const rows = await walletSnapshots(database.db);
    expect(rows.get('ETH')).toMatchObject({ demo: true, reading: { balance: DEMO_WALLET_BALANCE, at: T2 } });
    expect(rows.size).toBeGreaterThanOrEqual(13);
  });
});
