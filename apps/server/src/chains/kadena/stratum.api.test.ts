/**
 * Issue 17's Kadena acceptance, end to end against the chainweb-node stand-in (chainweb-node cannot be
 * installed here; @lodestone/chain/testing startChainwebNode speaks its mining API over HTTP, with real
 * layout headers on a twenty-chain web, and checks solved headers with its own code). A KadenaJobSource
 * follows the stand-in; our Kadena miner (miner.ts, kdaminer's forms) mines through the
 * blake2s port until a share is a block; the stand-in takes it onto its chain; the stratum node
 * publishes a FoundBlock; kadenaBlockStatus reads it back from the node, pending and then confirmed.
 * Then what happens to shares of work the node would no longer take: the pool's block consumed the
 * payload (the node answers 404), and another miner's block made the chain's work an orphan.
 */
import {
  ChainwebClient,
  ChainwebError,
  hashToBase64Url,
  type KadenaJob,
  KadenaJobSource,
  kadenaBlockHash,
  kadenaBlockStatus,
} from '@lodestone/chain';
import { type ChainwebNodeStandIn, STAND_IN_MINER, startChainwebNode } from '@lodestone/chain/testing';
import type { FoundBlock } from '@lodestone/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InProcessBus } from '../../bus/inProcess.js';
import { StratumClient } from '../../stratum/client/stratumClient.js';
import { SILENT_LOG } from '../../stratum/log.js';
import { StratumError } from '../../stratum/protocol.js';
import { type StratumServer, startStratum } from '../../stratum/startStratum.js';
import { kadenaFoundBlockStatus } from './blockStatus.js';
import { kadenaWork } from './index.js';
import { KadenaMiner } from './miner.js';

/** How long a test waits on the sockets (node stand-in, pool, miner, bus), and how often it looks. */
const overTheWire = { timeout: 20_000, interval: 20 };
const LOGIN = 'acct.bmk1';
const AGENT = 'kdaminer-v1.0.0';
/** The stand-in's work target: a block every 1 024 hashes on average. */
const NETWORK_TARGET = 1n << 246n;

/** A miner on its own connection, fed every notification as it arrives. */
async function connectMiner(port: number): Promise<{ client: StratumClient; miner: KadenaMiner }> {
  const client = await StratumClient.connect({ host: '127.0.0.1', port, timeoutMs: 10_000 });
  const miner = new KadenaMiner();
  client.onNotification((m) => miner.notification(m.method ?? '', m.params ?? []));
  const subscribed = await client.request('mining.subscribe', miner.subscribeParams(AGENT));
  miner.subscribed(subscribed.result);
  const authorized = await client.request('mining.authorize', [LOGIN, 'x']);
  expect(authorized.result).toBe(true);
  await vi.waitFor(() => expect(miner.ready, 'the first job').toBe(true), overTheWire);
  return { client, miner };
}

/** Searches `miner`'s current job for a hash at or below `target`; the nonce2 as the miner writes it. */
function searchBelow(miner: KadenaMiner, target: bigint): { jobId: string; nonce2: string } {
  for (let nonce2 = 0n; nonce2 < 1_000_000n; nonce2++) {
    if (miner.hashValue(nonce2) <= target) return { jobId: miner.jobId as string, nonce2: miner.nonce2Text(nonce2) };
  }
  throw new Error('no hash below the target in a million');
}

/** The chain and parent of a work header (what makes jobs stale). */
function chainAndParent(header: Uint8Array | undefined): string {
  return header
    ? `${Buffer.from(header).readUInt32LE(222)}:${Buffer.from(header).subarray(16, 48).toString('hex')}`
    : '';
}

/** The solved 286 bytes of `job` for a miner's nonce2. */
function solvedBytes(job: KadenaJob, miner: KadenaMiner, nonce2: string): Uint8Array {
  return job.solved(miner.nonce(BigInt(`0x${nonce2}`)));
}

describe('a Kadena block found through the pool, taken by the chainweb stand-in and confirmed', () => {
  let node: ChainwebNodeStandIn;
  let chainweb: ChainwebClient;
  let source: KadenaJobSource;
  let server: StratumServer;
  let bus: InProcessBus;
  const found: FoundBlock[] = [];
  const clients: StratumClient[] = [];
  let port = 0;

  beforeAll(async () => {
    node = await startChainwebNode({ target: NETWORK_TARGET });
    chainweb = new ChainwebClient({ url: node.url, version: 'mainnet01' });
    source = new KadenaJobSource({ nodes: [node.url], miner: STAND_IN_MINER, reissueIntervalMs: 1000 });
    await source.start();
    bus = new InProcessBus();
    await bus.consumeFoundBlocks(async (block) => {
      found.push(block);
    });
    server = await startStratum({
      node: 'kadena-test',
      listeners: [
        // Shares every 64 hashes, blocks every 1 024: a few blocks' worth of shares a second here.
        {
          algorithm: 'blake2s',
          host: '127.0.0.1',
          port: 0,
          kind: 'standard',
          minDifficulty: 64,
          startDifficulty: 64,
          maxDifficulty: 64,
        },
      ],
      work: [kadenaWork(source)],
      bus,
      log: SILENT_LOG,
      flushIntervalMs: 60_000,
    });
    port = server.listeners[0]?.port ?? 0;
  });

  afterAll(async () => {
    for (const client of clients) client.destroy();
    await server?.stop();
    await source?.stop();
    await bus?.close();
    await node?.close();
  });

  it('mines through the blake2s port until a block; the stand-in takes it; a FoundBlock is published; it confirms', async () => {
    const { client, miner } = await connectMiner(port);
    clients.push(client);
    // kdaminer's first lines: a level target (difficulty 64 = 2^250 − 1), then the 286-byte header.
    expect(client.notifications.slice(0, 2).map((m) => m.method)).toEqual(['mining.set_target', 'mining.notify']);
    expect(client.notifications[0]?.params).toEqual([(2n ** 250n - 1n).toString(16).padStart(64, '0')]);

    let block: { jobId: string; nonce2: string } | undefined;
    let shares = 0;
    while (!block && shares < 500) {
      const { share } = miner.search(10_000);
      if (!share) continue;
      const reply = await client.request('mining.submit', [LOGIN, share.jobId, ...share.params]);
      expect(reply.error).toBeNull();
      expect(reply.result).toBe(true);
      shares++;
      if (share.hashValue <= NETWORK_TARGET) block = { jobId: share.jobId, nonce2: share.params[0] as string };
    }
    if (!block) throw new Error(`no block in ${shares} shares`);

    // The stand-in checked the solved header with its own code and put it on its chain.
    const taken = await vi.waitFor(() => {
      expect(node.solvedBlocks[0], 'the block at the stand-in').toBeDefined();
      return node.solvedBlocks[0] as (typeof node.solvedBlocks)[number];
    }, overTheWire);
    expect(node.rejections).toEqual([]);
    expect(taken.account).toBe(STAND_IN_MINER.account);
    expect(node.head(taken.chainId).hash).toBe(taken.hash);

    // Its hash is the one the pool computed from the solved bytes; the FoundBlock says so.
    const published = await vi.waitFor(() => {
      expect(found[0], 'the FoundBlock on the bus').toBeDefined();
      return found[0];
    }, overTheWire);
    expect(published).toMatchObject({
      node: 'kadena-test',
      algorithm: 'blake2s',
      coin: 'KDA',
      height: taken.height,
      hash: taken.hash,
      account: 'acct',
      worker: 'bmk1',
      difficulty: 64,
      // The chain the stand-in took it on: what the explorer link and the confirmations job go by.
      chain: taken.chainId,
      submitResult: { accepted: true },
    });
    const nonce = miner.nonce(BigInt(`0x${block.nonce2}`));
    expect(taken.header.readBigUInt64LE(278)).toBe(nonce);
    expect(hashToBase64Url(kadenaBlockHash(taken.header.subarray(0, 286)))).toBe(taken.hash);

    // Block status as the node sees it: on the chain, one deep; confirmed once the chain grows.
    const ref = { chainId: taken.chainId, height: taken.height, hash: taken.hash };
    expect(await kadenaBlockStatus(chainweb, ref, 3)).toEqual({ kind: 'pending', confirmations: 1 });
    node.advanceCut(3);
    const depth = node.head(taken.chainId).height - taken.height + 1;
    expect(depth).toBe(3);
    expect(await kadenaBlockStatus(chainweb, ref, 3)).toEqual({ kind: 'confirmed', confirmations: 3 });
    // The confirmations job asks on the chain the report named (another chain does not have it).
    const asked = { hash: taken.hash, height: taken.height, catalogueConfirmations: 3 };
    const matured = { kind: 'matured', confirmations: 3 };
    expect(await kadenaFoundBlockStatus(chainweb)({ ...asked, chain: published?.chain })).toEqual(matured);
    const otherChain = node.chains.find((chain) => chain !== published?.chain);
    expect(await kadenaFoundBlockStatus(chainweb)({ ...asked, chain: otherChain })).not.toEqual(matured);
  });

  it('re-issued work of the same chain and parent stays valid; the previous chain is stale when the node would not take it', async () => {
    const { client, miner } = await connectMiner(port);
    clients.push(client);
    const first = source.current() as KadenaJob;
    const firstId = miner.jobId as string;
    // The source re-issues the work every second with a later creation time: same chain, same parent.
    await vi.waitFor(() => expect(miner.jobId, 'a re-issued job').not.toBe(firstId), { ...overTheWire, timeout: 5000 });
    const reissued = source.current() as KadenaJob;
    expect(reissued.parentKey).toBe(first.parentKey);
    expect(reissued.creationTime > first.creationTime).toBe(true);
    // A share of the first job, found on a miner that still holds it, is valid after the re-issue.
    const holder = new KadenaMiner();
    holder.subscribed([null, (miner.nonce1 as bigint).toString(16), miner.nonce2Size]);
    holder.notification('mining.set_target', [(2n ** 250n - 1n).toString(16).padStart(64, '0')]);
    holder.notification('mining.notify', [firstId, Buffer.from(first.header).toString('hex'), true]);
    const early = searchBelow(holder, 2n ** 250n - 1n);
    expect((await client.request('mining.submit', [LOGIN, firstId, early.nonce2])).result).toBe(true);

    // Our block on the current chain: the node consumes the work's payload (404 for any other solution
    // of it) and the source moves to another chain. A block-grade share of the old work is stale.
    const chainBefore = reissued.chainId;
    const blocksBefore = node.solvedBlocks.length;
    const oldId = miner.jobId as string;
    const spare = searchBelow(holder, NETWORK_TARGET);
    const winner = searchBelow(miner, NETWORK_TARGET);
    expect((await client.request('mining.submit', [LOGIN, winner.jobId, winner.nonce2])).result).toBe(true);
    await vi.waitFor(
      () => expect(node.solvedBlocks.length, 'our second block').toBeGreaterThan(blocksBefore),
      overTheWire,
    );
    await vi.waitFor(() => {
      const current = source.current();
      expect(current, 'the source on another chain').toBeDefined();
      expect(current?.chainId, 'the source on another chain').not.toBe(chainBefore);
    }, overTheWire);
    await vi.waitFor(() => {
      expect(miner.jobId, 'the job on the new chain').not.toBe(oldId);
      expect(miner.header?.readUInt32LE(222), 'the job on the new chain').not.toBe(chainBefore);
    }, overTheWire);
    const stale = await client.request('mining.submit', [LOGIN, firstId, spare.nonce2]);
    expect(stale.error).toEqual([StratumError.JobNotFound, 'Stale share (job of an older block)', null]);
    // The node agrees: that work is spent.
    const refused = await chainweb.solved(solvedBytes(first, holder, spare.nonce2)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ChainwebError);
    expect((refused as ChainwebError).kind).toBe('not-found');

    // Another miner's block on the chain the pool mines now: "New Cut", the source fetches new work on a
    // new parent, and shares of the old work are stale — the node would only orphan such a block.
    const current = source.current() as KadenaJob;
    const onCurrent = new KadenaMiner();
    onCurrent.subscribed([null, (miner.nonce1 as bigint).toString(16), miner.nonce2Size]);
    onCurrent.notification('mining.set_target', [(2n ** 250n - 1n).toString(16).padStart(64, '0')]);
    onCurrent.notification('mining.notify', [miner.jobId, Buffer.from(current.header).toString('hex'), true]);
    const late = searchBelow(onCurrent, NETWORK_TARGET);
    const lateId = miner.jobId as string;
    node.advanceCut(1);
    await vi.waitFor(() => {
      const next = source.current();
      expect(next, 'work on a new parent').toBeDefined();
      expect(next?.parentKey, 'work on a new parent').not.toBe(current.parentKey);
    }, overTheWire);
    await vi.waitFor(
      () => expect(chainAndParent(miner.header), 'the new job at the miner').not.toBe(chainAndParent(current.header)),
      overTheWire,
    );
    const orphanShare = await client.request('mining.submit', [LOGIN, lateId, late.nonce2]);
    expect(orphanShare.error?.[0]).toBe(StratumError.JobNotFound);
    const rejectionsBefore = node.rejections.length;
    await chainweb.solved(solvedBytes(current, onCurrent, late.nonce2));
    expect(node.rejections.slice(rejectionsBefore).map((r) => r.reason)).toEqual([
      'orphaned solution: its parent is no longer the head',
    ]);
  });
});
