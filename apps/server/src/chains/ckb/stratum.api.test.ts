/**
 * Issue 17's CKB acceptance, end to end against the stand-in CKB node (no ckb binary can be installed
 * here; @lodestone/chain/testing startCkbNode speaks its JSON-RPC and checks submitted blocks with its
 * own molecule, merkle and Eaglesong code). A CkbJobSource follows the stand-in at the dev chain's easy
 * target (one hash in 256 is a block); our ckbminer client (miner.ts) mines through the
 * pool's Eaglesong port over TCP until one of its shares is a block; the stand-in accepts it, a
 * FoundBlock with the node's hash is published on the bus, the miner is moved onto the new tip, and
 * ckbBlockStatus calls the block confirmed once the stand-in's chain is 11 blocks past it.
 */
import { CkbJobSource, type CkbJsonScript, ckbBlockStatus, RpcClient } from '@lodestone/chain';
import { type CkbStandInNode, startCkbNode } from '@lodestone/chain/testing';
import type { FoundBlock, ShareBatch } from '@lodestone/domain';
import { POW } from '@lodestone/pow';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InProcessBus } from '../../bus/inProcess.js';
import { StratumClient } from '../../stratum/client/stratumClient.js';
import { SILENT_LOG } from '../../stratum/log.js';
import { type StratumServer, startStratum } from '../../stratum/startStratum.js';
import { ckbWork } from './index.js';
import { CkbMiner } from './miner.js';

/** How long a test waits on the sockets (node stand-in, pool, miner, bus), and how often it looks. */
const overTheWire = { timeout: 20_000, interval: 20 };
const LOGIN = 'acct.k7';
/** One hash in 16 is a share; one share in 16 is a block at the stand-in's target. */
const SHARE_DIFFICULTY = 16;
const POOL_LOCK: CkbJsonScript = {
  code_hash: '0x9bd7e06f3ecf4be0f2fcd2188b23f1b9fcc88e5d4b65a8637b17723bbda3cce8',
  hash_type: 'type',
  args: '0x2ec3a5fb4098b14f4887555fe58d966cab2c6a63',
};

describe('a CKB block found through the pool, accepted by the stand-in node and later confirmed', () => {
  let node: CkbStandInNode;
  let source: CkbJobSource;
  let bus: InProcessBus;
  let server: StratumServer;
  let client: StratumClient;
  const found: FoundBlock[] = [];
  const batches: ShareBatch[] = [];
  const miner = new CkbMiner();

  beforeAll(async () => {
    node = await startCkbNode({ blockAssembler: { lock: POOL_LOCK, message: '0x6c6f646573746f6e65' } });
    source = new CkbJobSource({ nodes: [node.url], payoutLock: POOL_LOCK, pollIntervalMs: 50 });
    await source.start();
    bus = new InProcessBus();
    await bus.consumeFoundBlocks(async (block) => {
      found.push(block);
    });
    await bus.consumeShareBatches(async (batch) => {
      batches.push(batch);
    });
    server = await startStratum({
      node: 'ckb-test',
      listeners: [
        {
          algorithm: 'eaglesong',
          host: '127.0.0.1',
          port: 0,
          kind: 'standard',
          minDifficulty: SHARE_DIFFICULTY,
          startDifficulty: SHARE_DIFFICULTY,
          maxDifficulty: SHARE_DIFFICULTY,
        },
      ],
      work: [ckbWork(source)],
      bus,
      log: SILENT_LOG,
      flushIntervalMs: 60_000,
    });
    client = await StratumClient.connect({ host: '127.0.0.1', port: server.listeners[0]?.port ?? 0 });
    client.onNotification((message) => miner.notification(message.method ?? '', message.params ?? []));
  });

  afterAll(async () => {
    client?.destroy();
    await server?.stop();
    await source?.stop();
    await bus?.close();
    await node?.close();
  });

  it('mines a block through the Eaglesong port that the stand-in accepts; it is confirmed 11 blocks later', async () => {
    const subscribed = await client.request('mining.subscribe', miner.subscribeParams('ckbminer-v1.0.0'));
    expect(subscribed.error).toBeNull();
    miner.subscribed(subscribed.result);
    expect(miner.nonce2Size).toBe(12);
    expect((await client.authorize(LOGIN)).result).toBe(true);
    await vi.waitFor(() => expect(miner.ready, 'a target and a job').toBe(true), overTheWire);
    expect(miner.targets).toEqual([POW.eaglesong.targetForDifficulty(SHARE_DIFFICULTY)]);
    const job = source.current();
    if (!job) throw new Error('no job');
    expect(miner.job).toMatchObject({ height: 1, parentHash: node.tip().hash.slice(2), clean: true });

    // Mine as ckbminer does until a share is also under the network target.
    let shares = 0;
    let blockShare: string | undefined;
    while (blockShare === undefined) {
      const { share } = miner.search(10_000);
      if (!share) throw new Error('no share in 10,000 hashes');
      const reply = await client.request('mining.submit', [LOGIN, share.jobId, ...share.params]);
      expect(reply).toMatchObject({ result: true, error: null });
      shares++;
      if (share.hashValue <= job.networkTarget) blockShare = share.params[0] as string;
    }

    // The stand-in accepted the block, checked with its own code, and made it its tip.
    await vi.waitFor(() => expect(found, 'the found block on the bus').not.toHaveLength(0), overTheWire);
    const [report] = found;
    expect(node.submissions).toEqual([{ workId: job.workId, hash: report?.hash }]);
    expect(node.tip()).toEqual({ hash: report?.hash, number: 1 });
    expect(report).toMatchObject({
      node: 'ckb-test',
      algorithm: 'eaglesong',
      coin: 'CKB',
      height: 1,
      account: 'acct',
      worker: 'k7',
      submitResult: { accepted: true },
    });
    // Its header nonce is nonce1 ‖ nonce2 read little-endian.
    const stored = (await new RpcClient({ url: node.url, jsonrpc: '2.0' }).call('get_block', [report?.hash])) as {
      header: { nonce: string };
    };
    const nonce16 = Buffer.from(miner.nonce1 + blockShare, 'hex');
    expect(BigInt(stored.header.nonce)).toBe(BigInt(`0x${Buffer.from(nonce16).reverse().toString('hex')}`));

    // The miner is moved onto the new tip with a clean job.
    await vi.waitFor(() => expect(miner.job?.height, 'a job on the new tip').toBe(2), overTheWire);
    expect(miner.job).toMatchObject({ parentHash: report?.hash.slice(2), clean: true });

    // Every share was credited at the session difficulty, in a batch valued at the CKB network.
    await server.flush();
    const batch = await vi.waitFor(() => {
      const credited = batches.find((b) => b.workers.length > 0);
      expect(credited, 'a share batch').toBeDefined();
      return credited as ShareBatch;
    }, overTheWire);
    expect(batch.network).toMatchObject({ coin: 'CKB', demo: false });
    expect(batch.workers).toEqual([
      expect.objectContaining({ account: 'acct', worker: 'k7', valid: shares, acceptedDifficulty: shares * 16 }),
    ]);

    // Pending until the chain is 11 blocks past it, then confirmed with the node's economic state.
    const rpc = new RpcClient({ url: node.url, jsonrpc: '2.0' });
    const hash = report?.hash as string;
    expect(await ckbBlockStatus(rpc, { hash, height: 1 })).toMatchObject({ kind: 'pending', confirmations: 1 });
    node.mine(10);
    expect(await ckbBlockStatus(rpc, { hash, height: 1 })).toMatchObject({ kind: 'pending', finalizesAt: 12 });
    node.mine(1);
    const status = await ckbBlockStatus(rpc, { hash, height: 1 });
    expect(status).toMatchObject({ kind: 'confirmed', confirmations: 12 });
    if (status.kind !== 'confirmed') throw new Error('unreachable');
    expect(status.reward.finalizedAt).toBe(node.hashAt(12));
    expect(status.reward.total).toBeGreaterThan(0n);
  });

  it('a miner subscribing with the 4-parameter form gets its own nonce1 and mines on the same port', async () => {
    const other = new CkbMiner({ fourParams: { host: '127.0.0.1', port: server.listeners[0]?.port ?? 0 } });
    const second = await StratumClient.connect({ host: '127.0.0.1', port: server.listeners[0]?.port ?? 0 });
    try {
      second.onNotification((message) => other.notification(message.method ?? '', message.params ?? []));
      const subscribed = await second.request('mining.subscribe', other.subscribeParams('ckbminer-v1.0.0'));
      other.subscribed(subscribed.result);
      expect(other.nonce1).not.toBe(miner.nonce1);
      expect((await second.authorize('acct.k7b')).result).toBe(true);
      await vi.waitFor(() => expect(other.ready, 'a target and a job').toBe(true), overTheWire);
      expect(other.job?.height).toBe(source.current()?.height);
      const { share } = other.search(10_000);
      if (!share) throw new Error('no share');
      expect(await second.request('mining.submit', ['acct.k7b', share.jobId, ...share.params])).toMatchObject({
        result: true,
        error: null,
      });
    } finally {
      second.destroy();
    }
  });
});
