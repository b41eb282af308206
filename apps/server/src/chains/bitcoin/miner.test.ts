/**
 * The bitcoin-family miner dialect against a real Session (the server's bitcoin dialect, job manager
 * and share check), line by line: what it mines is what the pool credits.
 */
import { describe, expect, it } from 'vitest';
import type { MinerDialect } from '../../stratum/client/minerDialect.js';
import type { SolvedBlock } from '../../stratum/dialects/dialect.js';
import { ExtranonceAllocator } from '../../stratum/extranonce.js';
import { JobManager } from '../../stratum/jobManager.js';
import { SILENT_LOG } from '../../stratum/log.js';
import { NO_METRICS } from '../../stratum/metrics.js';
import { MAX_TARGET, powFor, type StratumAlgorithm } from '../../stratum/pow.js';
import { DEFAULT_SESSION_LIMITS, Session } from '../../stratum/session.js';
import type { ShareOutcome } from '../../stratum/shareAggregator.js';
import { FixtureJobSource } from '../../stratum/testing/fixtureJobs.js';
import { DEFAULT_VARDIFF } from '../../stratum/vardiff.js';
import { minerDialectFor } from '../registry.js';
import { BitcoinDialect } from './dialect.js';
import { BitcoinMiner } from './miner.js';

interface Reply {
  id: number;
  result: unknown;
  error: unknown;
}

/** A real Session over a fixture source, its written lines fed to a BitcoinMiner. */
function connect(algorithm: StratumAlgorithm, options: { difficulty: number; networkTarget?: bigint }) {
  const pow = powFor(algorithm);
  const source = new FixtureJobSource({ algorithm, networkTarget: options.networkTarget });
  const jobs = new JobManager(source, { log: SILENT_LOG });
  jobs.start();
  const outcomes: ShareOutcome[] = [];
  const blocks: SolvedBlock[] = [];
  const written: string[] = [];
  const { difficulty } = options;
  const session = new Session(
    {
      port: {
        algorithm,
        kind: 'standard',
        port: 3333,
        minDifficulty: difficulty,
        maxDifficulty: difficulty,
        startDifficulty: difficulty,
      },
      jobs,
      dialect: new BitcoinDialect(algorithm, jobs, new ExtranonceAllocator(0x0a0b0c0d)),
      shares: { record: (_a, _acc, _w, outcome) => outcomes.push(outcome), connection: () => undefined },
      blocks: { submit: ({ block }) => blocks.push(block) },
      authorize: async () => true,
      vardiff: DEFAULT_VARDIFF,
      limits: DEFAULT_SESSION_LIMITS,
      metrics: NO_METRICS,
      log: SILENT_LOG,
      now: () => Date.now(),
    },
    {
      remoteAddress: '127.0.0.1',
      write: (text) => written.push(...text.split('\n').filter((line) => line.length > 0)),
      close: (reason) => {
        throw new Error(`the session closed the connection: ${reason}`);
      },
      setReadPaused() {},
    },
  );
  jobs.onJob((entry, clean) => session.onJob(entry, clean));
  const miner: MinerDialect = new BitcoinMiner(algorithm);
  let nextId = 1;
  const replies = new Map<number, Reply>();
  /** Hands the miner every notification written so far, keeps the replies. */
  const read = () => {
    for (const line of written.splice(0)) {
      const message = JSON.parse(line) as Reply & { method?: string; params?: unknown[] };
      if (typeof message.method === 'string') miner.notification(message.method, message.params ?? [], line);
      else replies.set(message.id, message);
    }
  };
  const request = async (method: string, params: unknown[]): Promise<Reply> => {
    const id = nextId++;
    session.receive(JSON.stringify({ id, method, params }));
    for (let i = 0; i < 100 && !replies.has(id); i++) {
      await new Promise((resolve) => setImmediate(resolve));
      read();
    }
    const reply = replies.get(id);
    if (!reply) throw new Error(`${method}: no answer`);
    return reply;
  };
  const login = async () => {
    miner.subscribed((await request('mining.subscribe', miner.subscribeParams('bitcoin-miner-test/1.0'))).result);
    expect((await request('mining.authorize', ['alice.rig1', 'x'])).result).toBe(true);
    read();
  };
  const submit = (share: { jobId: string; params: unknown[] }) =>
    request('mining.submit', ['alice.rig1', share.jobId, ...share.params]);
  return { source, jobs, miner, outcomes, blocks, login, submit, read, pow };
}

describe('the bitcoin-family miner dialect', () => {
  for (const [algorithm, startHashes] of [
    ['sha256', 4096],
    ['x11', 256],
    ['scrypt', 64],
  ] as const) {
    it(`${algorithm}: mines shares a real session accepts at the difficulty it was sent`, async () => {
      const difficulty = startHashes / powFor(algorithm).hashesPerDifficulty;
      const c = connect(algorithm, { difficulty });
      expect(c.miner.ready).toBe(false);
      await c.login();
      expect(c.miner.ready).toBe(true);
      expect(c.miner.difficulty).toBe(difficulty);
      expect(c.miner.jobId).toBeDefined();
      let hashes = 0;
      for (let shares = 0; shares < 3; ) {
        const found = c.miner.search(startHashes);
        hashes += found.hashes;
        if (!found.share) continue;
        expect(found.share.hashValue <= c.pow.targetForDifficulty(difficulty)).toBe(true);
        const reply = await c.submit(found.share);
        expect(reply.error).toBeNull();
        expect(reply.result).toBe(true);
        shares++;
      }
      // The search goes on where it stopped: three shares, three different headers, none a duplicate.
      expect(c.outcomes).toEqual(Array(3).fill({ kind: 'valid', difficulty }));
      expect(hashes).toBeGreaterThanOrEqual(3);
      c.jobs.stop();
    });
  }

  it('finds a hash the session refuses as low difficulty when asked to miss', async () => {
    const c = connect('sha256', { difficulty: 4096 / 2 ** 32 });
    await c.login();
    const found = c.miner.search(100, true);
    expect(found.share).toBeDefined();
    const reply = await c.submit(found.share as NonNullable<typeof found.share>);
    expect(reply.result).not.toBe(true);
    expect(reply.error).toEqual([23, 'Low difficulty share', null]);
    expect(c.outcomes).toEqual([{ kind: 'invalid', reason: 'low-difficulty' }]);
    c.jobs.stop();
  });

  it('follows new jobs; a share of the job that was current is a block the source accepts', async () => {
    // Every hash meets the share target and the network target.
    const difficulty = powFor('sha256').difficultyForTarget(MAX_TARGET);
    const c = connect('sha256', { difficulty, networkTarget: MAX_TARGET });
    await c.login();
    const first = c.miner.jobId;
    c.source.newBlock();
    c.read();
    expect(c.miner.jobId).not.toBe(first);
    const found = c.miner.search(10);
    expect(found.hashes).toBe(1);
    expect((await c.submit(found.share as NonNullable<typeof found.share>)).result).toBe(true);
    expect(c.blocks).toHaveLength(1);
    expect((await c.blocks[0]?.submit())?.accepted).toBe(true);
    expect(c.source.submitted).toHaveLength(1);
    c.jobs.stop();
  });

  it('applies a new difficulty with the next job, as cpuminer does', () => {
    const miner: MinerDialect = new BitcoinMiner('sha256');
    miner.subscribed([[['mining.notify', '01']], '0a0b0c0d', 4]);
    miner.notification('mining.set_difficulty', [8], '');
    const job = new FixtureJobSource({ algorithm: 'sha256' }).current();
    if (!job) throw new Error('no job');
    const notify = ['1', job.prevHashNotify, job.coinbase1, job.coinbase2, job.merkleBranch, '20000000', job.bits];
    miner.notification('mining.notify', [...notify, '6553f100', true], '');
    expect(miner.difficulty).toBe(8);
    miner.notification('mining.set_difficulty', [2], '');
    expect(miner.difficulty).toBe(8);
    miner.notification('mining.notify', ['2', ...notify.slice(1), '6553f101', false], '');
    expect(miner.difficulty).toBe(2);
    expect(miner.jobId).toBe('2');
  });

  it('takes a new nonce space from mining.set_extranonce and refuses what it cannot read', () => {
    const miner: MinerDialect = new BitcoinMiner('sha256');
    expect(() => miner.subscribed({ error: 'x' })).toThrow();
    expect(() => miner.subscribed([null, 'zz', 4])).toThrow();
    expect(() => miner.subscribed([null, '0a0b0c0d', 0])).toThrow();
    miner.subscribed([null, '0a0b0c0d', 4]);
    miner.notification('mining.set_extranonce', ['01020304', 2], '');
    expect(() => miner.notification('mining.set_extranonce', ['01020304', 'x'], '')).toThrow();
    expect(() => miner.notification('mining.set_difficulty', [-1], '')).toThrow();
    expect(() => miner.notification('mining.notify', ['1', 'zz'], '')).toThrow();
    miner.notification('client.show_message', ['hello'], '');
    expect(miner.ready).toBe(false);
    expect(miner.search(100)).toEqual({ hashes: 0, share: undefined });
  });

  it('is the registry’s dialect for the bitcoin family', () => {
    for (const algorithm of ['sha256', 'scrypt', 'x11'] as const) {
      const miner = minerDialectFor(algorithm);
      expect(miner).toBeInstanceOf(BitcoinMiner);
      expect(minerDialectFor(algorithm)).not.toBe(miner);
    }
  });
});
