/**
 * Issue 17's Kaspa acceptance, end to end against the kaspad stand-in (kaspad cannot be installed here;
 * @lodestone/chain/testing KaspaNodeStandIn speaks its wRPC JSON, builds real templates on a small DAG
 * and checks submitted blocks with its own header hashing, merkle root and kHeavyHash). A KaspaJobSource
 * follows it, the stratum server serves it on a kheavyhash port, our Kaspa miner (miner.ts)
 * mines through that port over TCP as an IceRiver (big job) or an Antminer (legacy job) until a block,
 * the stand-in accepts the block, a FoundBlock is published on the bus, and kaspaBlockStatus classifies
 * it once the DAG merges it: blue and paid, or red.
 */
import { type KaspaJob, KaspaJobSource, KaspaRpc, kaspaBlockStatus, payToAddressScript } from '@lodestone/chain';
import { type KaspaNodeOptions, KaspaNodeStandIn } from '@lodestone/chain/testing';
import type { FoundBlock } from '@lodestone/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InProcessBus } from '../../bus/inProcess.js';
import { StratumClient } from '../../stratum/client/stratumClient.js';
import { SILENT_LOG } from '../../stratum/log.js';
import { startStratum } from '../../stratum/startStratum.js';
import { kaspaWork } from './index.js';
import { KaspaMiner, type KaspaMinerKind } from './miner.js';

/** How long a test waits on the sockets (node stand-in, pool, miner, bus), and how often it looks. */
const overTheWire = { timeout: 20_000, interval: 20 };

// A devnet Schnorr address (the one packages/chain's Kaspa source tests pay).
const POOL = 'kaspadev:qqqqwrs4rs3j5vfc8ary64zmvf5hqam7skxf8x4p4zhmd0wye0fdjdvq62sxf';
const LOGIN = 'acct.rig1';
/** One hash in 16 is a share. */
const SHARE_DIFFICULTY = 2 ** -28;

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A stand-in kaspad, a KaspaJobSource on it, the pool's kheavyhash port, one miner subscribed and authorized. */
async function startPool(kind: KaspaMinerKind, nodeOptions: KaspaNodeOptions = {}) {
  const node = await KaspaNodeStandIn.start({ prefix: 'kaspadev', ...nodeOptions });
  cleanups.push(() => node.close());
  const source = new KaspaJobSource({ nodes: [node.url], payAddress: POOL, extraData: '/lodestone/' });
  cleanups.push(() => source.stop());
  await source.start();
  const bus = new InProcessBus();
  cleanups.push(() => bus.close());
  const found: FoundBlock[] = [];
  await bus.consumeFoundBlocks(async (block) => {
    found.push(block);
  });
  const server = await startStratum({
    node: 'kaspa-test',
    listeners: [
      {
        algorithm: 'kheavyhash',
        host: '127.0.0.1',
        port: 0,
        kind: 'standard',
        minDifficulty: SHARE_DIFFICULTY,
        startDifficulty: SHARE_DIFFICULTY,
        maxDifficulty: SHARE_DIFFICULTY,
      },
    ],
    work: [kaspaWork(source)],
    bus,
    log: SILENT_LOG,
    flushIntervalMs: 60_000,
  });
  cleanups.push(() => server.stop());

  const client = await StratumClient.connect({
    host: '127.0.0.1',
    port: server.listeners[0]?.port ?? 0,
    timeoutMs: 10_000,
  });
  cleanups.push(() => client.destroy());
  const miner = new KaspaMiner(kind, 0x1000n);
  client.onNotification((message, line) => miner.notification(message.method ?? '', message.params ?? [], line));
  const subscribed = await client.request('mining.subscribe', miner.subscribeParams());
  miner.subscribed(subscribed.result);
  expect((await client.authorize(LOGIN)).result).toBe(true);
  await vi.waitFor(() => expect(miner.ready, 'the first job').toBe(true), overTheWire);
  return { node, source, bus, found, client, miner };
}

/** The pool on a stand-in with easy bits (about every other hash is a block); mines one block. */
async function minePoolBlock(kind: KaspaMinerKind) {
  const { node, source, found, client, miner } = await startPool(kind);
  const job = source.current() as KaspaJob;
  // Mine until a share is also a block; stop there, so that the pool finds exactly one block.
  let block: { hashValue: bigint } | undefined;
  let accepted = 0;
  for (let attempt = 0; attempt < 200 && block === undefined; attempt++) {
    const { share } = miner.search(1000);
    if (!share) continue;
    const reply = await client.request('mining.submit', [LOGIN, share.jobId, ...share.params]);
    expect(reply.error).toBeNull();
    accepted++;
    if (share.hashValue <= job.networkTarget) block = share;
  }
  expect(block).toBeDefined();
  const foundBlock = await vi.waitFor(() => {
    expect(found[0], 'the FoundBlock on the bus').toBeDefined();
    return found[0] as FoundBlock;
  }, overTheWire);
  const rpc = new KaspaRpc([node.url]);
  cleanups.push(() => rpc.close());
  return { node, source, job, miner, foundBlock, found, accepted, rpc };
}

describe('a Kaspa block found through the kheavyhash port', () => {
  it('an IceRiver (big job) finds a block; the stand-in accepts it; blue, merged and paid after maturity', async () => {
    const { node, job, miner, foundBlock, found, accepted, rpc } = await minePoolBlock('iceriver');
    expect(accepted).toBeGreaterThanOrEqual(1);
    expect(miner.extranonce).toMatch(/^[0-9a-f]{4}$/);
    // the stand-in checked header, merkle root and kHeavyHash itself, and took the block
    expect(node.submissions).toHaveLength(1);
    expect(node.submissions[0]?.report).toEqual({ type: 'success' });
    expect(node.found).toEqual([foundBlock.hash]);
    expect(foundBlock).toMatchObject({
      node: 'kaspa-test',
      algorithm: 'kheavyhash',
      coin: 'KAS',
      height: job.height,
      reward: job.coinbaseValue.toString(),
      account: 'acct',
      worker: 'rig1',
      difficulty: SHARE_DIFFICULTY,
      submitResult: { accepted: true },
    });
    expect(found).toHaveLength(1);

    const options = { payScript: payToAddressScript(POOL), coinbaseMaturity: 10n };
    expect(await kaspaBlockStatus(rpc, foundBlock.hash, options)).toEqual({ kind: 'pending' });
    const [merger] = node.advance(1);
    expect(await kaspaBlockStatus(rpc, foundBlock.hash, options)).toMatchObject({
      kind: 'pending',
      color: 'blue',
      mergedBy: merger,
    });
    node.advance(10);
    expect(await kaspaBlockStatus(rpc, foundBlock.hash, options)).toEqual({
      kind: 'confirmed',
      reward: job.coinbaseValue,
      mergedBy: merger,
    });
  });

  it('an Antminer (legacy job, integers above 2^53) finds a block; merged red, it is orphaned', async () => {
    const { node, foundBlock, rpc } = await minePoolBlock('bitmain');
    expect(node.found).toEqual([foundBlock.hash]);
    expect(foundBlock.submitResult).toEqual({ accepted: true });
    node.markRed(foundBlock.hash);
    node.advance(1);
    const options = { payScript: payToAddressScript(POOL), coinbaseMaturity: 10n };
    expect(await kaspaBlockStatus(rpc, foundBlock.hash, options)).toMatchObject({ kind: 'pending', color: 'red' });
    node.advance(10);
    expect(await kaspaBlockStatus(rpc, foundBlock.hash, options)).toMatchObject({ kind: 'orphaned', reason: 'red' });
  });

  it('at 10 blocks a second, a share of the previous job (under its own id, or an IceRiver under the next) is paid', async () => {
    // bits 0x1d100000: target 2^228, a block in about 2^28 hashes: none found here, jobs change at the network's pace
    const { node, source, client, miner } = await startPool('iceriver', { bits: 0x1d100000, templateRateHz: 10 });
    const jobs: KaspaJob[] = [source.current() as KaspaJob];
    source.onJob((job) => jobs.push(job));
    const replies: unknown[] = [];
    const jobIds = new Set<string>();
    let held: { jobId: string; params: unknown[] } | undefined;
    let changes = 0;
    const deadline = Date.now() + 8000;
    while (changes < 2 && Date.now() < deadline) {
      const { share } = miner.search(200);
      if (!share) continue;
      jobIds.add(share.jobId);
      if (held === undefined || held.jobId !== share.jobId) {
        if (held !== undefined) {
          // the network moved on: the share held from the previous job goes in now
          changes++;
          const named = changes === 1 ? held.jobId : share.jobId;
          const reply = await client.request('mining.submit', [LOGIN, named, ...held.params]);
          expect(reply.error).toBeNull();
          replies.push(reply.result);
        }
        held = share;
        continue;
      }
      const reply = await client.request('mining.submit', [LOGIN, share.jobId, ...share.params]);
      expect(reply.error).toBeNull();
      replies.push(reply.result);
    }
    expect(changes).toBe(2);
    expect(replies.every((r) => r === true)).toBe(true);
    // each job was on other parents (the network moved under it), all in one work epoch
    expect(jobIds.size).toBeGreaterThanOrEqual(3);
    expect(new Set(jobs.map((job) => job.header.parentsByLevel[0]?.join())).size).toBe(jobs.length);
    expect(new Set(jobs.map((job) => job.parentKey)).size).toBe(1);
    expect(node.virtualDaaScore - (jobs.at(-1) as KaspaJob).daaScore).toBeLessThan(30n);
  });
});
