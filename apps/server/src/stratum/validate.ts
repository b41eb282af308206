import type { BitcoinJob } from '@lodestone/chain';
import type { PowFunctions } from './pow.js';
import { StratumError, type StratumErrorCode } from './protocol.js';

/**
 * The ntime window. Bitcoin nodes refuse a header more than two hours ahead of their clock, and
 * never one at or below the median time past (the template's `mintime`). We also refuse ntimes
 * more than ten minutes below the template's `curtime`: honest miners roll ntime forward, never
 * back, so an older ntime is a replayed or broken share.
 */
export const NTIME_MAX_FUTURE_SECONDS = 7200;
export const NTIME_MAX_PAST_SECONDS = 600;

/** A job as one session received it: the difficulty it was sent with is the one its shares are checked at. */
export interface IssuedWork {
  entry: {
    readonly job: BitcoinJob;
    /** True once a newer previous block made the job useless. */
    readonly stale: boolean;
    /** True once the job was let go to bound memory (its duplicate set is gone). */
    readonly evicted: boolean;
    /** Keys (`shareKey`) of shares already seen for this job's work (all sessions, every job of that work). */
    readonly seen: ReadonlySet<number>;
  };
  difficulty: number;
  /** Share target for `difficulty`. */
  target: bigint;
}

export interface ShareContext {
  /** The work the job id named, or undefined when the id is not (or no longer) known. */
  issued: IssuedWork | undefined;
  /** Why an unknown id is refused: it named a job of an older block, or no job held any more. */
  unknownJob: 'stale' | 'job-not-found';
  extranonce1: Uint8Array;
  extranonce1Hex: string;
  /** Version bits the miner may roll (BIP 310); 0 without mining.configure. */
  versionMask: number;
  /** Epoch milliseconds. */
  now: number;
  pow: PowFunctions;
}

export type RejectReason =
  | 'job-not-found'
  | 'stale'
  | 'ntime-out-of-range'
  | 'bad-version-bits'
  | 'bad-extranonce2'
  | 'bad-nonce'
  | 'duplicate'
  | 'low-difficulty';

export const REJECT_CODES: Record<RejectReason, StratumErrorCode> = {
  'job-not-found': StratumError.JobNotFound,
  stale: StratumError.JobNotFound,
  'ntime-out-of-range': StratumError.Other,
  'bad-version-bits': StratumError.Other,
  'bad-extranonce2': StratumError.Other,
  'bad-nonce': StratumError.Other,
  duplicate: StratumError.Duplicate,
  'low-difficulty': StratumError.LowDifficulty,
};

export const REJECT_MESSAGES: Record<RejectReason, string> = {
  'job-not-found': 'Job not found',
  stale: 'Stale share (job of an older block)',
  'ntime-out-of-range': 'ntime out of range',
  'bad-version-bits': 'Version bits outside the negotiated mask',
  'bad-extranonce2': 'Invalid extranonce2 (wrong length or not hex)',
  'bad-nonce': 'Invalid nonce or ntime (expected 8 hex digits)',
  duplicate: 'Duplicate share',
  'low-difficulty': 'Low difficulty share',
};

/** A bitcoin-family submit's share fields (`[worker, jobId, extranonce2, ntime, nonce, versionBits?]`). */
export interface BitcoinSubmit {
  extranonce2: string;
  ntime: string;
  nonce: string;
  versionBits: string | undefined;
}

/** The parts of a share that rebuild its header and block. */
export interface SolvedShare {
  extranonce2: Uint8Array;
  ntime: number;
  nonce: number;
  /** The header version: the job's version with the miner's rolled bits merged in. */
  version: number;
  header: Uint8Array;
  hash: Uint8Array;
  /** The hash read as a number, as targets are compared with it. */
  value: bigint;
}

export type ShareVerdict =
  | {
      accepted: true;
      /** Duplicate key to remember for this job. */
      key: number;
      /** Difficulty credited. */
      difficulty: number;
      /** The hash also meets the network target: a block candidate. */
      isBlock: boolean;
      /** The hash read as a number (`share.value`), as every dialect's credit carries it. */
      value: bigint;
      share: SolvedShare;
    }
  | { accepted: false; reason: RejectReason; code: StratumErrorCode; key?: number };

const HEX8 = /^[0-9a-fA-F]{8}$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/**
 * A 53-bit digest of what makes a share's header unique for one job (extranonce1, extranonce2, ntime,
 * nonce, version): duplicate sets hold numbers, about 30 bytes a share instead of a 40-character
 * string. Two different shares collide with probability about n²/2^54 for n shares of one job
 * (below 10^-3 at 3 million), and a collision only refuses one honest share as a duplicate.
 */
export function shareKey(
  extranonce1Hex: string,
  extranonce2Hex: string,
  ntime: number,
  nonce: number,
  version: number,
): number {
  let h1 = 0x9e3779b9;
  let h2 = 0x85ebca6b;
  const mix = (word: number) => {
    h1 = Math.imul(h1 ^ word, 0xcc9e2d51);
    h1 = (h1 << 15) | (h1 >>> 17);
    h2 = Math.imul(h2 ^ word, 0x1b873593);
    h2 = (h2 << 13) | (h2 >>> 19);
    h1 = Math.imul(h1 ^ h2, 5) + 0xe6546b64;
  };
  const hex = extranonce1Hex + extranonce2Hex;
  for (let i = 0; i < hex.length; i += 8) mix(Number.parseInt(hex.slice(i, i + 8), 16) | 0);
  mix(hex.length);
  mix(ntime | 0);
  mix(nonce | 0);
  mix(version | 0);
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h2 ^= h1;
  h2 = Math.imul(h2, 0xc2b2ae35);
  h2 ^= h2 >>> 16;
  return (h2 & 0x1fffff) * 0x100000000 + (h1 >>> 0);
}

/**
 * What a share whose hash reads as `value` earns, in every dialect: the difficulty of the job as sent
 * when it meets the share target; a block when it meets the network target — credited at the network's
 * difficulty when that is below the share's (a share difficulty above the network's, as on the demo
 * network), and never refused; likewise a block of an aux chain (`auxTarget`: the easiest of the merged
 * chains' targets); nothing (undefined) otherwise: a low-difficulty share.
 */
export function shareCredit(
  value: bigint,
  issued: { difficulty: number; target: bigint },
  networkTarget: bigint,
  pow: Pick<PowFunctions, 'difficultyForTarget'>,
  auxTarget = 0n,
): { difficulty: number; isBlock: boolean; value: bigint } | undefined {
  const isBlock = value <= networkTarget;
  if (value <= issued.target) return { difficulty: issued.difficulty, isBlock, value };
  // The easiest block target the hash met: the parent's, or an aux chain's (merged mining).
  const met = value <= auxTarget && auxTarget > networkTarget ? auxTarget : isBlock ? networkTarget : undefined;
  if (met === undefined) return undefined;
  return { difficulty: Math.min(issued.difficulty, pow.difficultyForTarget(met)), isBlock, value };
}

function reject(reason: RejectReason, key?: number): ShareVerdict {
  return key === undefined
    ? { accepted: false, reason, code: REJECT_CODES[reason] }
    : { accepted: false, reason, code: REJECT_CODES[reason], key };
}

/**
 * Checks one submitted share, in this order: known job (of the current block), nonce/ntime well formed, ntime
 * within the window, version bits within the mask, extranonce2 of the exact length, not a
 * duplicate, hash meets the share target. Pure: it only reads its inputs (the caller remembers the
 * returned duplicate key). A share whose hash meets the network target but not the share target (a
 * share difficulty above the network's, as on the demo network) is still a block: it is accepted and
 * credited at the network's difficulty.
 */
export function validateShare(context: ShareContext, submit: BitcoinSubmit): ShareVerdict {
  const { issued } = context;
  if (issued === undefined) return reject(context.unknownJob);
  if (issued.entry.stale) return reject('stale');
  if (issued.entry.evicted) return reject('job-not-found');
  const { job } = issued.entry;

  if (!HEX8.test(submit.ntime) || !HEX8.test(submit.nonce)) return reject('bad-nonce');
  const ntime = Number.parseInt(submit.ntime, 16);
  const nonce = Number.parseInt(submit.nonce, 16);
  const nowSeconds = Math.floor(context.now / 1000);
  const earliest = Math.max(job.mintime, job.curtime - NTIME_MAX_PAST_SECONDS);
  if (ntime < earliest || ntime > nowSeconds + NTIME_MAX_FUTURE_SECONDS) return reject('ntime-out-of-range');

  let versionBits = 0;
  if (submit.versionBits !== undefined) {
    if (!HEX8.test(submit.versionBits)) return reject('bad-version-bits');
    versionBits = Number.parseInt(submit.versionBits, 16);
    if ((versionBits & ~context.versionMask) >>> 0 !== 0) return reject('bad-version-bits');
  }
  const version = ((job.version & ~context.versionMask) | versionBits) >>> 0;

  const extranonce2Size = job.extranonceSize - context.extranonce1.length;
  if (submit.extranonce2.length !== extranonce2Size * 2 || !HEX.test(submit.extranonce2)) {
    return reject('bad-extranonce2');
  }

  const key = shareKey(context.extranonce1Hex, submit.extranonce2, ntime, nonce, version);
  if (issued.entry.seen.has(key)) return reject('duplicate');

  const extranonce2 = Buffer.from(submit.extranonce2, 'hex');
  const header = job.header(context.extranonce1, extranonce2, ntime, nonce, version);
  const hash = context.pow.hash(header);
  const value = context.pow.hashValue(hash);
  const credit = shareCredit(value, issued, job.networkTarget, context.pow, job.merged?.easiestTarget);
  if (!credit) return reject('low-difficulty', key);
  const { difficulty, isBlock } = credit;
  return {
    accepted: true,
    key,
    difficulty,
    isBlock,
    value,
    share: { extranonce2, ntime, nonce, version, header, hash, value },
  };
}
