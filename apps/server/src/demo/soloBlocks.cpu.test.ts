/**
 * Issue 29's acceptance, solo half: "the demo network offers solo ports for all six algorithms; a CPU
 * miner finds a demo solo block within minutes". The demo network here is the one `npm start` runs:
 * the default configuration's work sources (network.ts `createStratumWork`), whose start targets are
 * sized to the demo fleet (one worker per algorithm at DEFAULT_FLEET_HASHRATE, a block per
 * DEMO_BLOCK_SECONDS), not an easier test target. Our own CPU miner (the client's miner dialect of each
 * algorithm, hashing as fast as it can) mines each solo port as `acct.rig1`.
 */
import { DEMO_BLOCK_SECONDS } from '@lodestone/chain';
import { ALGORITHM_KEYS, type AlgorithmKey } from '@lodestone/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { minerDialectFor } from '../chains/registry.js';
import { loadConfig } from '../config/config.js';
import { createStratumWork } from '../network.js';
import { MinerConnection } from '../stratum/client/minerConnection.js';
import { SILENT_LOG } from '../stratum/log.js';
import { powFor } from '../stratum/pow.js';
import { type Harness, startHarness } from '../stratum/testing/harness.js';
import type { StratumWork } from '../stratum/work.js';
import { DEFAULT_FLEET_HASHRATE, fleetAssignments } from './fleet.js';

let harness: Harness | undefined;
let work: StratumWork[] = [];
const miners: SoloMiner[] = [];

afterEach(async () => {
  for (const miner of miners.splice(0)) await miner.stop();
  await harness?.close();
  harness = undefined;
  for (const { source } of work) await source.stop();
  work = [];
});

/** What one CPU miner did on its solo port. */
interface SoloMiner {
  readonly algorithm: AlgorithmKey;
  /** performance.now() when the miner had its first job and began hashing. */
  readonly startedAt: number;
  readonly hashes: number;
  /** Milliseconds spent hashing (in the dialect's search). */
  readonly searchMs: number;
  readonly accepted: number;
  readonly rejected: number;
  /** The pool's answers to the rejected shares. */
  readonly rejections: readonly string[];
  /** The share difficulty the pool last set (in the server's convention). */
  readonly difficulty: number | undefined;
  /** Each accepted share: the difficulty it was searched at and the difficulty its hash achieved. */
  readonly shares: readonly { difficulty: number; achieved: number }[];
  /** Stops hashing, waits for the answers of the shares in flight and closes the connection. */
  stop(): Promise<void>;
}

/** Each slice of hashing holds the event loop this long at most, so six miners and the pool share it. */
const SLICE_MS = 10;

/**
 * A CPU miner as a miner runs one: connect, subscribe, authorize, then hash the current job without
 * pause and submit every share as it is found (without waiting for its answer), until stopped.
 */
async function startSoloMiner(algorithm: AlgorithmKey, port: number, login: string): Promise<SoloMiner> {
  const pow = powFor(algorithm);
  const dialect = minerDialectFor(algorithm);
  if (!dialect) throw new Error(`no miner dialect for ${algorithm}`);
  const connection = await MinerConnection.open({ host: '127.0.0.1', port, inbox: false, timeoutMs: 15_000 }, dialect);
  await connection.subscribe('lodestone-cpu-miner/1.0');
  await connection.authorize(login);
  await connection.ready(10_000);
  let stopped = false;
  const inFlight = new Set<Promise<unknown>>();
  const state = {
    algorithm,
    startedAt: performance.now(),
    hashes: 0,
    searchMs: 0,
    accepted: 0,
    rejected: 0,
    rejections: [] as string[],
    shares: [] as { difficulty: number; achieved: number }[],
    get difficulty() {
      return connection.miner.difficulty;
    },
    async stop() {
      stopped = true;
      await done;
      await Promise.allSettled([...inFlight]);
      connection.destroy();
    },
  };
  const run = async () => {
    let batch = 64;
    while (!stopped && connection.client.isOpen) {
      const sliceStart = performance.now();
      let sliceHashes = 0;
      let now = sliceStart;
      while (now - sliceStart < SLICE_MS) {
        const found = connection.miner.search(batch);
        const before = now;
        now = performance.now();
        state.searchMs += now - before;
        state.hashes += found.hashes;
        sliceHashes += found.hashes;
        if (found.share) {
          const share = {
            difficulty: connection.miner.difficulty ?? 0,
            achieved: pow.difficultyForTarget(found.share.hashValue || 1n),
          };
          const reply = connection.submit(login, found.share).then(
            (r) => {
              if (r.result !== true) {
                state.rejections.push(JSON.stringify(r.error));
                return state.rejected++;
              }
              state.shares.push(share);
              return state.accepted++;
            },
            (error: unknown) => {
              state.rejections.push(String(error));
              return state.rejected++;
            },
          );
          inFlight.add(reply);
          void reply.finally(() => inFlight.delete(reply));
        }
      }
      // A millisecond's hashes per search call: the clock is read too rarely to cost hashes.
      const perMs = sliceHashes / Math.max(now - sliceStart, 1e-3);
      batch = Math.max(1, Math.min(65_536, Math.round(perMs)));
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const done = run();
  return state;
}

/** Average hashes a block of this target takes: 2^256 ÷ (target + 1). */
function hashesPerBlock(target: bigint): number {
  return Number((1n << 256n) / (target + 1n));
}

describe('solo mining on the demo network', () => {
  it('offers one solo port per algorithm by default, at base + 2', () => {
    const config = loadConfig({});
    const solo = config.stratumListeners.filter((l) => l.kind === 'solo').map((l) => [l.algorithm, l.port]);
    expect(solo).toEqual([
      ['scrypt', 3335],
      ['sha256', 3345],
      ['x11', 3355],
      ['eaglesong', 3365],
      ['blake2s', 3375],
      ['kheavyhash', 3385],
    ]);
    expect(new Set(solo.map(([algorithm]) => algorithm))).toEqual(new Set(ALGORITHM_KEYS));
  });

  it('a CPU miner on each solo port finds a demo block of its own, and its shares are never PPS shares', async () => {
    // The demo network of `npm start`: the default configuration's work, all six algorithms on demo chains.
    const config = loadConfig({});
    work = createStratumWork(config, SILENT_LOG);
    const algorithms = work.map((w) => w.source.algorithm);
    expect(new Set(algorithms)).toEqual(new Set(ALGORITHM_KEYS));
    for (const { source } of work) await source.start();

    // Its start targets are the fleet's: one demo worker per algorithm (6 workers, 3 accounts), a block
    // every DEMO_BLOCK_SECONDS at its hashrate. Compact bits round the target by less than 1%.
    const fleet = fleetAssignments(
      config.demoWorkers,
      config.demoAccounts,
      algorithms.map((algorithm) => ({ algorithm, host: '', port: 0 })),
    );
    const expected = new Map<AlgorithmKey, number>();
    for (const { source } of work) {
      const target = source.current()?.networkTarget;
      if (target === undefined) throw new Error(`no ${source.algorithm} demo job`);
      const workers = fleet.filter((w) => w.target.algorithm === source.algorithm).length;
      const sized = workers * DEFAULT_FLEET_HASHRATE[source.algorithm] * DEMO_BLOCK_SECONDS;
      expect(workers, source.algorithm).toBe(1);
      expect(Math.abs(hashesPerBlock(target) / sized - 1), source.algorithm).toBeLessThan(0.01);
      expected.set(source.algorithm, hashesPerBlock(target));
    }

    harness = await startHarness({
      work,
      flushIntervalMs: 600_000,
      listeners: algorithms.map((algorithm) => ({
        algorithm,
        kind: 'solo' as const,
        // The port's own defaults, as the default listeners have them.
        minDifficulty: undefined,
        startDifficulty: undefined,
      })),
    });
    const h = harness;
    // A block of the algorithm's own demo coin (SCRYPT's solo port also finds DOGE and BELLS blocks).
    const coins = new Map(work.map((w) => [w.source.algorithm, w.source.current()?.coin]));
    const ownBlock = (algorithm: AlgorithmKey) =>
      h.bus.blocks.find((b) => b.algorithm === algorithm && b.account === 'acct' && b.coin === coins.get(algorithm));

    // All six at once: the miners share the one thread (and the pool with them), as CPU miners on one
    // machine share its cores.
    const began = performance.now();
    const cpu = process.cpuUsage();
    const running = await Promise.all(
      algorithms.map((algorithm) => startSoloMiner(algorithm, h.port('solo', algorithm), 'acct.rig1')),
    );
    miners.push(...running);
    const results = new Map<
      AlgorithmKey,
      { seconds: number; hashes: number; searchMs: number; difficulty: number | undefined }
    >();
    // The shares that found no block of the algorithm's coin (a hash below the block's difficulty).
    const ordinary = (miner: SoloMiner) => {
      const blockDifficulty = Number(ownBlock(miner.algorithm)?.networkDifficulty ?? Number.POSITIVE_INFINITY);
      return miner.shares.filter((s) => s.achieved < blockDifficulty);
    };
    const stopping: Promise<void>[] = [];
    const done = new Set<AlgorithmKey>();
    const watch = setInterval(() => {
      for (const miner of running) {
        if (!results.has(miner.algorithm) && ownBlock(miner.algorithm)) {
          results.set(miner.algorithm, {
            seconds: (performance.now() - miner.startedAt) / 1000,
            hashes: miner.hashes,
            searchMs: miner.searchMs,
            difficulty: miner.difficulty,
          });
        }
        // Its block found and an ordinary share accepted (a best share to look at): the miner leaves
        // the thread to the others.
        if (results.has(miner.algorithm) && ordinary(miner).length > 0 && !done.has(miner.algorithm)) {
          done.add(miner.algorithm);
          stopping.push(miner.stop());
        }
      }
    }, 50);
    try {
      await vi.waitFor(() => expect([...done].sort()).toEqual([...algorithms].sort()), {
        timeout: 240_000,
        interval: 200,
      });
    } finally {
      clearInterval(watch);
      for (const algorithm of algorithms) {
        const r = results.get(algorithm);
        const miner = running.find((m) => m.algorithm === algorithm);
        const perBlock = expected.get(algorithm) ?? 0;
        // The rate while hashing (the thread shared with five miners and the pool, and the machine with
        // whatever else runs), and what one miner alone at that rate would wait on average.
        const rate = r ? r.hashes / (r.searchMs / 1000) : 0;
        console.log(
          r
            ? `solo ${algorithm}: block after ${r.seconds.toFixed(1)} s, ${r.hashes} hashes tried in ` +
                `${(r.searchMs / 1000).toFixed(1)} s of hashing (${Math.round(rate)} H/s); ${perBlock} hashes ` +
                `expected per block: ${(perBlock / rate).toFixed(1)} s alone on average; ` +
                `share difficulty then ${r.difficulty}` +
                (miner?.rejected ? `; rejected: ${miner.rejections.join(', ')}` : '')
            : `solo ${algorithm}: no block yet, ${miner?.hashes} hashes (${perBlock} expected per block)`,
        );
      }
      const used = process.cpuUsage(cpu);
      console.log(
        `solo: all six in ${((performance.now() - began) / 1000).toFixed(1)} s, ` +
          `${((used.user + used.system) / 1e6).toFixed(1)} s of CPU`,
      );
    }
    await Promise.all(stopping);

    for (const algorithm of algorithms) {
      expect(ownBlock(algorithm), algorithm).toMatchObject({
        algorithm,
        account: 'acct',
        worker: 'rig1',
        solo: true,
        submitResult: { accepted: true },
      });
      // Nothing refused but, now and then, a share of the job a block had just replaced (its answer
      // crossed the new job): every miner sees those.
      expect(
        running.find((m) => m.algorithm === algorithm)?.rejections.filter((r) => !/stale/i.test(r)),
        algorithm,
      ).toEqual([]);
    }
    // Every block the solo port found (SCRYPT's merge-mined DOGE and BELLS too) is solo, and the finder's.
    expect(h.bus.blocks.every((b) => b.solo === true && b.account === 'acct' && b.worker === 'rig1')).toBe(true);

    // The shares ride the batch's solo list, never the PPS list, with the best difficulty they achieved.
    await h.server.flush();
    expect(h.bus.totals('acct', 'rig1').valid).toBe(0);
    expect(h.bus.batches.every((b) => b.workers.length === 0)).toBe(true);
    for (const miner of running) {
      const { algorithm } = miner;
      const solo = h.bus.batches
        .filter((b) => b.algorithm === algorithm)
        .flatMap((b) => b.soloWorkers ?? [])
        .filter((w) => w.account === 'acct' && w.worker === 'rig1');
      expect(
        solo.reduce((n, w) => n + w.valid, 0),
        algorithm,
      ).toBe(miner.accepted);
      expect(
        solo.reduce((n, w) => n + w.stale + w.invalid, 0),
        algorithm,
      ).toBe(miner.rejected);
      const best = Math.max(...solo.map((w) => w.bestDifficulty ?? 0));
      // At least what every ordinary share achieved, so at least every share difficulty; and no more
      // than some accepted share's hash achieved (the block's share may or may not count as a best).
      const ordinaryShares = ordinary(miner);
      for (const share of ordinaryShares) expect(share.achieved, algorithm).toBeGreaterThanOrEqual(share.difficulty);
      expect(best, algorithm).toBeGreaterThanOrEqual(Math.max(...ordinaryShares.map((s) => s.achieved)));
      expect(best, algorithm).toBeGreaterThanOrEqual(Math.max(...ordinaryShares.map((s) => s.difficulty)));
      expect(best, algorithm).toBeLessThanOrEqual(Math.max(...miner.shares.map((s) => s.achieved)));
    }
  }, 300_000);
});
