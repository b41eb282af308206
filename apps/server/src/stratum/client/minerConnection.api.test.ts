import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BitcoinMiner } from '../../chains/bitcoin/miner.js';
import { type Harness, startHarness } from '../testing/harness.js';
import { MinerConnection } from './minerConnection.js';

let harness: Harness | undefined;
let server: net.Server | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

describe('a connection driven by a miner dialect', () => {
  it('subscribes with the dialect, follows its notifications and gets its shares accepted', async () => {
    harness = await startHarness({ listeners: [{ kind: 'standard' }] });
    const connection = await MinerConnection.open(
      { host: '127.0.0.1', port: harness.port() },
      new BitcoinMiner('sha256'),
    );
    await connection.subscribe('connection-test/1.0');
    await connection.authorize('alice.rig1');
    await connection.ready(5000);
    const firstJob = connection.miner.jobId;
    for (let accepted = 0; accepted < 2; ) {
      const { share } = connection.miner.search(1000);
      if (share) {
        expect((await connection.submit('alice.rig1', share)).result).toBe(true);
        accepted++;
      }
    }
    harness.source.newBlock();
    await connection.client.nextJob((job) => job.jobId !== firstJob);
    expect(connection.miner.jobId).not.toBe(firstJob);
    expect(connection.failure).toBeUndefined();
    connection.destroy();
  });

  it('closes the connection and reports it when the dialect cannot read a notification', async () => {
    // A server that answers subscribe, then sends a job no bitcoin-family miner can read.
    server = net.createServer((socket) => {
      socket.once('data', () => {
        socket.write('{"id":1,"result":[[],"01020304",4],"error":null}\n');
        socket.write('{"id":null,"method":"mining.notify","params":["1","zz"]}\n');
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const connection = await MinerConnection.open({ host: '127.0.0.1', port }, new BitcoinMiner('sha256'));
    await connection.subscribe('connection-test/1.0');
    await expect(connection.ready(5000)).rejects.toThrow(/mining.notify/);
    await connection.client.closed;
    expect(connection.client.isOpen).toBe(false);
    expect(String(connection.failure)).toMatch(/mining.notify/);
  });
});
