import { blake2sWork, readUint256LE } from '@lodestone/pow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JobSourceConfigError } from '../jobs/daemonJobSource.js';
import { type ChainwebNodeStandIn, STAND_IN_MINER, startChainwebNode } from '../testing/chainwebNode.js';
import { ChainwebClient, ChainwebError } from './chainwebClient.js';
import { parseKadenaHeader } from './header.js';
import type { KadenaJob } from './kadenaJob.js';
import { KadenaJobSource, type KadenaJobSourceOptions } from './kadenaJobSource.js';
import { kadenaBlockReward } from './minerRewards.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done();
});

async function standIn(options: Parameters<typeof startChainwebNode>[0] = {}): Promise<ChainwebNodeStandIn> {
  const node = await startChainwebNode(options);
  cleanup.push(() => node.close());
  return node;
}

async function source(nodes: string[], options: Partial<KadenaJobSourceOptions> = {}) {
  const s = new KadenaJobSource({
    nodes,
    miner: STAND_IN_MINER,
    reissueIntervalMs: 60_000,
    retryDelayMs: 20,
    ...options,
  });
  const jobs: KadenaJob[] = [];
  s.onJob((job) => jobs.push(job));
  await s.start();
  cleanup.push(() => s.stop());
  return { s, jobs };
}

/** A nonce that solves the job, ground on the CPU (the stand-in's target needs ~1 000 hashes). */
function grind(job: KadenaJob, wantBlock = true): Uint8Array {
  for (let nonce = 1n; ; nonce++) {
    const solved = job.solved(nonce);
    if (readUint256LE(blake2sWork(solved)) <= job.networkTarget === wantBlock) return solved;
  }
}

/** How long a test waits for the node stand-in's streams and the source's jobs, and how often it looks. */
const patiently = { timeout: 5000, interval: 10 };

/** Every chain's held work is at `height`. */
function allAt(s: KadenaJobSource, height: number, what: string): void {
  const heights = [...s.heldWork().values()].map((j) => j.height);
  expect(heights, what).toEqual(heights.map(() => height));
}

describe('KadenaJobSource against the stand-in chainweb-node', () => {
  it('holds work for all 20 chains, one work request each, and hands out one clean job', async () => {
    const node = await standIn();
    const { s, jobs } = await source([node.url]);
    expect(node.workServed()).toBe(20);
    expect([...s.heldWork().keys()].sort((a, b) => a - b)).toEqual(node.chains);
    expect(jobs).toHaveLength(1);
    const job = s.current() as KadenaJob;
    expect(job).toBe(jobs[0]);
    expect(job).toMatchObject({ algorithm: 'blake2s', coin: 'KDA', cleanJobs: true, networkTarget: 1n << 246n });
    expect(job.height).toBe(node.head(job.chainId).height + 1);
    expect(job.parentHash).toBe(node.head(job.chainId).hash);
    expect(job.coinbaseValue).toBe(kadenaBlockReward('mainnet01', job.height));
    expect(job.header).toHaveLength(286);
    await vi.waitFor(() => expect(node.openStreams(), 'an update stream per chain').toBe(20), patiently);
  });

  it('re-issues the current job every interval with the creation time moved on: new id, same work, not clean', async () => {
    const node = await standIn();
    const { jobs } = await source([node.url], { reissueIntervalMs: 30 });
    await vi.waitFor(() => expect(jobs.length, 're-issued jobs').toBeGreaterThanOrEqual(4), patiently);
    const [first, ...later] = jobs as [KadenaJob, ...KadenaJob[]];
    expect(new Set(jobs.map((j) => j.id)).size).toBe(jobs.length);
    for (const [i, job] of later.entries()) {
      expect(job).toMatchObject({ cleanJobs: false, chainId: first.chainId, payloadHash: first.payloadHash });
      expect(job.creationTime).toBeGreaterThan((jobs[i] as KadenaJob).creationTime);
      expect(job.creationTime).toBeLessThanOrEqual(BigInt(Date.now()) * 1000n);
    }
    expect(node.workServed()).toBe(20);
  });

  it('a nonce ground at the easy target is taken, the block added to its chain; miners move to another chain', async () => {
    const node = await standIn();
    const { s, jobs } = await source([node.url]);
    const job = s.current() as KadenaJob;
    const solution = grind(job.withCreationTime(job.creationTime + 1000n));
    const result = await s.submitBlock(job, solution);
    expect(result).toEqual({ accepted: true, hash: expect.any(String) });
    expect(node.solvedBlocks).toHaveLength(1);
    expect(node.solvedBlocks[0]).toMatchObject({
      chainId: job.chainId,
      height: job.height,
      account: STAND_IN_MINER.account,
    });
    expect(node.solvedBlocks[0]?.hash).toBe(result.hash);
    expect(node.head(job.chainId).hash).toBe(result.hash);
    const next = jobs.at(-1) as KadenaJob;
    expect(next.cleanJobs).toBe(true);
    expect(next.chainId).not.toBe(job.chainId);
    expect(node.rejections).toEqual([]);
  });

  it('refuses a nonce above the target with the node’s answer, and the same work twice with 404', async () => {
    const node = await standIn();
    const { s } = await source([node.url]);
    const job = s.current() as KadenaJob;
    const bad = await s.submitBlock(job, grind(job, false));
    expect(bad).toMatchObject({
      accepted: false,
      reason: expect.stringContaining('Invalid solved work: Invalid POW hash'),
    });
    // The node forgets the payload once a solution for it came (Coordinator.hs `solve`): a stale resubmission.
    const again = await s.submitBlock(job, grind(job));
    expect(again).toMatchObject({ accepted: false, reason: expect.stringContaining('No associated Payload') });
    expect(node.solvedBlocks).toEqual([]);
  });

  it('"Refreshed Block" replaces the work, not clean; "New Cut" makes a clean job at the next height', async () => {
    const node = await standIn();
    const { s, jobs } = await source([node.url]);
    await vi.waitFor(() => expect(node.openStreams(), 'update streams').toBe(20), patiently);
    const first = s.current() as KadenaJob;
    node.refreshPayload(first.chainId);
    await vi.waitFor(() => expect(jobs, 'the refreshed job').toHaveLength(2), patiently);
    expect(jobs[1]).toMatchObject({ chainId: first.chainId, cleanJobs: false, parentHash: first.parentHash });
    expect(jobs[1]?.payloadHash).not.toBe(first.payloadHash);
    const served = node.workServed();
    const sent = node.updatesSent();
    node.advanceCut(1);
    await vi.waitFor(
      () =>
        expect(jobs, 'work on the new cut').toContainEqual(
          expect.objectContaining({ cleanJobs: true, height: first.height + 1 }),
        ),
      patiently,
    );
    await vi.waitFor(() => allAt(s, first.height + 1, 'all chains refetched'), patiently);
    // At most one request per update event, never per miner or per poll. A chain extended before its neighbours is
    // blocked and gets a second "New Cut" when they catch up, so the events number between 20 and 40 here.
    const updates = node.updatesSent() - sent;
    expect(updates).toBeGreaterThanOrEqual(20);
    expect(node.workServed() - served).toBeLessThanOrEqual(updates);
  });

  it('a retargeting node (the demo network) hands out each chain’s own target, from that chain’s head', async () => {
    const asked = new Set<string>();
    const targetFor = (chain: number, height: number) => (1n << 250n) + BigInt(chain * 1000 + height);
    const node = await standIn({
      retarget: (chain, parent) => {
        asked.add(`${chain}@${parent.height}`);
        return targetFor(chain, parent.height);
      },
    });
    const { s } = await source([node.url]);
    const first = s.current() as KadenaJob;
    for (const [chain, job] of s.heldWork()) expect(job.networkTarget).toBe(targetFor(chain, node.head(chain).height));
    expect(await s.submitBlock(first, grind(first))).toMatchObject({ accepted: true });
    node.advanceCut(1);
    await vi.waitFor(() => allAt(s, first.height + 1, 'work on the new cut'), patiently);
    for (const [chain, job] of s.heldWork()) {
      expect(job.networkTarget).toBe(targetFor(chain, first.height));
      expect(asked.has(`${chain}@${first.height}`)).toBe(true);
    }
  });

  it('403 — the miner is not in the node’s coordination config — stops start-up with an operator error', async () => {
    const node = await standIn();
    const s = new KadenaJobSource({ nodes: [node.url], miner: { account: 'k:00', publicKeys: ['00'] } });
    const error = await s.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(JobSourceConfigError);
    expect((error as Error).message).toMatch(/Unauthorized Miner: k:00.*chainweb\.mining\.coordination\.miners/);
    expect(s.current()).toBeUndefined();
  });

  it('the node’s work limit (503 "Too many work requests") is reported as rate limiting; start keeps the work it got', async () => {
    const node = await standIn({ workLimit: 4 });
    const client = new ChainwebClient({ url: node.url });
    await client.info();
    for (let chain = 0; chain < 5; chain++) await client.work(STAND_IN_MINER, chain);
    const error = await client.work(STAND_IN_MINER, 6).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainwebError);
    expect(error).toMatchObject({ kind: 'rate-limited', details: { status: 503, body: 'Too many work requests' } });

    const fresh = await standIn({ workLimit: 2 });
    const { s } = await source([fresh.url]);
    expect(s.heldWork().size).toBe(3);
    expect(s.current()).toBeDefined();
  });

  it('fails over to the next node when the first cannot be reached', async () => {
    const node = await standIn();
    const dead = await standIn();
    const deadUrl = dead.url;
    await dead.close();
    const { s } = await source([deadUrl, node.url]);
    expect(s.current()?.node).toBe(node.url);
    expect(node.workServed()).toBe(20);
  });
});

describe('the stand-in checks solutions on its own', () => {
  it('takes, then drops, a header changed beyond nonce and time, and one created in the future', async () => {
    const node = await standIn();
    const { s } = await source([node.url]);
    const job = s.current() as KadenaJob;
    const changed = Uint8Array.from(job.header);
    changed[226] = (changed[226] as number) ^ 1; // weight
    const forged = grind({
      ...job,
      solved: (n: bigint) => {
        const out = Uint8Array.from(changed);
        new DataView(out.buffer).setBigUint64(278, n, true);
        return out;
      },
    } as KadenaJob);
    expect(await s.submitBlock(job, forged)).toMatchObject({ accepted: true });
    expect(node.rejections.at(-1)?.reason).toBe('fields differ from the work handed out: weight');

    const other = [...s.heldWork().values()].find((j) => j.chainId !== job.chainId) as KadenaJob;
    const future = grind(other.withCreationTime(BigInt(Date.now() + 3_600_000) * 1000n));
    expect(await s.submitBlock(other, future)).toMatchObject({ accepted: true });
    expect(node.rejections.at(-1)?.reason).toBe('BlockInTheFuture');
    expect(node.solvedBlocks).toEqual([]);
    expect(parseKadenaHeader(future).chainId).toBe(other.chainId);
  });
});
