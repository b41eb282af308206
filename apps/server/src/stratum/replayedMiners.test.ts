/**
 * Issue 14: real miners lost 99% of their shares to vardiff. These replays mine for two virtual
 * minutes against a real Session, hashing for real, as cpuminer 2.5.1 and cpuminer-opt react to the
 * pool (testing/replayedMiner.ts), on each bitcoin-family algorithm, from the demo port's start.
 */
import { describe, expect, it } from 'vitest';
import { BitcoinDialect } from '../chains/bitcoin/dialect.js';
import { portDifficulty } from './difficulty.js';
import { ExtranonceAllocator } from './extranonce.js';
import { JobManager } from './jobManager.js';
import { SILENT_LOG } from './log.js';
import { NO_METRICS } from './metrics.js';
import { powFor, type StratumAlgorithm } from './pow.js';
import { DEFAULT_SESSION_LIMITS, Session } from './session.js';
import type { ShareOutcome } from './shareAggregator.js';
import { FixtureJobSource } from './testing/fixtureJobs.js';
import { fixtureMergedWork } from './testing/mergedFixture.js';
import { type MinerBehaviour, replayMiner } from './testing/replayedMiner.js';
import { DEFAULT_VARDIFF } from './vardiff.js';

interface Case {
  algorithm: StratumAlgorithm;
  /** Virtual hashrate: chosen so that two minutes take a few seconds of real hashing here. */
  hashrate: number;
  /** Hashes per share at the start (the demo port's 4,096 unless the algorithm is too slow to hash here). */
  startHashes: number;
  /** Jobs merge-mined with two aux chains (SCRYPT's port as a merged-mining pool runs it). */
  merged?: boolean;
}

const CASES: Case[] = [
  { algorithm: 'sha256', hashrate: 10_000, startHashes: 4096 },
  { algorithm: 'x11', hashrate: 2_000, startHashes: 256 },
  { algorithm: 'scrypt', hashrate: 300, startHashes: 64, merged: true },
];
const BEHAVIOURS: MinerBehaviour[] = ['keeps-work-until-header-changes', 'restarts-on-new-job-id'];
const DURATION_MS = 120_000;

async function replay(c: Case, behaviour: MinerBehaviour) {
  const pow = powFor(c.algorithm);
  const clock = { now: Date.UTC(2026, 0, 1) };
  const now = () => clock.now;
  const source = new FixtureJobSource({
    algorithm: c.algorithm,
    now,
    seed: `${c.algorithm}/${behaviour}`,
    ...(c.merged && { merged: fixtureMergedWork() }),
  });
  const jobs = new JobManager(source, { log: SILENT_LOG });
  jobs.start();
  const port = portDifficulty(c.algorithm, 'standard', true, pow, {});
  let credited = 0;
  const shares = {
    record(_algorithm: string, _account: string, _worker: string, outcome: ShareOutcome) {
      if (outcome.kind === 'valid') credited += outcome.difficulty;
    },
    connection: () => undefined,
  };
  const inbox: string[] = [];
  const session = new Session(
    {
      port: {
        algorithm: c.algorithm,
        kind: 'standard',
        port: 3333,
        minDifficulty: port.min,
        maxDifficulty: port.max,
        startDifficulty: c.startHashes / pow.hashesPerDifficulty,
      },
      jobs,
      dialect: new BitcoinDialect(c.algorithm, jobs, new ExtranonceAllocator(0x01020304)),
      shares,
      blocks: { submit() {} },
      authorize: async () => true,
      vardiff: DEFAULT_VARDIFF,
      limits: DEFAULT_SESSION_LIMITS,
      metrics: NO_METRICS,
      log: SILENT_LOG,
      now,
    },
    {
      remoteAddress: '127.0.0.1',
      write: (text) => inbox.push(...text.split('\n').filter((line) => line.length > 0)),
      close: (reason) => {
        throw new Error(`the session closed the connection: ${reason}`);
      },
      setReadPaused() {},
    },
  );
  jobs.onJob((entry, clean) => session.onJob(entry, clean));
  const result = await replayMiner(session, inbox, {
    behaviour,
    pow,
    hashrate: c.hashrate,
    durationMs: DURATION_MS,
    clock,
    source,
    templateRefreshMs: 30_000,
    blockIntervalMs: 100_000,
    login: 'alice.rig1',
  });
  jobs.stop();
  // One share every 10 s (DEFAULT_VARDIFF.targetIntervalMs) at this hashrate.
  const right = (c.hashrate * 10) / pow.hashesPerDifficulty;
  const difficultyAt = (ms: number) => result.difficulties.filter(([t]) => t <= ms).at(-1)?.[1] ?? 0;
  return { result, credited, right, difficultyAt, pow };
}

describe('replayed real miners keep their shares through vardiff', () => {
  for (const c of CASES) {
    for (const behaviour of BEHAVIOURS) {
      it(`${c.algorithm}${c.merged ? ' (merge-mined)' : ''}, a miner that ${behaviour.replaceAll('-', ' ')}`, {
        timeout: 60_000,
      }, async () => {
        const { result, credited, right, difficultyAt, pow } = await replay(c, behaviour);
        // ≥ 99% of honest shares accepted, none refused as a duplicate the pool caused.
        expect(result.submitted).toBeGreaterThan(20);
        expect(result.accepted / result.submitted).toBeGreaterThanOrEqual(0.99);
        expect(result.rejected['Duplicate share'] ?? 0).toBe(0);
        // Vardiff within 2× of the right difficulty after one minute and at the end; no run-away.
        expect(difficultyAt(60_000) / right).toBeGreaterThan(0.5);
        expect(difficultyAt(60_000) / right).toBeLessThan(2);
        expect(difficultyAt(DURATION_MS) / right).toBeGreaterThan(0.5);
        expect(difficultyAt(DURATION_MS) / right).toBeLessThan(2);
        expect(Math.max(...result.difficulties.map(([, d]) => d)) / right).toBeLessThan(4);
        // Credited difficulty is the work done, within four standard deviations of the share lottery:
        // a hash at difficulty D is a share (worth D) with chance 1/(D × hashes per difficulty).
        const expected = result.hashes / pow.hashesPerDifficulty;
        const deviation = Math.sqrt(result.difficultyPerHash / pow.hashesPerDifficulty);
        expect(Math.abs(credited - expected)).toBeLessThan(4 * deviation);
      });
    }
  }
});
