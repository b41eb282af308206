import type { SubmitBlockResult, WorkJob } from '@lodestone/chain';
import type { AlgorithmKey } from '@lodestone/domain';
import type { Issued, IssuedLookup } from '../issuedJobs.js';
import type { JobEntry } from '../jobManager.js';
import type { Login } from '../login.js';
import type { PowFunctions } from '../pow.js';
import { StratumError, type StratumErrorCode } from '../protocol.js';
import type { PortSettings } from '../session.js';
import type { RejectReason } from '../validate.js';

/**
 * A stratum dialect: what differs between the job shapes miners are sent (bitcoin family, CKB, Kaspa,
 * Kadena). The session (session.ts) keeps everything the dialects share — the line queue, logins,
 * vardiff, the jobs a connection was sent with their difficulties, share records, block hand-off and
 * bans — and asks its connection's dialect for the rest: the answer to mining.subscribe, how a
 * difficulty is announced, the notify line, how a submit's parameters are read and checked, and the
 * solution a block candidate is submitted as.
 */
export interface Dialect<J extends WorkJob = WorkJob> {
  readonly algorithm: AlgorithmKey;
  readonly pow: PowFunctions;
  /** The protocol state of one new connection. */
  connect(context: DialectContext): DialectConnection<J>;
}

/** What a connection's dialect may do to its connection. */
export interface DialectContext {
  readonly port: PortSettings;
  readonly remoteAddress: string;
  /** Ends the connection (the dialect cannot go on: e.g. an extranonce the miner cannot follow). */
  close(reason: string, abusive: boolean): void;
}

/** The answer to a method the dialect handles. */
export type MethodOutcome =
  | {
      result: unknown;
      /** Lines to send right after the answer. */
      then?: string;
      /** The miner asked for this minimum share difficulty (BIP 310 minimum-difficulty). */
      minimumDifficulty?: number;
    }
  | {
      error: string;
      code: StratumErrorCode;
      /** Counted as malformed (too many close the connection and ban the address). */
      malformed?: boolean;
    };

/** The jobs the session sent this connection, for the share check. */
export interface SentJobs<J extends WorkJob> {
  /** The job a number names. */
  lookup(id: number): IssuedLookup<JobEntry<J>>;
  /** Jobs sent before `id` and still held, newest first (for firmware that names the wrong job). */
  before(id: number): Iterable<{ id: number; issued: Issued<JobEntry<J>> }>;
}

/**
 * A block candidate: its hash, and how to submit it to the job's source. `job` names the chain and
 * block it is: the share's job, or for an aux block of merged mining that aux chain's block.
 */
export interface SolvedBlock {
  readonly job: Pick<WorkJob, 'id' | 'algorithm' | 'coin' | 'height' | 'coinbaseValue' | 'networkTarget'>;
  readonly hash: string;
  /** The chain the block is on where the network braids several (Kadena's chain id); absent for coins of one chain. */
  readonly chain?: number;
  submit(): Promise<SubmitBlockResult>;
}

export type DialectVerdict<J extends WorkJob> =
  | {
      accepted: true;
      /** The job the share was found for (Kaspa ASICs may name another). */
      issued: Issued<JobEntry<J>>;
      /** Duplicate key to remember for that job. */
      key: number;
      /** Difficulty credited. */
      difficulty: number;
      /** The share's hash read as a number: what it achieved (a solo worker's best share). */
      hashValue: bigint;
      /** Set when the hash also meets the network target. */
      block: SolvedBlock | undefined;
      /** The aux blocks the share solved (merged mining), whether or not it solved the parent's. */
      auxBlocks?: readonly SolvedBlock[];
    }
  | {
      accepted: false;
      reason: RejectReason;
      code: StratumErrorCode;
      /** The dialect's wording, when it differs from REJECT_MESSAGES. */
      message?: string;
      /** The parameters could not be read: answered and counted as a malformed line, not as a share. */
      malformed?: boolean;
      issued?: Issued<JobEntry<J>>;
      key?: number;
    };

/** A share difficulty to announce before a job, and its target. */
export interface NewDifficulty {
  difficulty: number;
  target: bigint;
}

/** The protocol state of one connection. */
export interface DialectConnection<J extends WorkJob = WorkJob> {
  /** True once mining.subscribe was answered: the connection has its nonce space. */
  readonly subscribed: boolean;
  /** mining.subscribe. */
  subscribe(params: readonly unknown[]): MethodOutcome;
  /** Methods other than subscribe, authorize, suggest_difficulty and submit; undefined: unknown method. */
  method(name: string, params: readonly unknown[]): MethodOutcome | undefined;
  /** A worker authorized on this connection. */
  authorized(login: Login): void;
  /** The difficulty the miner is sent instead of `difficulty` (ASIC firmware takes only powers of two). */
  shapeDifficulty(difficulty: number): number;
  /** How a job number is written in notify (and read back from submit: 0 for text that names none). */
  jobId(id: number): string;
  parseJobId(text: string): number;
  /**
   * The lines that send a job under `jobId`, preceded by the announcement of `difficulty` (set_difficulty
   * or set_target) when it is set; undefined when the job cannot be sent (the dialect closed the
   * connection).
   */
  jobLines(
    jobId: string,
    entry: JobEntry<J>,
    cleanJobs: boolean,
    difficulty: NewDifficulty | undefined,
  ): string | undefined;
  /** Whether the current job may be re-sent at once to carry a new difficulty (else the next job carries it). */
  canResend(entry: JobEntry<J>, now: number): boolean;
  /** Checks one submitted share: `params` are the submit's parameters (`[worker, jobId, …]`). */
  checkShare(jobs: SentJobs<J>, jobId: number, params: readonly unknown[], now: number): DialectVerdict<J>;
  /** The connection is gone: free its nonce space. */
  release(): void;
}

/** A submit whose parameters cannot be read. */
export function malformedShare(problem: string): DialectVerdict<never> {
  return {
    accepted: false,
    reason: 'bad-nonce',
    code: StratumError.Other,
    message: `Malformed request: ${problem}`,
    malformed: true,
  };
}
