/**
 * Kadena (Blake2s, chainweb): the stratum that kadena-io/chainweb-mining-client's server speaks
 * (src/Worker/POW/Stratum/{Protocol,Server}.hs at bdd2c73), with the miner forms its sources record:
 * kdaminer, the iBeLink BM-K1, and the sessions of f2pool, poolflare and antpool noted in Server.hs.
 *
 *   → mining.subscribe  [] | ["agent"] | ["agent", null]     (BM-K1 omits the null)
 *   ← [null, "<nonce1>", 6]                                   nonce1: 2 bytes, nonce2: 6 bytes
 *   → mining.authorize  ["<account>[.worker]", "<password>"]  before or after subscribe
 *   ← mining.set_target ["<64-hex big-endian target>"]        before the first job and on every change
 *                                                             (Target.hs: exactly 64 digits)
 *   ← mining.notify     ["<job id>", "<286-byte work header hex>", true]
 *   → mining.submit     ["<account>[.worker]", "<job id>", "<nonce2>"]
 *
 * Job ids and nonces are integers written in hex without a fixed width (the reference's `IntHexText`:
 * job "1a", nonce2 "384"); a miner that pads them ("0384") means the same integer, so both are read.
 * The 8-byte nonce is nonce2 · 2^16 + nonce1 — nonce1 the low bytes — written little-endian at offset
 * 278 of the work header (Protocol.hs `composeNonce`, `injectNonce`). nonce1 goes out padded to its two
 * bytes ("00ab"): still the integer the reference's parser reads, and the form pools send (f2pool
 * "09e8", poolflare "a796" in Server.hs's recorded sessions).
 *
 * A share's Blake2s hash of the solved header, read little-endian, must be ≤ the session target of the
 * job it names; ≤ the header's own target it is also a block, submitted to the node as the 286 solved
 * bytes. Session targets are chainweb's "levels": difficulty 2^L is target 2^(256−L) − 1 (difficulty 1
 * is 2^256 − 1, one hash per difficulty), so shapeDifficulty sends powers of two only.
 *
 * Every notify says clean_jobs = true, as the reference server always does ("for now we always replace
 * previous work") and the pools the ASICs were tuned on do: the job source re-issues the current work
 * every second with a later creation time, and a miner should move to the freshest header. Jobs sent
 * earlier stay valid for shares in flight while their chain's parent is the same (see below).
 *
 * Which shares are stale: the job manager marks a job stale when a job with another `parentKey`
 * (`chain:parent`) arrives. KadenaJobSource re-issues work of the same chain and parent (same key: the
 * older re-issues stay valid — the node keeps their payload until it is solved) and leaves a chain only
 * when that chain's work is outdated: a "New Cut" on its update stream, which chainweb-node sends when
 * the chain got a new parent (Miner/RestAPI/Server.hs `awaitNewPrimedWork`; primed work changes only on
 * a new block on that chain, Chainweb/MinerResources.hs `primeWork`), or a block the pool found on it
 * (the node deletes the payload once solved: Miner/Coordinator.hs `solve`). Either way the node would
 * not take a block on the previous chain's work — it orphans it or answers 404 "No associated Payload" —
 * so its shares are answered stale, as a bitcoin-family share of the previous block is.
 */
import { hashToBase64Url, type KadenaJob, kadenaBlockHash } from '@lodestone/chain';
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
import { notificationLine, StratumError, shortString } from '../../stratum/protocol.js';
import { shareCredit, shareKey } from '../../stratum/validate.js';

/** Bytes of the nonce the pool sets per session (Server.hs `defaultNonce1Size`: 65 536 sessions). */
export const KADENA_NONCE1_SIZE = 2;
/** Bytes the miner searches: 2^48 nonces per header, and a new header every second. */
export const KADENA_NONCE2_SIZE = 8 - KADENA_NONCE1_SIZE;

const NONCE2_LIMIT = 1n << BigInt(8 * KADENA_NONCE2_SIZE);
/** An integer in hex, any width (an optional 0x, as Data.Text.Read.hexadecimal allows). */
const INT_HEX = /^(?:0[xX])?([0-9a-fA-F]{1,64})$/;

/** The integer a hex text names, or undefined when it is not integer hex. */
export function readIntHex(text: string): bigint | undefined {
  const match = INT_HEX.exec(text);
  return match ? BigInt(`0x${match[1]}`) : undefined;
}

/** 64 hex digits, big-endian: mining.set_target's form. */
export function targetHex(target: bigint): string {
  return target.toString(16).padStart(64, '0');
}

const headerHexes = new WeakMap<KadenaJob, string>();

/** The work header's hex, made once per job whatever the number of sessions. */
function headerHex(job: KadenaJob): string {
  let hex = headerHexes.get(job);
  if (hex === undefined) {
    hex = Buffer.from(job.header).toString('hex');
    headerHexes.set(job, hex);
  }
  return hex;
}

/** The power of two nearest `difficulty` (in log scale) within [min, max], at least 1 (chainweb level 0). */
export function levelDifficulty(difficulty: number, min: number, max: number): number {
  const lowest = Math.max(0, Math.ceil(Math.log2(Math.max(min, 1))));
  const highest = Math.max(lowest, Math.floor(Math.log2(Math.max(max, 1))));
  const level = Math.round(Math.log2(Math.max(difficulty, 1)));
  return 2 ** Math.min(highest, Math.max(lowest, level));
}

/** The Kadena dialect of one process: its connections share the 2-byte nonce1 space. */
export class KadenaDialect implements Dialect<KadenaJob> {
  readonly algorithm = 'blake2s' as const;
  readonly pow: PowFunctions = powFor('blake2s');

  constructor(
    private readonly jobs: JobManager<KadenaJob, Uint8Array>,
    private readonly nonces: ExtranonceAllocator = new ExtranonceAllocator(undefined, KADENA_NONCE1_SIZE),
  ) {
    if (nonces.width !== KADENA_NONCE1_SIZE) throw new RangeError(`Kadena's nonce1 is ${KADENA_NONCE1_SIZE} bytes`);
  }

  connect(context: DialectContext): DialectConnection<KadenaJob> {
    return new KadenaConnection(context, this.jobs.source, this.pow, new SessionNonce(this.nonces));
  }
}

class KadenaConnection extends PrefixedConnection<KadenaJob, Uint8Array> implements DialectConnection<KadenaJob> {
  /** `[]`, `["agent"]`, `["agent", null]`; a session id in the second place (bitcoin habit) is ignored. */
  subscribe(params: readonly unknown[]): MethodOutcome {
    const [agent, second] = params;
    const agentOk = agent === undefined || agent === null || shortString(agent);
    const secondOk = second === undefined || second === null || shortString(second);
    if (params.length > 4 || !agentOk || !secondOk) {
      return {
        error: 'Malformed request: mining.subscribe takes ["agent", null]',
        code: StratumError.Other,
        malformed: true,
      };
    }
    const nonce1 = this.prefix.claim(this.context);
    return nonce1 ? { result: [null, nonce1.hex, KADENA_NONCE2_SIZE] } : NO_NONCE_SPACE;
  }

  method(name: string): MethodOutcome | undefined {
    // The nonce1 of a session never changes: there is nothing to subscribe to.
    if (name === 'mining.extranonce.subscribe') return { result: false };
    return undefined;
  }

  override shapeDifficulty(difficulty: number): number {
    const { minDifficulty, maxDifficulty } = this.context.port;
    return levelDifficulty(difficulty, minDifficulty, maxDifficulty);
  }

  override parseJobId(text: string): number {
    const value = readIntHex(text);
    return value !== undefined && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : 0;
  }

  jobLines(
    jobId: string,
    entry: JobEntry<KadenaJob>,
    _cleanJobs: boolean,
    difficulty: NewDifficulty | undefined,
  ): string | undefined {
    if (!this.prefix.value) return undefined;
    const target = difficulty ? notificationLine('mining.set_target', [targetHex(difficulty.target)]) : '';
    return `${target}{"id":null,"method":"mining.notify","params":[${JSON.stringify(jobId)},"${headerHex(entry.job)}",true]}\n`;
  }

  /**
   * A job re-sent under a new id would be the same header: a miner that restarts its nonces on a new job
   * would hash it again and its shares would be duplicates. The source re-issues the work with a new
   * creation time every second, and that job carries the new target.
   */
  canResend(): boolean {
    return false;
  }

  checkShare(
    jobs: SentJobs<KadenaJob>,
    jobId: number,
    params: readonly unknown[],
    _now: number,
  ): DialectVerdict<KadenaJob> {
    if (params.length !== 3) return malformedShare('mining.submit takes [worker, job id, nonce2]');
    const text = params[2];
    const nonce2 = shortString(text) ? readIntHex(text) : undefined;
    if (nonce2 === undefined) return malformedShare('nonce2 must be an integer in hex');
    const live = liveJob(jobs, jobId);
    if ('refusal' in live) return live.refusal;
    const { issued } = live;
    // A nonce2 past its 6 bytes would reach into nonce1: another session's nonces.
    if (nonce2 >= NONCE2_LIMIT) {
      const message = `nonce2 must fit in ${KADENA_NONCE2_SIZE} bytes (below 2^${8 * KADENA_NONCE2_SIZE})`;
      return refused('bad-nonce', { message });
    }
    const nonce = (nonce2 << BigInt(8 * KADENA_NONCE1_SIZE)) | BigInt(this.prefix.subscribed.value);
    const key = shareKey('', nonce.toString(16).padStart(16, '0'), 0, 0, 0);
    if (issued.entry.seen.has(key)) return refused('duplicate', { issued, key });

    const job = issued.entry.job;
    const solved = job.solved(nonce);
    const credit = shareCredit(this.pow.hashValue(this.pow.hash(solved)), issued, job.networkTarget, this.pow);
    if (!credit) return refused('low-difficulty', { issued, key });
    const { source } = this;
    return credited(issued, key, credit, () => ({
      job,
      hash: hashToBase64Url(kadenaBlockHash(solved)),
      chain: job.chainId,
      submit: () => source.submitBlock(job, solved),
    }));
  }
}
