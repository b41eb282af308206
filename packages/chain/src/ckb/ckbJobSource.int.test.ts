import { createServer, type Server } from 'node:http';
import { POW } from '@lodestone/pow';
import { afterEach, describe, expect, it } from 'vitest';
import { JobSourceConfigError } from '../jobs/daemonJobSource.js';
import { RpcClient } from '../rpc/client.js';
import { type CkbStandInNode, startCkbNode } from '../testing/ckbNode.js';
import { ckbBlockStatus } from './blockStatus.js';
import { type CkbJob, createCkbJob } from './job.js';
import { CkbJobSource } from './jobSource.js';
import { CkbRpc } from './rpc.js';
import type { CkbJsonScript } from './types.js';

const POOL_LOCK: CkbJsonScript = {
  code_hash: '0x9bd7e06f3ecf4be0f2fcd2188b23f1b9fcc88e5d4b65a8637b17723bbda3cce8',
  hash_type: 'type',
  args: '0x2ec3a5fb4098b14f4887555fe58d966cab2c6a63',
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(options: { refreshIntervalMs?: number; nodes?: (node: CkbStandInNode) => string[] } = {}) {
  const node = await startCkbNode({ blockAssembler: { lock: POOL_LOCK, message: '0x6c6f646573746f6e65' } });
  cleanups.push(() => node.close());
  const source = new CkbJobSource({
    nodes: options.nodes ? options.nodes(node) : [node.url],
    payoutLock: POOL_LOCK,
    pollIntervalMs: 20,
    refreshIntervalMs: options.refreshIntervalMs ?? 60_000,
  });
  cleanups.push(() => source.stop());
  const rpc = new RpcClient({ url: node.url, jsonrpc: '2.0' });
  return { node, source, rpc };
}

/** 16 nonce bytes as a stratum session makes them: 4 bytes of nonce1, 12 of nonce2 (a counter). */
function nonceBytes(nonce1: number, counter: number): Uint8Array {
  const out = new Uint8Array(16);
  new DataView(out.buffer).setUint32(0, nonce1);
  new DataView(out.buffer).setUint32(12, counter);
  return out;
}

/** Grinds nonce2 until Eaglesong(pow_hash ‖ nonce) meets (or, with `miss`, misses) the network target. */
function grind(job: CkbJob, miss = false): Uint8Array {
  for (let counter = 0; counter < 1_000_000; counter++) {
    const nonce = nonceBytes(0xdeadbeef, counter);
    const hit = POW.eaglesong.meetsTarget(POW.eaglesong.hash(job.powMessage(nonce)), job.networkTarget);
    if (hit !== miss) return nonce;
  }
  throw new Error('no nonce found');
}

function nextJob(source: CkbJobSource, predicate: (job: CkbJob) => boolean): Promise<CkbJob> {
  const now = source.current();
  if (now && predicate(now)) return Promise.resolve(now);
  return new Promise((resolve) => {
    const off = source.onJob((job) => {
      if (predicate(job)) {
        off();
        resolve(job);
      }
    });
  });
}

describe('CkbJobSource against the stand-in CKB node', () => {
  it('makes a job from the template, and a block ground at the easy target is accepted', async () => {
    const { node, source } = await setup();
    await source.start();
    const job = source.current() as CkbJob;
    expect(job).toMatchObject({
      algorithm: 'eaglesong',
      coin: 'CKB',
      height: 1,
      cleanJobs: true,
      parentHash: node.tip().hash,
    });
    expect(job.networkTarget).toBe(1n << 248n);
    expect(job.powHash).toHaveLength(32);
    expect(job.payoutLock).toEqual(POOL_LOCK);

    const nonce = grind(job);
    const result = await source.submitBlock(job, job.block(nonce));
    expect(result).toEqual({ accepted: true, hash: job.blockHash(nonce) });
    expect(node.tip()).toEqual({ hash: job.blockHash(nonce), number: 1 });
    expect(node.submissions.at(-1)).toEqual({ workId: job.workId, hash: job.blockHash(nonce) });

    const next = await nextJob(source, (j) => j.height === 2);
    expect(next).toMatchObject({ cleanJobs: true, parentHash: job.blockHash(nonce) });
  });

  it('the header nonce is the 16 nonce bytes read little-endian', async () => {
    const { source } = await setup();
    await source.start();
    const job = source.current() as CkbJob;
    const nonce = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
    expect(job.block(nonce).header.nonce).toBe('0x100f0e0d0c0b0a090807060504030201');
    expect(job.block(new Uint8Array(16)).header.nonce).toBe('0x0');
  });

  it('refuses a wrong nonce, a changed transaction list and an unknown parent with the node’s messages', async () => {
    const { node, source } = await setup();
    await source.start();
    const job = source.current() as CkbJob;

    const wrong = await source.submitBlock(job, job.block(grind(job, true)));
    expect(wrong.accepted).toBe(false);
    expect(!wrong.accepted && wrong.reason).toContain('Invalid: Header(Pow(InvalidNonce: please set logger.filter');
    expect(!wrong.accepted && wrong.reason).toContain('(code -3)');

    const good = job.block(grind(job));
    const tampered = { ...good, transactions: good.transactions.slice(0, -1) };
    const badRoot = await source.submitBlock(job, tampered);
    expect(!badRoot.accepted && badRoot.reason).toContain('Invalid: Block(TransactionsRoot) (code -3)');

    const orphanTemplate = { ...job.template, parent_hash: `0x${'ab'.repeat(32)}` };
    const lost = createCkbJob(orphanTemplate, { id: 'lost', cleanJobs: true });
    const unknownParent = await source.submitBlock(lost, lost.block(grind(lost)));
    expect(!unknownParent.accepted && unknownParent.reason).toContain(
      `Invalid: Block(UnknownParent(UnknownParentError(parent_hash: Byte32(0x${'ab'.repeat(32)}))))`,
    );
    expect(node.tip().number).toBe(0);
    expect(node.submissions.filter((s) => s.error).length).toBe(3);
  });

  it('a block on a stale parent is kept by the node as a fork block and reported orphaned', async () => {
    const { node, source, rpc } = await setup();
    await source.start();
    const job = source.current() as CkbJob;
    const [winner] = node.mine(1);
    const nonce = grind(job);
    const late = await source.submitBlock(job, job.block(nonce));
    // CKB keeps a valid block whose parent it knows, even off the main chain (an uncle candidate).
    expect(late).toEqual({ accepted: true, hash: job.blockHash(nonce) });
    expect(node.isCanonical(job.blockHash(nonce))).toBe(false);
    expect(await ckbBlockStatus(rpc, { hash: job.blockHash(nonce), height: 1 })).toEqual({
      kind: 'orphaned',
      height: 1,
      canonicalHash: winner,
    });
    // The next template carries it as an uncle, so extra_hash covers an uncles hash.
    const next = await nextJob(source, (j) => j.height === 2);
    expect(next.template.uncles.map((u) => u.hash)).toEqual([job.blockHash(nonce)]);
    const uncleBlock = await source.submitBlock(next, next.block(grind(next)));
    expect(uncleBlock.accepted).toBe(true);
  });

  it('values a found block from get_block_economic_state once it is 11 blocks deep', async () => {
    const { node, source, rpc } = await setup();
    await source.start();
    const job = source.current() as CkbJob;
    const nonce = grind(job);
    const { hash } = await source.submitBlock(job, job.block(nonce));

    expect(await ckbBlockStatus(rpc, { hash, height: 1 })).toEqual({
      kind: 'pending',
      height: 1,
      confirmations: 1,
      finalizesAt: 12,
    });
    node.mine(10);
    expect(await ckbBlockStatus(rpc, { hash, height: 1 })).toMatchObject({ kind: 'pending', confirmations: 11 });
    node.mine(1);
    const status = await ckbBlockStatus(rpc, { hash, height: 1 });
    expect(status).toMatchObject({ kind: 'confirmed', confirmations: 12 });
    if (status.kind !== 'confirmed') throw new Error('unreachable');
    expect(status.reward.finalizedAt).toBe(node.hashAt(12));
    expect(status.reward.total).toBe(status.reward.primary + status.reward.secondary + status.reward.committed);
    expect(status.reward.committed).toBeGreaterThan(0n);

    // Block 12's cellbase pays that reward to the pool's lock (the lock block 1's cellbase witness named).
    const block12 = (await rpc.call('get_block', [node.hashAt(12)])) as {
      transactions: { outputs: { capacity: string; lock: CkbJsonScript }[] }[];
    };
    expect(block12.transactions[0]?.outputs).toEqual([
      { capacity: `0x${status.reward.total.toString(16)}`, lock: POOL_LOCK, type: null },
    ]);
  });

  it('reports a block replaced by a longer fork as orphaned', async () => {
    const { node, source, rpc } = await setup();
    await source.start();
    node.mine(2);
    const job = await nextJob(source, (j) => j.height === 3);
    const { hash } = await source.submitBlock(job, job.block(grind(job)));
    expect(node.tip().hash).toBe(hash);
    const fork = node.fork(3, 2);
    expect(node.tip().hash).toBe(fork[1]);
    expect(await ckbBlockStatus(rpc, { hash, height: 3 })).toEqual({
      kind: 'orphaned',
      height: 3,
      canonicalHash: fork[0],
    });
    expect(await new CkbRpc(rpc).getBlockEconomicState(hash)).toBeNull();
  });

  it('makes a non-clean job when the template changes under the same parent', async () => {
    const { node, source } = await setup({ refreshIntervalMs: 0 });
    await source.start();
    const first = source.current() as CkbJob;
    node.addTransaction();
    const next = await nextJob(source, (j) => j.id !== first.id);
    expect(next).toMatchObject({ height: 1, cleanJobs: false, parentHash: first.parentHash });
    expect(next.template.transactions.length).toBe(first.template.transactions.length + 1);
    expect(next.powHash).not.toEqual(first.powHash);
  });

  it('makes no new job for a template that changes only its work_id (the same pow_hash)', async () => {
    const { source } = await setup({ refreshIntervalMs: 0 });
    await source.start();
    const first = source.current() as CkbJob;
    await source.notify({ ...first.template, work_id: '0x999' });
    expect(source.current()).toBe(first);
    await source.notify({
      ...first.template,
      work_id: '0x99a',
      current_time: `0x${(BigInt(first.template.current_time) + 1n).toString(16)}`,
    });
    expect(source.current()).toMatchObject({ workId: '0x99a', cleanJobs: false });
  });

  it('fails over to the next node and submits to every node', async () => {
    const { node, source } = await setup({ nodes: (n) => ['http://127.0.0.1:1/', n.url] });
    await source.start();
    const job = source.current() as CkbJob;
    const result = await source.submitBlock(job, job.block(grind(job)));
    expect(result.accepted).toBe(true);
    expect(node.tip().number).toBe(1);
  });

  it('takes templates the node pushes (block assembler notify)', async () => {
    const bodies: unknown[] = [];
    let source: CkbJobSource | undefined;
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        bodies.push(JSON.parse(body));
        void source?.notify(JSON.parse(body));
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => receiver.close(() => resolve())));
    const port = (receiver.address() as { port: number }).port;
    const node = await startCkbNode({ blockAssembler: { lock: POOL_LOCK }, notify: [`http://127.0.0.1:${port}/`] });
    cleanups.push(() => node.close());
    source = new CkbJobSource({ nodes: [node.url], payoutLock: POOL_LOCK, pollIntervalMs: 60_000 });
    cleanups.push(() => (source as CkbJobSource).stop());
    await source.start();
    node.mine(1);
    const job = await nextJob(source, (j) => j.height === 2);
    expect(job.cleanJobs).toBe(true);
    expect(bodies.length).toBeGreaterThan(0);
  });
});

describe('CkbJobSource start-up checks', () => {
  it('refuses to start when the node has no block assembler (Miner module disabled)', async () => {
    const node = await startCkbNode({ blockAssembler: null });
    cleanups.push(() => node.close());
    const source = new CkbJobSource({ nodes: [node.url], payoutLock: POOL_LOCK });
    const error = await source.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobSourceConfigError);
    expect((error as Error).message).toContain('configure [block_assembler]');
    expect((error as Error).message).toContain('RPCModuleIsDisabled');
    expect(source.current()).toBeUndefined();
  });

  it('refuses to start when the node pays another lock than the configured one', async () => {
    const node = await startCkbNode({ blockAssembler: { lock: { ...POOL_LOCK, args: `0x${'22'.repeat(20)}` } } });
    cleanups.push(() => node.close());
    const source = new CkbJobSource({ nodes: [node.url], payoutLock: POOL_LOCK });
    await expect(source.start()).rejects.toThrow(/pays its block rewards to .*0x2222.*not the configured/);
  });
});

describe('the stand-in node’s transport', () => {
  it('refuses integers with leading zeros as the node does, and unknown methods', async () => {
    const node = await startCkbNode();
    cleanups.push(() => node.close());
    const rpc = new RpcClient({ url: node.url, jsonrpc: '2.0' });
    await expect(rpc.call('get_header_by_number', ['0x01'])).rejects.toThrow(
      /Invalid params: .*redundant leading zeros.*code -32602/,
    );
    await expect(rpc.call('get_header_by_number', ['0x1'])).resolves.toBeNull();
    await expect(rpc.call('no_such_method', [])).rejects.toThrow(/Method not found \(code -32601\)/);
    const tip = await new CkbRpc(rpc).getTipHeader();
    expect(tip.number).toBe('0x0');
  });
});
