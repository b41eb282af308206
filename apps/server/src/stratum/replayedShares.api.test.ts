/**
 * A share is credited once, whatever job id it is sent under. A source hands out the same work under a
 * new job id — a daemon's template refresh when only its clock moved, an unchanged template published
 * again, Kadena's work re-issued — and a miner that re-sends each accepted share under every later job
 * id of the block must get "duplicate" for every re-send and no extra credit, on all six algorithms,
 * over TCP through each algorithm's miner dialect.
 */
import type { AlgorithmKey } from '@lodestone/domain';
import { POW } from '@lodestone/pow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bitcoinWork } from '../chains/bitcoin/index.js';
import { ckbWork } from '../chains/ckb/index.js';
import { CkbFixtureSource } from '../chains/ckb/testing.js';
import { kadenaWork } from '../chains/kadena/index.js';
import { KadenaFixtureSource, kadenaFixtureJob } from '../chains/kadena/testing.js';
import { kaspaWork } from '../chains/kaspa/index.js';
import { KaspaFixtureSource } from '../chains/kaspa/testing.js';
import { minerDialectFor } from '../chains/registry.js';
import { MinerConnection } from './client/minerConnection.js';
import type { MinerSearch } from './client/minerDialect.js';
import { SILENT_LOG } from './log.js';
import { StratumError } from './protocol.js';
import { type StratumServer, startStratum } from './startStratum.js';
import { FixtureJobSource } from './testing/fixtureJobs.js';
import { RecordingBus } from './testing/harness.js';
import type { StratumWork } from './work.js';

type Share = NonNullable<MinerSearch['share']>;

const LOGIN = 'alice.rig1';
/** How long a test waits on the sockets (node stand-in, pool, miner, bus), and how often it looks. */
const overTheWire = { timeout: 20_000, interval: 20 };
const HONEST_SHARES = 4;
const LATER_JOBS = 3;

/** A source of `algorithm` and how it hands out its current work again under a new job id. */
interface ReplayCase {
  algorithm: AlgorithmKey;
  work: StratumWork;
  sameWork(): void;
}

function replayCase(algorithm: AlgorithmKey): ReplayCase {
  switch (algorithm) {
    case 'sha256':
    case 'scrypt':
    case 'x11': {
      const source = new FixtureJobSource({ algorithm });
      // The daemon's clock moved 30 s and nothing else did: a refresh with the same coinbase and branch.
      return { algorithm, work: bitcoinWork(source), sameWork: () => source.refresh(30) };
    }
    case 'eaglesong': {
      const source = new CkbFixtureSource();
      return { algorithm, work: ckbWork(source), sameWork: () => source.reissue() };
    }
    case 'kheavyhash': {
      const source = new KaspaFixtureSource({ now: Date.now });
      return { algorithm, work: kaspaWork(source), sameWork: () => source.reissue() };
    }
    case 'blake2s': {
      const source = new KadenaFixtureSource();
      let next = 0;
      source.publish(kadenaFixtureJob(0, { clock: { now: Date.now() }, id: () => (++next).toString(16) }));
      return {
        algorithm,
        work: kadenaWork(source),
        sameWork: () => {
          const job = source.current();
          if (job) source.publish(job.withCreationTime(job.creationTime));
        },
      };
    }
  }
}

let server: StratumServer | undefined;
let connection: MinerConnection | undefined;

afterEach(async () => {
  connection?.destroy();
  connection = undefined;
  await server?.stop();
  server = undefined;
});

describe('a share re-sent under later job ids of the same work', () => {
  const algorithms: AlgorithmKey[] = ['sha256', 'scrypt', 'x11', 'eaglesong', 'kheavyhash', 'blake2s'];
  it.each(algorithms)('%s: every re-send is a duplicate and credits nothing', async (algorithm) => {
    const { work, sameWork } = replayCase(algorithm);
    // One hash in 16 meets the share target: shares in microseconds, never a block at these sources' targets.
    const difficulty = POW[algorithm].difficultyForTarget(1n << 252n);
    const bus = new RecordingBus();
    server = await startStratum({
      node: 'replay-test',
      listeners: [
        {
          algorithm,
          host: '127.0.0.1',
          port: 0,
          kind: 'standard',
          minDifficulty: difficulty,
          startDifficulty: difficulty,
          maxDifficulty: difficulty,
        },
      ],
      work: [work],
      bus,
      log: SILENT_LOG,
      flushIntervalMs: 60_000,
    });
    const miner = minerDialectFor(algorithm);
    if (!miner) throw new Error(`no miner dialect for ${algorithm}`);
    connection = await MinerConnection.open({ host: '127.0.0.1', port: server.listeners[0]?.port ?? 0 }, miner);
    const mining = connection;
    await mining.subscribe('replay-test/1.0');
    await mining.authorize(LOGIN);
    await mining.ready(5000);

    const accepted: Share[] = [];
    while (accepted.length < HONEST_SHARES) {
      const { share } = mining.miner.search(1000);
      if (!share) continue;
      const reply = await mining.submit(LOGIN, share);
      expect(reply.error).toBeNull();
      accepted.push(share);
    }

    const laterJobs: string[] = [];
    for (let i = 0; i < LATER_JOBS; i++) {
      const before = mining.miner.jobId;
      sameWork();
      const next = await vi.waitFor(() => {
        const jobId = mining.miner.jobId;
        expect(jobId, 'a job').toBeDefined();
        expect(jobId, 'a job').not.toBe(before);
        return jobId as string;
      }, overTheWire);
      laterJobs.push(next);
    }
    for (const share of accepted) {
      for (const jobId of laterJobs) {
        const reply = await mining.submit(LOGIN, { ...share, jobId });
        expect(reply.result, `a share of job ${share.jobId} re-sent under job ${jobId}`).not.toBe(true);
        expect(reply.error?.[0]).toBe(StratumError.Duplicate);
      }
    }

    await server.flush();
    expect(bus.totals('alice', 'rig1')).toEqual({
      acceptedDifficulty: HONEST_SHARES * difficulty,
      valid: HONEST_SHARES,
      invalid: HONEST_SHARES * LATER_JOBS,
      stale: 0,
      rejectReasons: { duplicate: HONEST_SHARES * LATER_JOBS },
    });
  });
});
