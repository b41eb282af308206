import { kheavyhash, kheavyhashPow } from '@lodestone/pow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RpcError } from '../rpc/errors.js';
import { type KaspaNodeOptions, KaspaNodeStandIn } from '../testing/kaspaNode.js';
import { payToAddressScript } from './coinbase.js';
import { kaspaBlockStatus } from './kaspaBlockStatus.js';
import { type KaspaJob, parentKey } from './kaspaJob.js';
import { KaspaJobSource, type KaspaJobSourceOptions } from './kaspaJobSource.js';
import { KaspaRpc } from './kaspaRpc.js';
import { KaspaRpcClient } from './wrpcClient.js';

// A devnet Schnorr address (key bytes 0, 7, 14, …), encoded with the cashaddr checksum that gives
// rusty-kaspa's own vector kaspa:qqqq…kx9awp4e for 32 zero bytes on mainnet.
const POOL = 'kaspadev:qqqqwrs4rs3j5vfc8ary64zmvf5hqam7skxf8x4p4zhmd0wye0fdjdvq62sxf';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function standIn(options: KaspaNodeOptions = {}): Promise<KaspaNodeStandIn> {
  const node = await KaspaNodeStandIn.start(options);
  cleanups.push(() => node.close());
  return node;
}

function source(node: KaspaNodeStandIn, options: Partial<KaspaJobSourceOptions> = {}): KaspaJobSource {
  const s = new KaspaJobSource({ nodes: [node.url], payAddress: POOL, extraData: '/lodestone/', ...options });
  cleanups.push(() => s.stop());
  return s;
}

function nextJob(s: KaspaJobSource, timeoutMs = 3000): Promise<KaspaJob> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no job')), timeoutMs);
    const off = s.onJob((job) => {
      clearTimeout(timer);
      off();
      resolve(job);
    });
  });
}

/** A nonce whose kHeavyHash meets (or, with `meets` false, misses) the job's network target. */
function grind(job: KaspaJob, meets: boolean): bigint {
  for (let nonce = 0xfedcba9876543210n; ; nonce++) {
    const value = kheavyhashPow.hashValue(kheavyhash(job.powInput(nonce)));
    if (value <= job.networkTarget === meets) return nonce;
  }
}

/** How long a test waits for the source and the stand-in, and how often it looks. */
const patiently = { timeout: 3000, interval: 10 };

const templateCalls = (node: KaspaNodeStandIn) => node.calls.get('getBlockTemplate') ?? 0;

/**
 * Announces the node's template once more and waits for a second fetch from `from` calls on. The
 * source fetches one template at a time, so by the second it has weighed the first: whatever it would
 * do about the node's state (send a job or not) it has done.
 */
async function weighed(node: KaspaNodeStandIn, from: number): Promise<void> {
  node.notify();
  await vi.waitFor(
    () => expect(templateCalls(node), 'two template fetches').toBeGreaterThanOrEqual(from + 2),
    patiently,
  );
}

describe('Kaspa job source against the stand-in kaspad (wRPC JSON)', () => {
  it('makes a job from the template: header, pre-PoW hash, target, subsidy paying the pool', async () => {
    const node = await standIn({ prefix: 'kaspadev' });
    const s = source(node);
    await s.start();
    const job = s.current() as KaspaJob;
    expect(job).toBeDefined();
    expect(job.daaScore).toBe(node.virtualDaaScore);
    expect(job.payScript).toBe(payToAddressScript(POOL));
    expect(job.coinbaseValue).toBe(1_000_000_000n);
    expect(job.networkTarget > 1n << 254n).toBe(true);
    expect(job.prePowHash).toHaveLength(32);
    expect(job.cleanJobs).toBe(true);
  });

  it('grinds a nonce at the easy target, submits it and the node accepts it; a new job follows at once', async () => {
    const node = await standIn();
    const s = source(node);
    await s.start();
    const job = s.current() as KaspaJob;
    const nonce = grind(job, true);
    expect(nonce > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    const after = nextJob(s);
    const result = await s.submitBlock(job, job.block(nonce));
    expect(result).toEqual({ accepted: true, hash: job.blockHash(nonce) });
    expect(node.found).toEqual([result.hash]);
    const fresh = await after;
    expect(fresh.cleanJobs).toBe(true);
    expect(fresh.parentKey).not.toBe(job.parentKey);
    expect(fresh.header.parentsByLevel[0]).toContain(result.hash);
  });

  it('a nonce that misses the target, or altered transactions, are refused with kaspad reject reason', async () => {
    const node = await standIn();
    const s = source(node);
    await s.start();
    const job = s.current() as KaspaJob;
    const bad = await s.submitBlock(job, job.block(grind(job, false)));
    expect(bad.accepted).toBe(false);
    expect(bad.accepted === false && bad.reason).toMatch(/: blockInvalid \(block is invalid\)$/);
    expect(node.submissions.at(-1)?.why).toBe('proof of work above the target');

    const nonce = grind(job, true);
    const block = job.block(nonce);
    const [coinbase] = block.transactions as { payload: string }[];
    const tampered = { ...block, transactions: [{ ...coinbase, payload: `${coinbase?.payload}00` }] };
    const refused = await s.submitBlock(job, tampered);
    expect(refused.accepted).toBe(false);
    expect(node.submissions.at(-1)?.why).toMatch(/bad merkle root/);

    node.setSynced(false);
    const ibd = await s.submitBlock(job, block);
    expect(ibd.accepted === false && ibd.reason).toMatch(/isInIBD \(node is not synced\)/);
    expect(node.found).toEqual([]);
  });

  it('sends no job while the node is not synced, and one as soon as it is', async () => {
    const node = await standIn({ isSynced: false });
    const s = source(node);
    await s.start();
    expect(s.current()).toBeUndefined();
    const jobs: KaspaJob[] = [];
    s.onJob((job) => jobs.push(job));
    const from = templateCalls(node);
    node.advance(3);
    await weighed(node, from);
    expect(jobs).toEqual([]);
    node.setSynced(true);
    node.notify();
    // As soon as it is: on the announcement, well before the source's own poll a second later.
    await vi.waitFor(() => expect(jobs).toHaveLength(1), { ...patiently, timeout: 500 });
    expect(jobs[0]?.daaScore).toBe(node.virtualDaaScore);
  });

  it('throttles 10 templates a second to about one job a second, never on a parent set far behind', async () => {
    const node = await standIn({ templateRateHz: 10 });
    const s = source(node, { throttle: { minIntervalMs: 1000, staleDaaScore: 20n } });
    const jobs: { job: KaspaJob; virtual: bigint }[] = [];
    s.onJob((job) => jobs.push({ job, virtual: node.virtualDaaScore }));
    await s.start();
    // Seconds of templates at 10 a second: many turned down by the throttle, and three jobs sent.
    await vi.waitFor(
      () => {
        expect(templateCalls(node)).toBeGreaterThan(15);
        expect(jobs.length).toBeGreaterThanOrEqual(3);
      },
      { ...patiently, timeout: 5000 },
    );
    node.setTemplateRate(0);
    // one at start (before the listener's first call) plus about one a second
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    expect(jobs.length).toBeLessThanOrEqual(4);
    expect(node.calls.get('getBlockTemplate') ?? 0).toBeGreaterThan(15);
    for (const [i, { job, virtual }] of jobs.entries()) {
      // each job is built from a template fetched just before it was sent
      expect(virtual - job.daaScore).toBeLessThanOrEqual(2n);
      const before = jobs[i - 1];
      if (before === undefined) continue;
      // A second apart, unless the parents had moved the stale distance meanwhile: a loaded machine
      // that stalls the source for two seconds gets the newest template at once (CI saw 985 ms).
      if (job.createdAt - before.job.createdAt < 1000) {
        expect(job.daaScore - before.job.daaScore).toBeGreaterThanOrEqual(20n);
      }
    }
    // each job is on other parents, yet none made the one before worthless: one work epoch
    const [first, ...later] = jobs.map(({ job }) => job);
    expect(new Set(jobs.map(({ job }) => parentKey(job.header))).size).toBe(jobs.length);
    for (const job of later) {
      expect(job.cleanJobs).toBe(false);
      expect(job.parentKey).toBe(first?.parentKey);
    }
  });

  it('a DAA score jump is sent at once, inside the interval', async () => {
    const node = await standIn();
    const s = source(node, { throttle: { minIntervalMs: 60_000, staleDaaScore: 20n } });
    await s.start();
    const first = s.current() as KaspaJob;
    const jobs: KaspaJob[] = [];
    s.onJob((job) => jobs.push(job));
    const from = templateCalls(node);
    node.advance(3);
    await weighed(node, from);
    expect(jobs).toEqual([]);
    const jump = nextJob(s);
    node.advance(25);
    expect((await jump).daaScore - first.daaScore).toBeGreaterThanOrEqual(20n);
  });

  it('fails over to the next node and reconnects after a dropped connection', async () => {
    const node = await standIn();
    const s = source(node, { nodes: ['ws://127.0.0.1:9', node.url] });
    await s.start();
    expect(s.current()).toBeDefined();
    expect(s.rpc.current.name).toBe(`${node.url}/`);
    const after = nextJob(s, 5000);
    node.dropConnections();
    const job = await after;
    expect(job.cleanJobs).toBe(true);
    // notifications arrive again on the new connection
    const more = nextJob(s, 5000);
    node.advance(30);
    await more;
  });
});

describe('Kaspa RPC client', () => {
  it('answers kaspad errors as RpcError kind rpc, in kaspad words', async () => {
    const node = await standIn();
    const rpc = new KaspaRpc([node.url]);
    cleanups.push(() => rpc.close());
    const error = await rpc.getBlock('ab'.repeat(32), false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).kind).toBe('rpc');
    expect((error as RpcError).message).toMatch(/cannot find header abab/);
    await expect(
      rpc.getBlockTemplate('kaspa:qp0l70zd5x85ttwd6jv7g3s3a8llzj96d8dncn4zmhv4tlzx5k2jyqh70xmfj'),
    ).rejects.toThrow(/invalid prefix kaspa/);
    const dag = await rpc.getBlockDagInfo();
    expect(dag.network).toBe('devnet');
    expect(dag.virtualDaaScore).toBe(node.virtualDaaScore);
  });

  it('times out, and fails calls in flight when the connection closes', async () => {
    const node = await standIn();
    const client = new KaspaRpcClient({ url: node.url, timeoutMs: 300, reconnectDelayMs: 50 });
    cleanups.push(() => client.close());
    // kaspad drops a connection that calls a method it does not have
    const dropped = await client.call('noSuchMethod', {}).catch((e: unknown) => e);
    expect((dropped as RpcError).kind).toBe('unreachable');
    const info = await client.call('getServerInfo', {});
    expect(info).toMatchObject({ isSynced: true, networkId: 'devnet' });
    const unreachable = new KaspaRpcClient({ url: 'ws://127.0.0.1:9', timeoutMs: 300 });
    cleanups.push(() => unreachable.close());
    expect(((await unreachable.call('getServerInfo').catch((e: unknown) => e)) as RpcError).kind).toBe('unreachable');
  });
});

describe('Kaspa block status against the stand-in', () => {
  /** A stand-in node, a block the pool found on it, and an RPC client for the status calls. */
  async function foundBlock(): Promise<{ node: KaspaNodeStandIn; hash: string; rpc: KaspaRpc }> {
    const node = await standIn();
    const s = source(node);
    await s.start();
    const job = s.current() as KaspaJob;
    // The block makes the source fetch a clean job: once it has it, the source leaves the node alone.
    const clean = nextJob(s);
    const result = await s.submitBlock(job, job.block(grind(job, true)));
    expect(result.accepted).toBe(true);
    expect((await clean).cleanJobs).toBe(true);
    const rpc = new KaspaRpc([node.url]);
    cleanups.push(() => rpc.close());
    return { node, hash: result.hash, rpc };
  }

  it('blue: pending until merged and mature, then confirmed with the coinbase output paying the pool', async () => {
    const { node, hash, rpc } = await foundBlock();
    const options = { payScript: payToAddressScript(POOL) };
    expect(await kaspaBlockStatus(rpc, hash, options)).toEqual({ kind: 'pending' });
    const [merger] = node.advance(1);
    const merged = await kaspaBlockStatus(rpc, hash, options);
    expect(merged).toMatchObject({ kind: 'pending', color: 'blue', mergedBy: merger });
    // mature when the virtual's DAA score (one above the newest block's) is the merger's + 1000
    node.advance(998);
    expect(node.virtualDaaScore).toBe((merged as { matureAtDaaScore: bigint }).matureAtDaaScore - 1n);
    expect(await kaspaBlockStatus(rpc, hash, options)).toMatchObject({ kind: 'pending', color: 'blue' });
    node.advance(1);
    expect(await kaspaBlockStatus(rpc, hash, options)).toEqual({
      kind: 'confirmed',
      reward: 1_000_000_000n,
      mergedBy: merger,
    });
    // someone else's script: no reward for the pool
    expect(await kaspaBlockStatus(rpc, hash, { payScript: `000020${'99'.repeat(32)}ac` })).toMatchObject({
      kind: 'orphaned',
      reason: 'no-reward',
    });
  });

  it('red: merged red by the next chain block, orphaned once that block is mature; unknown: orphaned', async () => {
    const { node, hash, rpc } = await foundBlock();
    const options = { payScript: payToAddressScript(POOL), coinbaseMaturity: 10n };
    node.markRed(hash);
    node.advance(1);
    expect(await kaspaBlockStatus(rpc, hash, options)).toMatchObject({ kind: 'pending', color: 'red' });
    node.advance(10);
    expect(await kaspaBlockStatus(rpc, hash, options)).toMatchObject({ kind: 'orphaned', reason: 'red' });
    expect(await kaspaBlockStatus(rpc, 'cd'.repeat(32), options)).toEqual({ kind: 'orphaned', reason: 'not-found' });
  });
});
