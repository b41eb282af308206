import type { CkbJob, CkbJsonBlock } from '@lodestone/chain';
import type { Dialect, DialectConnection, DialectContext, MethodOutcome } from '../../stratum/dialects/dialect.js';
import {
  type DialectVerdict,
  malformedShare,
  type NewDifficulty,
  type SentJobs,
} from '../../stratum/dialects/dialect.js';
import { NO_NONCE_SPACE, PrefixedConnection, SessionNonce } from '../../stratum/dialects/sessionNonce.js';
import { credited, liveJob, refused } from '../../stratum/dialects/shares.js';
import { ExtranonceAllocator } from '../../stratum/extranonce.js';
import type { JobEntry, JobManager } from '../../stratum/jobManager.js';
import { type PowFunctions, powFor } from '../../stratum/pow.js';
import { notificationLine, shortString } from '../../stratum/protocol.js';
import { shareCredit, shareKey } from '../../stratum/validate.js';

/**
 * Nervos CKB's stratum, as BTC.com's btcpool and ViaBTC speak it and `ckbminer-v1.0.0` expects it
 * (btccom/btcpool-ABANDONED src/ckb/StratumSessionCkb.cc and StratumMinerCkb.cc; leifjacky/ckb-gominer-demo
 * README.md):
 *
 * - `mining.subscribe ["ckbminer-v1.0.0", null]` (a 4-parameter form adds the pool's host and port) →
 *   `[null, "<nonce1: 4 bytes hex>", 12]`: the miner owns the 12 nonce bytes after nonce1;
 * - `mining.set_target ["<target, 64 hex digits big-endian>"]`, always written right before the job it
 *   applies to (ckb-gominer applies a target to the work in hand at once);
 * - `mining.notify [jobId, pow_hash, height, parent_hash, clean]`, hashes without 0x;
 * - `mining.submit [user, jobId, nonce2]`, nonce2 = 24 hex digits. The 16 nonce bytes are nonce1 ‖ nonce2
 *   as written; Eaglesong(pow_hash ‖ those bytes) read big-endian is the share's hash value, and the
 *   header's u128 nonce is the same bytes read little-endian (CkbJob.block).
 */

/** Bytes of the nonce the miner chooses (CKB nonces are 16 bytes; nonce1 takes the first 4). */
export const CKB_NONCE2_SIZE = 12;

const NONCE2 = new RegExp(`^[0-9a-fA-F]{${CKB_NONCE2_SIZE * 2}}$`);
const BAD_NONCE2 = `Invalid nonce2 (expected ${CKB_NONCE2_SIZE * 2} hex digits: ${CKB_NONCE2_SIZE} bytes)`;

const notifyTails = new WeakMap<CkbJob, string>();

/** `mining.notify [jobId, pow_hash, height, parent_hash, clean]`; the middle is serialized once per job. */
export function ckbNotifyLine(jobId: string, job: CkbJob, cleanJobs: boolean): string {
  let tail = notifyTails.get(job);
  if (tail === undefined) {
    tail = JSON.stringify([Buffer.from(job.powHash).toString('hex'), job.height, job.parentHash.replace(/^0x/, '')])
      .slice(1, -1)
      .toLowerCase();
    notifyTails.set(job, tail);
  }
  return `{"id":null,"method":"mining.notify","params":[${JSON.stringify(jobId)},${tail},${cleanJobs}]}\n`;
}

/** `mining.set_target ["<64 hex digits>"]`: the share target as a big-endian 256-bit number. */
export function ckbSetTargetLine(target: bigint): string {
  return notificationLine('mining.set_target', [target.toString(16).padStart(64, '0')]);
}

/** The CKB dialect over the Eaglesong job manager (a CkbJobSource's jobs). */
export class CkbDialect implements Dialect<CkbJob> {
  readonly algorithm = 'eaglesong' as const;
  readonly pow: PowFunctions = powFor('eaglesong');

  constructor(
    private readonly jobs: JobManager<CkbJob, CkbJsonBlock>,
    private readonly nonces: ExtranonceAllocator = new ExtranonceAllocator(),
  ) {}

  connect(context: DialectContext): DialectConnection<CkbJob> {
    return new CkbConnection(context, this.jobs.source, this.pow, new SessionNonce(this.nonces));
  }
}

class CkbConnection extends PrefixedConnection<CkbJob, CkbJsonBlock> implements DialectConnection<CkbJob> {
  /**
   * Any parameters: the agent and the 4-parameter form's host and port only describe the miner (btcpool
   * reads the agent and ignores the rest). Subscribing again answers the same nonce1.
   */
  subscribe(): MethodOutcome {
    const nonce1 = this.prefix.claim(this.context);
    return nonce1 ? { result: [null, nonce1.hex, CKB_NONCE2_SIZE] } : NO_NONCE_SPACE;
  }

  /** mining.extranonce.subscribe: nonce1 never changes during a connection, so there is nothing to follow. */
  method(name: string): MethodOutcome | undefined {
    if (name === 'mining.extranonce.subscribe') return { result: true };
    return undefined;
  }

  /**
   * Never: a CKB job is one pow_hash, so the same job under a new id is the same work, and a miner that
   * restarts its nonce2 counter on every job (ckb-gominer does) would hash the nonces it already sent and
   * see its shares refused as duplicates. A new difficulty rides on the next job instead: CKB nodes give a
   * new tip about every 10 s and the job source refreshes the template at most every 10 s.
   */
  canResend(): boolean {
    return false;
  }

  jobLines(
    jobId: string,
    entry: JobEntry<CkbJob>,
    cleanJobs: boolean,
    difficulty: NewDifficulty | undefined,
  ): string | undefined {
    if (!this.prefix.value) return undefined;
    const target = difficulty ? ckbSetTargetLine(difficulty.target) : '';
    return target + ckbNotifyLine(jobId, entry.job, cleanJobs);
  }

  /**
   * `[user, jobId, nonce2]`, checked in this order: nonce2 a string (else the line is malformed), the job
   * known and of the current parent, nonce2 of 12 hex bytes, not seen before for the job (the key covers
   * all 16 nonce bytes), Eaglesong meets the share target or the network's. Extra parameters are ignored,
   * as btcpool does.
   */
  checkShare(jobs: SentJobs<CkbJob>, jobId: number, params: readonly unknown[]): DialectVerdict<CkbJob> {
    const nonce1 = this.prefix.subscribed;
    const nonce2Text = params[2];
    if (!shortString(nonce2Text)) return malformedShare('nonce2 must be a string of hex digits');
    const live = liveJob(jobs, jobId);
    if ('refusal' in live) return live.refusal;
    const { issued } = live;
    if (!NONCE2.test(nonce2Text)) return refused('bad-extranonce2', { message: BAD_NONCE2 });

    const nonce2 = nonce2Text.toLowerCase();
    const key = shareKey(nonce1.hex, nonce2, 0, 0, 0);
    if (issued.entry.seen.has(key)) return refused('duplicate');

    const job = issued.entry.job;
    const nonce16 = Buffer.from(nonce1.hex + nonce2, 'hex');
    const value = this.pow.hashValue(this.pow.hash(job.powMessage(nonce16)));
    const credit = shareCredit(value, issued, job.networkTarget, this.pow);
    if (!credit) return refused('low-difficulty', { issued, key });
    const { source } = this;
    return credited(issued, key, credit, () => ({
      job,
      hash: job.blockHash(nonce16),
      submit: () => source.submitBlock(job, job.block(nonce16)),
    }));
  }
}
