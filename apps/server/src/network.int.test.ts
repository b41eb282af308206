import {
  type CkbJob,
  JobSourceConfigError,
  type KadenaJob,
  type KaspaJob,
  type WorkJob,
  type WorkSource,
} from '@lodestone/chain';
import { KaspaNodeStandIn, STAND_IN_MINER, startChainwebNode, startCkbNode } from '@lodestone/chain/testing';
import { POW } from '@lodestone/pow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CKB_DEMO, DEMO_CKB_LOCK } from './chains/ckb/demo.js';
import { KADENA_DEMO } from './chains/kadena/demo.js';
import { KASPA_DEMO } from './chains/kaspa/demo.js';
import { parseConfig } from './config/config.js';
import { type DemoChainNode, DemoChainSource } from './demo/demoChains.js';
import { createStratumWork } from './network.js';
import type { WorkSourceView } from './stratum/work.js';

const QUIET = { info() {}, warn() {}, error() {} };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Loopback servers, sockets and timers this process holds now, by kind. */
function handles(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) {
    if (/TCP|Timeout|Immediate/.test(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

function nextJob<J extends WorkJob>(source: WorkSource<J, unknown>, accept: (job: J) => boolean): Promise<J> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no new ${source.algorithm} job`)), 5000);
    const off = source.onJob((job) => {
      if (!accept(job)) return;
      clearTimeout(timer);
      off();
      resolve(job);
    });
  });
}

/** A solution of the job at its network target, ground on the CPU, in the form its source submits. */
function solve(job: WorkJob): unknown {
  for (let n = 1n; ; n++) {
    if (job.algorithm === 'eaglesong') {
      const ckb = job as CkbJob;
      const nonce = Buffer.alloc(16);
      nonce.writeBigUInt64LE(n);
      if (POW.eaglesong.hashValue(POW.eaglesong.hash(ckb.powMessage(nonce))) <= job.networkTarget) {
        return ckb.block(nonce);
      }
    } else if (job.algorithm === 'kheavyhash') {
      const kaspa = job as KaspaJob;
      if (POW.kheavyhash.hashValue(POW.kheavyhash.hash(kaspa.powInput(n))) <= job.networkTarget) return kaspa.block(n);
    } else {
      const solved = (job as KadenaJob).solved(n);
      if (POW.blake2s.hashValue(POW.blake2s.hash(solved)) <= job.networkTarget) return solved;
    }
  }
}

/** The demo chains that run a chain's real job source against its demo node. */
const DEMO_NODES: Record<'eaglesong' | 'kheavyhash' | 'blake2s', DemoChainNode<WorkJob, unknown>> = {
  eaglesong: CKB_DEMO,
  kheavyhash: KASPA_DEMO,
  blake2s: KADENA_DEMO,
};

describe('the demo network of npm start', () => {
  it('starts six job sources, a first job from each, and stops them without leaving handles', async () => {
    const before = handles();
    const sources = createStratumWork(parseConfig({}), QUIET).map((w) => w.source);
    cleanups.push(() => Promise.all(sources.map((s) => s.stop())));
    await Promise.all(sources.map((s) => s.start()));
    const jobs = sources.map((s) => s.current());
    expect(jobs.map((j) => j && [j.algorithm, j.coin])).toEqual([
      ['scrypt', 'LTC'],
      ['sha256', 'BTC'],
      ['x11', 'DASH'],
      ['eaglesong', 'CKB'],
      ['blake2s', 'KDA'],
      ['kheavyhash', 'KAS'],
    ]);
    for (const job of jobs as WorkJob[]) {
      // Valued at a real coin's difficulty, found at the easy target.
      expect(job.valuationTarget, job.algorithm).toBeDefined();
      expect(job.networkTarget / (job.valuationTarget as bigint), job.algorithm).toBeGreaterThan(1_000_000n);
      expect(job.coinbaseValue, job.algorithm).toBeGreaterThan(0n);
    }
    for (const algorithm of ['eaglesong', 'kheavyhash', 'blake2s'] as const) {
      const job = jobs.find((j) => j?.algorithm === algorithm) as WorkJob;
      expect(job.valuationTarget).toBe(POW[algorithm].diff1Target / DEMO_NODES[algorithm].reference.difficulty);
    }
    expect(sources.every((s) => s.demo)).toBe(true);

    await Promise.all(sources.map((s) => s.stop()));
    // Sockets and timers close in the turns after stop(): none may stay beyond what there was before.
    // vi.waitFor looks once at once, then from its interval while its interval and timeout run: two
    // Timeouts that are the wait's own, not the sources'.
    let looks = 0;
    await vi.waitFor(
      () => {
        const own = looks++ === 0 ? 0 : 2;
        for (const [kind, count] of handles()) {
          expect(count - (kind === 'Timeout' ? own : 0), kind).toBeLessThanOrEqual(before.get(kind) ?? 0);
        }
      },
      { timeout: 1000, interval: 10 },
    );
  });

  it.each(['eaglesong', 'kheavyhash', 'blake2s'] as const)(
    '%s: a block found on the demo chain is taken by its demo node and the chain moves on',
    async (algorithm) => {
      const source = new DemoChainSource({
        node: DEMO_NODES[algorithm],
        expectedHashesPerBlock: 32n,
        valuation: 'reference',
      });
      cleanups.push(() => source.stop());
      await source.start();
      const job = source.current() as WorkJob;
      const moved = nextJob(source, (j) => j.cleanJobs && j.id !== job.id);
      const result = await source.submitBlock(job, solve(job));
      expect(result).toMatchObject({ accepted: true });
      const next = await moved;
      if (algorithm === 'blake2s') expect((next as KadenaJob).parentHash).not.toBe((job as KadenaJob).parentHash);
      else {
        expect(next.height).toBeGreaterThan(job.height);
        // The demo node retargets (ASERT): a block found right after its parent, one interval early,
        // halves the target of the one after it. (Kadena's next job is on another chain of the braid,
        // each of which retargets on its own: chainwebNode's tests.)
        const after = nextJob(source, (j) => j.cleanJobs && j.height > next.height);
        expect(await source.submitBlock(next, solve(next))).toMatchObject({ accepted: true });
        const third = await after;
        expect(Number((next.networkTarget * 100n) / third.networkTarget) / 100).toBeCloseTo(2, 1);
      }
      expect(next.valuationTarget).toBe(job.valuationTarget);
    },
  );

  it('refuses a submission once stopped', async () => {
    const source = new DemoChainSource({ node: DEMO_NODES.blake2s, expectedHashesPerBlock: 32n, valuation: 'chain' });
    await source.start();
    const job = source.current() as WorkJob;
    // DEMO_VALUATION=chain: shares are valued at the demo chain's own start target, retargets or not.
    expect(job.valuationTarget).toBe(source.networkTarget);
    await source.stop();
    expect(await source.submitBlock(job, solve(job))).toMatchObject({ accepted: false });
  });
});

describe('configured coins against their nodes (stand-ins)', () => {
  const KAS_ADDRESS = 'kaspadev:qqqqwrs4rs3j5vfc8ary64zmvf5hqam7skxf8x4p4zhmd0wye0fdjdvq62sxf';

  async function started(coin: Record<string, unknown>): Promise<WorkSourceView> {
    const config = parseConfig({
      COINS: JSON.stringify([coin]),
      STRATUM_LISTENERS: JSON.stringify([{ algorithm: coin.algorithm, port: 0 }]),
    });
    const [source] = createStratumWork(config, QUIET).map((w) => w.source);
    if (!source) throw new Error('no source');
    cleanups.push(() => source.stop());
    await source.start();
    return source;
  }

  it('CKB: jobs from the node whose block assembler pays the configured lock; another lock stops start-up', async () => {
    const node = await startCkbNode({ blockAssembler: { lock: DEMO_CKB_LOCK } });
    cleanups.push(() => node.close());
    const source = await started({ algorithm: 'eaglesong', nodes: [node.url], payout_lock: DEMO_CKB_LOCK });
    expect(source.demo).toBe(false);
    expect(source.current()).toMatchObject({ algorithm: 'eaglesong', coin: 'CKB', height: 1 });
    expect(source.current()?.valuationTarget).toBeUndefined();

    const other = { ...DEMO_CKB_LOCK, args: `0x${'22'.repeat(20)}` };
    await expect(started({ algorithm: 'eaglesong', nodes: [node.url], payout_lock: other })).rejects.toThrow(
      JobSourceConfigError,
    );
  });

  it('Kaspa: jobs from kaspad paying the configured address', async () => {
    const node = await KaspaNodeStandIn.start({ prefix: 'kaspadev' });
    cleanups.push(() => node.close());
    const source = await started({ algorithm: 'kheavyhash', nodes: [node.url], pay_address: KAS_ADDRESS });
    expect(source.current()).toMatchObject({ algorithm: 'kheavyhash', coin: 'KAS', payScript: expect.any(String) });
    expect(source.current()?.height).toBe(Number(node.virtualDaaScore));
  });

  it('Kadena: jobs from a node of the configured chainweb version; another version stops start-up', async () => {
    const node = await startChainwebNode();
    cleanups.push(() => node.close());
    const miner = {
      account: STAND_IN_MINER.account,
      public_keys: STAND_IN_MINER.publicKeys,
      predicate: STAND_IN_MINER.predicate,
    };
    const kadena = { algorithm: 'blake2s', nodes: [node.url], miner };
    const source = await started({ ...kadena, chainweb_version: 'mainnet01' });
    expect(source.current()).toMatchObject({ algorithm: 'blake2s', coin: 'KDA', version: 'mainnet01' });
    await expect(started({ ...kadena, chainweb_version: 'testnet04' })).rejects.toThrow(
      /runs mainnet01, not the configured chainweb_version testnet04/,
    );
  });
});
