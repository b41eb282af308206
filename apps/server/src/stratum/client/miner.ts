import type { PowFunctions } from '../pow.js';
import { buildHeader, grind, hex32, type NotifyJob } from './work.js';

/** What a miner knows when it looks for a share: its session's extranonce and difficulty, and a job. */
export interface MinerState {
  job: NotifyJob;
  extranonce1: string;
  extranonce2Size: number;
  difficulty: number;
  /** The version-rolling mask the server granted (0 when none). */
  versionMask?: number;
}

export interface ShareSearch {
  /** Hex of extranonce2Size bytes; default a counter. */
  extranonce2?: string;
  ntime?: number;
  /** Rolled version bits (within the negotiated mask). */
  versionBits?: number;
  startNonce?: number;
  maxHashes?: number;
  /** Look for a hash that does NOT meet the target (tests of low-difficulty shares). */
  miss?: boolean;
}

export interface FoundShare {
  jobId: string;
  extranonce2: string;
  ntime: string;
  nonce: string;
  versionBits?: string;
  hashes: number;
  hashValue: bigint;
}

let extranonce2Counter = 0;

/** The next extranonce2 of the given size (a process-wide counter, so searches do not repeat work). */
export function nextExtranonce2(size: number): string {
  extranonce2Counter = (extranonce2Counter + 1) % 2 ** Math.min(48, size * 8);
  return extranonce2Counter
    .toString(16)
    .padStart(size * 2, '0')
    .slice(-size * 2);
}

/**
 * Grinds nonces until a hash meets the session's share target (or, with `miss`, until one does not).
 * Returns undefined when `maxHashes` were tried without success.
 */
export function findShare(state: MinerState, pow: PowFunctions, search: ShareSearch = {}): FoundShare | undefined {
  const extranonce2 = search.extranonce2 ?? nextExtranonce2(state.extranonce2Size);
  const ntime = search.ntime ?? state.job.ntime;
  // BIP 310: the header carries the job's version outside the mask and the miner's bits inside it.
  const version =
    search.versionBits === undefined
      ? state.job.version
      : ((state.job.version & ~(state.versionMask ?? 0)) | search.versionBits) >>> 0;
  const header = buildHeader(state.job, state.extranonce1, extranonce2, ntime, 0, version);
  const target = pow.targetForDifficulty(state.difficulty);
  const startNonce = search.startNonce ?? 0;
  const maxHashes = search.maxHashes ?? 1_000_000;
  let result: { nonce: number | undefined; hashes: number; hashValue: bigint | undefined };
  if (search.miss) {
    result = { nonce: undefined, hashes: 0, hashValue: undefined };
    for (let i = 0; i < maxHashes; i++) {
      const nonce = (startNonce + i) >>> 0;
      header.writeUInt32LE(nonce, 76);
      const value = pow.hashValue(pow.hash(header));
      if (value > target) {
        result = { nonce, hashes: i + 1, hashValue: value };
        break;
      }
    }
  } else {
    result = grind(header, pow, target, startNonce, maxHashes);
  }
  if (result.nonce === undefined || result.hashValue === undefined) return undefined;
  const share: FoundShare = {
    jobId: state.job.jobId,
    extranonce2,
    ntime: hex32(ntime),
    nonce: hex32(result.nonce),
    hashes: result.hashes,
    hashValue: result.hashValue,
  };
  if (search.versionBits !== undefined) share.versionBits = hex32(search.versionBits);
  return share;
}
