import { type BitcoinJob, blockHashHex, type JobSource, type MergedWork, shareAuxPow } from '@lodestone/chain';
import { hex32, negotiateExtensions } from '../../stratum/configure.js';
import type { Dialect, DialectConnection, DialectContext, MethodOutcome } from '../../stratum/dialects/dialect.js';
import {
  type DialectVerdict,
  malformedShare,
  type NewDifficulty,
  type SentJobs,
  type SolvedBlock,
} from '../../stratum/dialects/dialect.js';
import { NO_NONCE_SPACE, PrefixedConnection, SessionNonce } from '../../stratum/dialects/sessionNonce.js';
import { credited, refused } from '../../stratum/dialects/shares.js';
import { EXTRANONCE1_SIZE, ExtranonceAllocator } from '../../stratum/extranonce.js';
import type { JobEntry, JobManager } from '../../stratum/jobManager.js';
import type { Login } from '../../stratum/login.js';
import { type PowFunctions, powFor, type StratumAlgorithm } from '../../stratum/pow.js';
import { notificationLine, StratumError, shortString } from '../../stratum/protocol.js';
import {
  type BitcoinSubmit,
  NTIME_MAX_FUTURE_SECONDS,
  type SolvedShare,
  validateShare,
} from '../../stratum/validate.js';

/**
 * How far ahead of the clock a job re-sent for a retarget may move ntime: re-sends are rare (a few
 * per session while vardiff converges), so this bound is never reached by an honest session; past
 * it the new difficulty waits for the next job.
 */
const MAX_NTIME_LEAD_SECONDS = Math.min(600, NTIME_MAX_FUTURE_SECONDS);

const notifyTails = new WeakMap<BitcoinJob, string>();

/**
 * mining.notify for one job: `[job_id, prevhash, coinb1, coinb2, merkle_branch, version, nbits,
 * ntime, clean_jobs]`. The job id and ntime are chosen per session (ntime is the job's `curtime`
 * unless the session moved it forward); everything between them is serialized once per job.
 */
export function notifyLine(jobId: string, job: BitcoinJob, cleanJobs: boolean, ntime = job.curtime): string {
  let tail = notifyTails.get(job);
  if (tail === undefined) {
    tail = JSON.stringify([
      job.prevHashNotify,
      job.coinbase1,
      job.coinbase2,
      job.merkleBranch,
      hex32(job.version),
      job.bits,
    ]).slice(1, -1);
    notifyTails.set(job, tail);
  }
  return `{"id":null,"method":"mining.notify","params":[${JSON.stringify(jobId)},${tail},"${hex32(ntime)}",${cleanJobs}]}\n`;
}

/** Reads `[worker, jobId, extranonce2, ntime, nonce, versionBits?]`. */
export function parseBitcoinSubmit(params: readonly unknown[]): BitcoinSubmit | string {
  const [, , extranonce2, ntime, nonce, versionBits] = params;
  if (!shortString(extranonce2)) return 'extranonce2 must be a string';
  if (!shortString(ntime) || !shortString(nonce)) return 'ntime and nonce must be strings';
  if (versionBits !== undefined && versionBits !== null && !shortString(versionBits)) {
    return 'version bits must be a string';
  }
  return { extranonce2, ntime, nonce, versionBits: versionBits ?? undefined };
}

/**
 * The bitcoin family (SHA256, SCRYPT, X11): a coinbase split around extranonce1 ‖ extranonce2, a
 * merkle branch, ntime rolling, BIP 310 version rolling, mining.set_difficulty, and NiceHash's
 * extranonce subscription on `xnsub` ports.
 */
export class BitcoinDialect implements Dialect<BitcoinJob> {
  readonly pow: PowFunctions;

  constructor(
    readonly algorithm: StratumAlgorithm,
    private readonly jobs: JobManager<BitcoinJob, string>,
    private readonly extranonces: ExtranonceAllocator = new ExtranonceAllocator(),
    /** Where solved aux blocks go (the job source, when its jobs are merge-mined). */
    private readonly aux: AuxSubmitter = {},
  ) {
    this.pow = powFor(algorithm);
  }

  connect(context: DialectContext): DialectConnection<BitcoinJob> {
    return new BitcoinConnection(context, this.jobs.source, this.pow, new SessionNonce(this.extranonces), this.aux);
  }
}

type AuxSubmitter = Pick<JobSource, 'submitAuxBlock'>;

class BitcoinConnection extends PrefixedConnection<BitcoinJob, string> implements DialectConnection<BitcoinJob> {
  constructor(
    context: DialectContext,
    source: JobManager<BitcoinJob, string>['source'],
    pow: PowFunctions,
    prefix: SessionNonce,
    private readonly aux: AuxSubmitter,
  ) {
    super(context, source, pow, prefix);
  }

  private extranonce2Size = 0;
  private versionMask = 0;
  private xnsub = false;
  /** The ntime and block of the job last sent; within one block every job carries a later ntime. */
  private lastNtime = 0;
  private lastBlockKey: string | undefined;

  subscribe(): MethodOutcome {
    const first = !this.subscribed;
    const extranonce1 = this.prefix.claim(this.context);
    if (!extranonce1) return NO_NONCE_SPACE;
    if (first) {
      const size = this.source.current()?.extranonceSize ?? EXTRANONCE1_SIZE * 2;
      this.extranonce2Size = size - EXTRANONCE1_SIZE;
    }
    const en1 = extranonce1.hex;
    const subscriptions = [
      ['mining.set_difficulty', en1],
      ['mining.notify', en1],
    ];
    return { result: [subscriptions, en1, this.extranonce2Size] };
  }

  method(name: string, params: readonly unknown[]): MethodOutcome | undefined {
    const xnsubPort = this.context.port.kind === 'xnsub';
    if (name === 'mining.extranonce.subscribe') {
      if (xnsubPort) this.xnsub = true;
      return { result: xnsubPort };
    }
    if (name !== 'mining.configure') return undefined;
    const [extensions, parameters] = params;
    if (!Array.isArray(extensions) || extensions.length > 32 || !extensions.every(shortString)) {
      return {
        error: 'Malformed request: extensions must be a list of names',
        code: StratumError.Other,
        malformed: true,
      };
    }
    if (
      parameters !== undefined &&
      parameters !== null &&
      (typeof parameters !== 'object' || Array.isArray(parameters))
    ) {
      return {
        error: 'Malformed request: extension parameters must be an object',
        code: StratumError.Other,
        malformed: true,
      };
    }
    const outcome = negotiateExtensions(extensions, (parameters ?? {}) as Record<string, unknown>, {
      min: this.context.port.minDifficulty,
      max: this.context.port.maxDifficulty,
      extranonceSubscribe: xnsubPort,
    });
    if (outcome.versionMask !== undefined) this.versionMask = outcome.versionMask;
    if (outcome.extranonceSubscribe) this.xnsub = true;
    return outcome.minimumDifficulty === undefined
      ? { result: outcome.result }
      : { result: outcome.result, minimumDifficulty: outcome.minimumDifficulty };
  }

  override authorized(login: Login): void {
    if (login.xnsub && this.context.port.kind === 'xnsub') this.xnsub = true;
  }

  /**
   * Within one block every job a session is sent carries a later ntime than the one before, so no two
   * of its jobs share a header: a retarget re-sends the same template (a miner that only switches
   * when the header bytes change, cpuminer 2.5.1, does switch; one that restarts its nonces on every
   * new job id, cpuminer-opt, hashes new headers), and a refreshed template may keep the same
   * transactions.
   */
  private nextNtime(entry: JobEntry<BitcoinJob>): number {
    const sameBlock = this.lastBlockKey === entry.blockKey;
    return sameBlock ? Math.max(entry.job.curtime, this.lastNtime + 1) : entry.job.curtime;
  }

  canResend(entry: JobEntry<BitcoinJob>, now: number): boolean {
    return this.nextNtime(entry) - Math.floor(now / 1000) <= MAX_NTIME_LEAD_SECONDS;
  }

  jobLines(
    jobId: string,
    entry: JobEntry<BitcoinJob>,
    cleanJobs: boolean,
    difficulty: NewDifficulty | undefined,
  ): string | undefined {
    const extranonce1 = this.prefix.value;
    if (!extranonce1) return undefined;
    let lines = '';
    const size = entry.job.extranonceSize - EXTRANONCE1_SIZE;
    if (size !== this.extranonce2Size) {
      if (!this.xnsub) {
        this.context.close('extranonce2 size changed', false);
        return undefined;
      }
      this.extranonce2Size = size;
      lines += notificationLine('mining.set_extranonce', [extranonce1.hex, size]);
    }
    if (difficulty) lines += notificationLine('mining.set_difficulty', [difficulty.difficulty]);
    const ntime = this.nextNtime(entry);
    this.lastNtime = ntime;
    this.lastBlockKey = entry.blockKey;
    return lines + notifyLine(jobId, entry.job, cleanJobs, ntime);
  }

  checkShare(
    jobs: SentJobs<BitcoinJob>,
    jobId: number,
    params: readonly unknown[],
    now: number,
  ): DialectVerdict<BitcoinJob> {
    const submit = parseBitcoinSubmit(params);
    if (typeof submit === 'string') return malformedShare(submit);
    const found = jobs.lookup(jobId);
    const { issued } = found;
    const extranonce1 = this.prefix.subscribed;
    const verdict = validateShare(
      {
        issued,
        unknownJob: found.issued === undefined ? found.reason : 'job-not-found',
        extranonce1: extranonce1.bytes,
        extranonce1Hex: extranonce1.hex,
        versionMask: this.versionMask,
        now,
        pow: this.pow,
      },
      submit,
    );
    if (!verdict.accepted) return refused(verdict.reason, { issued, key: verdict.key });
    const work = issued as NonNullable<typeof issued>;
    const { share } = verdict;
    const job = work.entry.job;
    const { source } = this;
    const outcome = credited(work, verdict.key, verdict, () => ({
      job,
      hash: blockHashHex(job.algorithm, share.header),
      submit: () =>
        source.submitBlock(
          job,
          job.block(extranonce1.bytes, share.extranonce2, share.ntime, share.nonce, share.version),
        ),
    }));
    if (outcome.accepted && job.merged && share.value <= job.merged.easiestTarget) {
      outcome.auxBlocks = auxBlocksOf(this.aux, job, job.merged, extranonce1.bytes, share);
    }
    return outcome;
  }
}

/**
 * The aux blocks a share solves: each merged chain whose target its hash meets, with the AuxPoW built
 * only when the block is submitted (off the share's answer).
 */
function auxBlocksOf(
  aux: AuxSubmitter,
  job: BitcoinJob,
  merged: MergedWork,
  extranonce1: Uint8Array,
  share: SolvedShare,
): SolvedBlock[] {
  return merged.chains
    .filter((chain) => share.value <= chain.target)
    .map((chain) => ({
      job: {
        id: job.id,
        algorithm: job.algorithm,
        coin: chain.coin,
        height: chain.height,
        coinbaseValue: chain.coinbaseValue,
        networkTarget: chain.target,
      },
      hash: chain.hash,
      submit: async () => {
        if (!aux.submitAuxBlock)
          return { accepted: false, hash: chain.hash, reason: 'the job source mines no aux chain' };
        return aux.submitAuxBlock(chain, shareAuxPow(job, chain, extranonce1, share.extranonce2, share.header));
      },
    }));
}
