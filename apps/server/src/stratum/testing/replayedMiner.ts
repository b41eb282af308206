/**
 * Replays a real miner's behaviour against one stratum Session on a virtual clock: the miner really
 * hashes (every share is a real header meeting a real target), but time advances by 1/hashrate per
 * hash, so minutes of mining at a chosen hashrate take seconds. What is modelled is how two widely
 * used miners react to the pool's messages, read from their sources and protocol dumps (issue 14):
 *
 * - `keeps-work-until-header-changes` — pooler's cpuminer 2.5.1. `mining.set_difficulty` takes effect
 *   at the next `mining.notify`; the new job becomes the miner's work only when its first 76 header
 *   bytes differ from the work in hand (`memcmp(work.data, g_work.data, 76)` in `miner_thread`),
 *   checked when a scan ends (every 5 s, its default scan time) or at once on clean_jobs; extranonce2
 *   restarts at 0 for a new job id. Until then it goes on submitting the old job id at the old target.
 * - `restarts-on-new-job-id` — cpuminer-opt. Every new job id becomes the work at once, nonces from 0.
 *
 * The job source refreshes the template and finds blocks on the same virtual clock; the session's
 * periodic tick runs every 5 s as the listener's sweep does.
 */

import { buildHeader, hex32, type NotifyJob, parseNotify } from '../client/work.js';
import type { PowFunctions } from '../pow.js';
import type { Session } from '../session.js';
import type { FixtureJobSource } from './fixtureJobs.js';

export type MinerBehaviour = 'keeps-work-until-header-changes' | 'restarts-on-new-job-id';

export interface ReplayOptions {
  behaviour: MinerBehaviour;
  pow: PowFunctions;
  /** Virtual hashes per second. */
  hashrate: number;
  durationMs: number;
  /** The clock the session and source read; the replay moves it. */
  clock: { now: number };
  source: FixtureJobSource;
  templateRefreshMs: number;
  blockIntervalMs: number;
  login: string;
}

interface Work {
  jobId: string;
  job: NotifyJob;
  extranonce2: string;
  header: Buffer;
  difficulty: number;
  target: bigint;
  nonce: number;
}

export interface ReplayResult {
  hashes: number;
  /** Σ over hashes of the difficulty of the work hashed: the variance of the credited work (see below). */
  difficultyPerHash: number;
  submitted: number;
  accepted: number;
  /** Reject messages by text. */
  rejected: Record<string, number>;
  /** Every set_difficulty received: [virtual ms since start, difficulty]. */
  difficulties: [number, number][];
}

const SCAN_TIME_MS = 5_000;
const TICK_MS = 5_000;

export async function replayMiner(session: Session, inbox: string[], options: ReplayOptions): Promise<ReplayResult> {
  const { pow, clock } = options;
  const start = clock.now;
  const end = start + options.durationMs;
  const result: ReplayResult = {
    hashes: 0,
    difficultyPerHash: 0,
    submitted: 0,
    accepted: 0,
    rejected: {},
    difficulties: [],
  };
  let extranonce1 = '';
  let extranonce2Size = 0;
  let nextDifficulty = 1;
  let latest: { job: NotifyJob; difficulty: number } | undefined;
  let work: Work | undefined;
  let switchNow = false;
  let nextScanEnd = start + SCAN_TIME_MS;
  let nextTick = start + TICK_MS;
  let nextRefresh = start + options.templateRefreshMs;
  let nextBlock = start + options.blockIntervalMs;
  let requestId = 10;
  const pending = new Map<number, true>();

  const workFor = (job: NotifyJob, difficulty: number): Work => {
    const extranonce2 = '00'.repeat(extranonce2Size);
    return {
      jobId: job.jobId,
      job,
      extranonce2,
      header: buildHeader(job, extranonce1, extranonce2, job.ntime, 0, job.version),
      difficulty,
      target: pow.targetForDifficulty(difficulty),
      nonce: 0,
    };
  };

  const takeLatest = () => {
    if (!latest) return;
    const candidate = workFor(latest.job, latest.difficulty);
    if (options.behaviour === 'restarts-on-new-job-id') {
      if (!work || work.jobId !== candidate.jobId) work = candidate;
      return;
    }
    // cpuminer 2.5.1: only a header that differs in its first 76 bytes replaces the work in hand.
    if (!work || candidate.header.compare(work.header, 0, 76, 0, 76) !== 0) work = candidate;
  };

  /** Reads what the session wrote; returns after every line is handled. */
  const drain = () => {
    for (let line = inbox.shift(); line !== undefined; line = inbox.shift()) {
      const message = JSON.parse(line) as {
        id: number | null;
        method?: string;
        params?: unknown[];
        result?: unknown;
        error?: unknown;
      };
      if (message.method === 'mining.set_difficulty') {
        nextDifficulty = message.params?.[0] as number;
        result.difficulties.push([clock.now - start, nextDifficulty]);
      } else if (message.method === 'mining.notify') {
        const job = parseNotify(message.params);
        latest = { job, difficulty: nextDifficulty };
        if (options.behaviour === 'restarts-on-new-job-id') takeLatest();
        else if (job.cleanJobs || !work) switchNow = true;
      } else if (message.id === 1 && Array.isArray(message.result)) {
        extranonce1 = message.result[1] as string;
        extranonce2Size = message.result[2] as number;
      } else if (typeof message.id === 'number' && pending.delete(message.id)) {
        if (message.result === true) result.accepted++;
        else {
          const text = Array.isArray(message.error) ? String(message.error[1]) : 'no answer';
          result.rejected[text] = (result.rejected[text] ?? 0) + 1;
        }
      }
    }
  };

  session.receive(JSON.stringify({ id: 1, method: 'mining.subscribe', params: ['replayed-miner/1.0'] }));
  session.receive(JSON.stringify({ id: 2, method: 'mining.authorize', params: [options.login, 'x'] }));
  // Authorization awaits the accounts check: let it finish.
  await new Promise((resolve) => setImmediate(resolve));
  drain();

  const msPerHash = 1000 / options.hashrate;
  while (clock.now < end) {
    if (clock.now >= nextBlock) {
      nextBlock += options.blockIntervalMs;
      nextRefresh = clock.now + options.templateRefreshMs;
      options.source.newBlock();
    } else if (clock.now >= nextRefresh) {
      nextRefresh += options.templateRefreshMs;
      options.source.nextJob();
    }
    if (clock.now >= nextTick) {
      nextTick += TICK_MS;
      session.tick(clock.now);
    }
    drain();
    if (clock.now >= nextScanEnd) {
      nextScanEnd += SCAN_TIME_MS;
      switchNow = true;
    }
    if (switchNow) {
      switchNow = false;
      takeLatest();
    }
    if (!work) throw new Error('the session sent no job');
    work.header.writeUInt32LE(work.nonce, 76);
    const value = pow.hashValue(pow.hash(work.header));
    result.hashes++;
    result.difficultyPerHash += work.difficulty;
    if (value <= work.target) {
      const id = ++requestId;
      pending.set(id, true);
      result.submitted++;
      session.receive(
        JSON.stringify({
          id,
          method: 'mining.submit',
          params: [options.login, work.jobId, work.extranonce2, hex32(work.job.ntime), hex32(work.nonce)],
        }),
      );
    }
    work.nonce = (work.nonce + 1) >>> 0;
    clock.now += msPerHash;
  }
  drain();
  return result;
}
