import { createHash } from 'node:crypto';

/** A mining.notify as a miner reads it. */
export interface NotifyJob {
  jobId: string;
  /** Previous block hash in notify word order (each 4-byte word byte-swapped), hex. */
  prevHash: string;
  coinbase1: string;
  coinbase2: string;
  merkleBranch: string[];
  /** Block version, bits and ntime as numbers (notify sends them as big-endian hex). */
  version: number;
  bits: number;
  ntime: number;
  cleanJobs: boolean;
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

function hexField(value: unknown, name: string, bytes?: number): string {
  if (typeof value !== 'string' || !HEX.test(value) || (bytes !== undefined && value.length !== bytes * 2)) {
    throw new Error(`mining.notify: ${name} is not ${bytes === undefined ? 'hex' : `${bytes} bytes of hex`}`);
  }
  return value;
}

/** Reads mining.notify params; throws on anything malformed. */
export function parseNotify(params: unknown): NotifyJob {
  if (!Array.isArray(params) || params.length < 9) throw new Error('mining.notify: expected 9 params');
  const [jobId, prevHash, coinbase1, coinbase2, branch, version, bits, ntime, clean] = params;
  if (typeof jobId !== 'string') throw new Error('mining.notify: job id is not a string');
  if (!Array.isArray(branch)) throw new Error('mining.notify: merkle branch is not a list');
  return {
    jobId,
    prevHash: hexField(prevHash, 'prevhash', 32),
    coinbase1: hexField(coinbase1, 'coinbase1'),
    coinbase2: hexField(coinbase2, 'coinbase2'),
    merkleBranch: branch.map((h, i) => hexField(h, `merkle branch ${i}`, 32)),
    version: Number.parseInt(hexField(version, 'version', 4), 16),
    bits: Number.parseInt(hexField(bits, 'nbits', 4), 16),
    ntime: Number.parseInt(hexField(ntime, 'ntime', 4), 16),
    cleanJobs: clean === true,
  };
}

export function sha256d(data: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(data).digest()).digest();
}

/** Reverses the bytes of every 4-byte word (notify prevhash ↔ header bytes). */
export function swapWords(bytes: Uint8Array): Buffer {
  const out = Buffer.alloc(bytes.length);
  for (let i = 0; i < bytes.length; i += 4) {
    for (let j = 0; j < 4; j++) out[i + j] = bytes[i + 3 - j] as number;
  }
  return out;
}

/** sha256d(coinbase) folded with the branch: the header's merkle root (internal byte order). */
export function merkleRoot(coinbase: Uint8Array, branch: readonly string[]): Buffer {
  let root = sha256d(coinbase);
  for (const hash of branch) root = sha256d(Buffer.concat([root, Buffer.from(hash, 'hex')]));
  return root;
}

/** The 80-byte header a miner hashes for this job and these nonces. */
export function buildHeader(
  job: NotifyJob,
  extranonce1: string,
  extranonce2: string,
  ntime: number,
  nonce: number,
  version: number,
): Buffer {
  const coinbase = Buffer.from(job.coinbase1 + extranonce1 + extranonce2 + job.coinbase2, 'hex');
  const header = Buffer.alloc(80);
  header.writeUInt32LE(version >>> 0, 0);
  swapWords(Buffer.from(job.prevHash, 'hex')).copy(header, 4);
  merkleRoot(coinbase, job.merkleBranch).copy(header, 36);
  header.writeUInt32LE(ntime >>> 0, 68);
  header.writeUInt32LE(job.bits >>> 0, 72);
  header.writeUInt32LE(nonce >>> 0, 76);
  return header;
}

export interface Hasher {
  hash(header: Uint8Array): Uint8Array;
  hashValue(hash: Uint8Array): bigint;
}

export interface GrindResult {
  /** The first nonce whose hash meets the target, or undefined if none in the range. */
  nonce: number | undefined;
  hashes: number;
  hashValue: bigint | undefined;
}

/**
 * Tries nonces from `startNonce` until a hash meets `target` or `maxHashes` were tried. The header
 * is built once; only the nonce bytes change.
 */
export function grind(
  header: Buffer,
  hasher: Hasher,
  target: bigint,
  startNonce: number,
  maxHashes: number,
): GrindResult {
  for (let i = 0; i < maxHashes; i++) {
    const nonce = (startNonce + i) >>> 0;
    header.writeUInt32LE(nonce, 76);
    const value = hasher.hashValue(hasher.hash(header));
    if (value <= target) return { nonce, hashes: i + 1, hashValue: value };
  }
  return { nonce: undefined, hashes: maxHashes, hashValue: undefined };
}

export function hex32(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}
