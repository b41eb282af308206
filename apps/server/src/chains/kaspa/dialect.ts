import type { KaspaBlockSubmission, KaspaJob } from '@lodestone/chain';
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
import type { Issued } from '../../stratum/issuedJobs.js';
import type { JobEntry, JobManager } from '../../stratum/jobManager.js';
import { type PowFunctions, powFor } from '../../stratum/pow.js';
import { notificationLine, shortString } from '../../stratum/protocol.js';
import { shareCredit, shareKey } from '../../stratum/validate.js';
import { classifyKaspaMiner, type KaspaMinerProfile } from './minerProfiles.js';

/**
 * Kaspa (kHeavyHash), as kaspanet/rusty-kaspa's stratum bridge speaks it (bridge/src/default_client.rs,
 * client_handler.rs, hasher.rs, share_handler.rs @593399e), per miner class (minerProfiles.ts):
 *
 * - subscribe: `[true, "EthereumStratum/1.0.0"]`, or Bitmain's `[null, extranonce, 8 − len]`;
 * - right after authorize, in one write: mining.set_extranonce, mining.set_difficulty `[d]` (difficulty
 *   1 = target 2^224 − 1), the first job (IceRiver hangs up when the job does not come at once);
 * - jobs: decimal job ids; the big job `[id, "<pre_pow_hash hex><timestamp u64 LE hex>"]` or the legacy
 *   `[id, [four u64 LE words of pre_pow_hash], timestamp]` with integers above 2^53, written by hand;
 * - submit `[worker, jobId, nonce]`, or lolMiner's `[worker, jobId, extranonce2, ntime, nonce]`: the
 *   nonce is hex (optional 0x), a u64 read big-endian whose high 2 bytes are the session's extranonce;
 *   a nonce of at most 12 digits is the miner's part and is completed as extranonce ‖ zero-padded
 *   nonce (share_handler.rs). Unlike the bridge, a full nonce with another session's extranonce is
 *   refused, so that two sessions cannot be credited for the same nonce space;
 * - the share: kHeavyHash of pre_pow_hash ‖ timestamp ‖ 32 zero bytes ‖ nonce, read little-endian, at
 *   most the session target (≤ the block's target: a block, submitted as the template with the nonce);
 *   a share of a job more than KASPA_STALE_DAA behind the newest is stale.
 *   A low share of an ASIC is tried against a few earlier jobs of the session, as the bridge does for
 *   IceRiver and Bitmain firmware that names the wrong job.
 */
export class KaspaDialect implements Dialect<KaspaJob> {
  readonly algorithm = 'kheavyhash' as const;
  readonly pow: PowFunctions = powFor('kheavyhash');

  constructor(
    private readonly jobs: JobManager<KaspaJob, KaspaBlockSubmission>,
    private readonly extranonces: ExtranonceAllocator = new ExtranonceAllocator(undefined, 2),
  ) {
    if (extranonces.width !== EXTRANONCE_SIZE) throw new Error('Kaspa sessions take 2-byte extranonces');
  }

  connect(context: DialectContext): DialectConnection<KaspaJob> {
    return new KaspaConnection(context, this.jobs.source, this.pow, new SessionNonce(this.extranonces));
  }
}

const EXTRANONCE_SIZE = 2;
/** Nonce bytes the miner chooses. */
const MINER_NONCE_SIZE = 8 - EXTRANONCE_SIZE;
/**
 * How far behind the newest job (in DAA score) a share's job may be and still be paid. Older jobs of
 * the same work epoch stay valid (KaspaJobSource: at 10 blocks a second every job has new parents);
 * 50 DAA scores is 5 s on mainnet, far above an honest miner's switch to new work and well inside
 * GHOSTDAG's k = 124, so that a block from such a share would still be blue.
 */
export const KASPA_STALE_DAA = 50n;
/** Earlier jobs a low ASIC share is tried against (the bridge walks its whole 300-job ring). */
export const KASPA_JOB_RETRIES = 4;
const NONCE_HEX = /^(?:0[xX])?([0-9a-fA-F]{1,16})$/;

/** The job's part of a notify line, cached per job and form (the job id goes in front). */
const bigJobs = new WeakMap<KaspaJob, string>();
const legacyJobs = new WeakMap<KaspaJob, string>();

/** `"<64-hex pre_pow_hash><16-hex timestamp u64 LE>"` (hasher.rs generate_iceriver_job_params). */
export function bigJobData(job: KaspaJob): string {
  let data = bigJobs.get(job);
  if (data === undefined) {
    const timestamp = Buffer.alloc(8);
    timestamp.writeBigUInt64LE(job.timestamp);
    data = `"${Buffer.from(job.prePowHash).toString('hex')}${timestamp.toString('hex')}"`;
    bigJobs.set(job, data);
  }
  return data;
}

/**
 * `[w0,w1,w2,w3],timestamp`: pre_pow_hash as four u64 read little-endian and the timestamp, as bare
 * JSON integers (hasher.rs generate_job_header). They exceed 2^53, so they are written as text.
 */
export function legacyJobData(job: KaspaJob): string {
  let data = legacyJobs.get(job);
  if (data === undefined) {
    const hash = Buffer.from(job.prePowHash);
    const words = [0, 8, 16, 24].map((offset) => hash.readBigUInt64LE(offset).toString());
    data = `[${words.join(',')}],${job.timestamp.toString()}`;
    legacyJobs.set(job, data);
  }
  return data;
}

/** A notification line; IceRiver's carry no `id` member (client_handler.rs send_notification). */
function notification(profile: KaspaMinerProfile, method: string, paramsText: string): string {
  return profile.bareNotifications
    ? `{"method":"${method}","params":[${paramsText}]}\n`
    : `{"id":null,"method":"${method}","params":[${paramsText}]}\n`;
}

class KaspaConnection
  extends PrefixedConnection<KaspaJob, KaspaBlockSubmission>
  implements DialectConnection<KaspaJob>
{
  /** Until subscribe names the miner, difficulties are shaped as for an ASIC (see shapeDifficulty). */
  private profile: KaspaMinerProfile | undefined;
  private extranonceSent = false;

  subscribe(params: readonly unknown[]): MethodOutcome {
    const extranonce = this.prefix.claim(this.context);
    if (!extranonce) return NO_NONCE_SPACE;
    this.profile ??= classifyKaspaMiner(params[0]);
    if (this.profile.class === 'bitmain') return { result: [null, extranonce.hex, MINER_NONCE_SIZE] };
    return { result: [true, 'EthereumStratum/1.0.0'] };
  }

  method(name: string): MethodOutcome | undefined {
    // NiceHash-style extranonce subscription: the extranonce never changes, but the bridge says yes.
    if (name === 'mining.extranonce.subscribe') return { result: true };
    return undefined;
  }

  /**
   * IceRiver and Bitmain firmware take only powers of two (rdugan/kaspa-stratum-bridge README;
   * share_handler.rs `pow2_clamp`): the nearest in log scale, kept within the port's bounds. Before
   * subscribe the class is unknown and the session's starting difficulty is shaped the same way (a
   * power of two suits every miner); after it, other miners get vardiff's difficulty as it is.
   */
  override shapeDifficulty(difficulty: number): number {
    if (this.profile && !this.profile.asic) return difficulty;
    if (!(difficulty > 0) || !Number.isFinite(difficulty)) return difficulty;
    const { minDifficulty, maxDifficulty } = this.context.port;
    let shaped = 2 ** Math.round(Math.log2(difficulty));
    while (shaped > maxDifficulty && shaped / 2 >= minDifficulty) shaped /= 2;
    while (shaped < minDifficulty) shaped *= 2;
    return shaped;
  }

  override jobId(id: number): string {
    return id.toString(10);
  }

  override parseJobId(text: string): number {
    return /^[0-9]{1,15}$/.test(text) ? Number(text) : 0;
  }

  jobLines(
    jobId: string,
    entry: JobEntry<KaspaJob>,
    _cleanJobs: boolean,
    difficulty: NewDifficulty | undefined,
  ): string | undefined {
    const { profile } = this;
    const extranonce = this.prefix.value;
    if (!extranonce || !profile) return undefined;
    let lines = '';
    if (!this.extranonceSent) {
      // Bitmain also hears how many nonce bytes are its own (default_client.rs send_extranonce).
      const params = profile.class === 'bitmain' ? `"${extranonce.hex}",${MINER_NONCE_SIZE}` : `"${extranonce.hex}"`;
      lines += notification(profile, 'mining.set_extranonce', params);
      this.extranonceSent = true;
    }
    if (difficulty) lines += notificationLine('mining.set_difficulty', [difficulty.difficulty]);
    const data = profile.bigJob ? bigJobData(entry.job) : legacyJobData(entry.job);
    return lines + notification(profile, 'mining.notify', `${JSON.stringify(jobId)},${data}`);
  }

  /**
   * A Kaspa job cannot be made to differ when re-sent (the template's timestamp is hashed and kept in
   * the block), and miners restart their nonces on a new job id: a re-sent job would only produce
   * duplicates. A new difficulty goes out with the next job (about every second on mainnet).
   */
  canResend(): boolean {
    return false;
  }

  checkShare(
    jobs: SentJobs<KaspaJob>,
    jobId: number,
    params: readonly unknown[],
    _now: number,
  ): DialectVerdict<KaspaJob> {
    const extranonce = this.prefix.subscribed;
    // Three parameters from ASICs, five from lolMiner-style miners (the nonce last).
    if (params.length < 3) return malformedShare('expected [worker, job id, nonce]');
    const text = params.length >= 5 ? params[4] : params[2];
    if (!shortString(text)) return malformedShare('nonce must be a string');
    const digits = NONCE_HEX.exec(text)?.[1]?.toLowerCase();
    if (digits === undefined) {
      return refused('bad-nonce', { message: 'Invalid nonce (expected at most 16 hex digits)' });
    }
    const full =
      digits.length <= 2 * MINER_NONCE_SIZE
        ? extranonce.hex + digits.padStart(2 * MINER_NONCE_SIZE, '0')
        : digits.padStart(16, '0');
    if (!full.startsWith(extranonce.hex)) {
      return refused('bad-nonce', { message: "Nonce outside this session's extranonce" });
    }
    const nonce = BigInt(`0x${full}`);
    const key = shareKey('', full, 0, 0, 0);

    const live = liveJob(jobs, jobId);
    if ('refusal' in live) return live.refusal;
    const named = live.issued;
    const newest = this.source.current();
    const behind = (job: KaspaJob) => newest !== undefined && newest.daaScore - job.daaScore > KASPA_STALE_DAA;
    if (behind(named.entry.job)) return refused('stale', { message: 'Stale share (job too far behind)' });
    if (named.entry.seen.has(key)) return refused('duplicate', { issued: named, key });

    const verdict = this.tryJob(named, nonce, key);
    if (verdict) return verdict;
    if (this.profile?.asic) {
      let tried = 0;
      for (const { issued } of jobs.before(jobId)) {
        if (tried++ >= KASPA_JOB_RETRIES) break;
        const { entry } = issued;
        if (entry.stale || entry.evicted || behind(entry.job)) continue;
        if (entry.seen.has(key)) return refused('duplicate', { issued, key });
        const earlier = this.tryJob(issued, nonce, key);
        if (earlier) return earlier;
      }
    }
    return refused('low-difficulty', { issued: named, key });
  }

  /** The share as work on one job: accepted when it meets the job's share or network target. */
  private tryJob(issued: Issued<JobEntry<KaspaJob>>, nonce: bigint, key: number): DialectVerdict<KaspaJob> | undefined {
    const { job } = issued.entry;
    const value = this.pow.hashValue(this.pow.hash(job.powInput(nonce)));
    const credit = shareCredit(value, issued, job.networkTarget, this.pow);
    if (!credit) return undefined;
    const { source } = this;
    return credited(issued, key, credit, () => ({
      job,
      hash: job.blockHash(nonce),
      submit: () => source.submitBlock(job, job.block(nonce)),
    }));
  }
}
