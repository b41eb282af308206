/**
 * KHEAVYHASH (Kaspa), as kaspanet/rusty-kaspa consensus/pow and crypto/hashes compute it.
 *
 * - pre_pow_hash = Blake2b-256 keyed with "BlockHash" of the header serialized with timestamp and
 *   nonce set to 0 (`kaspaPrePowHash`; the block hash is the same with the real values). Constant for
 *   a job; stratum jobs carry it together with the timestamp.
 * - Work input of `hash`: the 80 bytes pre_pow_hash ‖ timestamp (u64 LE) ‖ 32 zero bytes ‖ nonce
 *   (u64 LE) (`kaspaPowInput`).
 * - Hash: h = cSHAKE256(N = "", S = "ProofOfWorkHash") of the 80 bytes (32 bytes out); the 64×64
 *   matrix of 4-bit values drawn from xoshiro256++ seeded with pre_pow_hash (four u64 LE words,
 *   sixteen nibbles per draw, low nibble first), drawn again until its rank is 64; the product of the
 *   matrix with h's 64 nibbles (high nibble first), each sum shifted right by 10, packed back into
 *   32 bytes and XORed with h; then cSHAKE256(S = "HeavyHash") of those 32 bytes.
 *   Matrices are cached per pre_pow_hash in a bounded LRU (`MATRIX_CACHE_CAPACITY` entries).
 * - Hash value: the 32 bytes read little-endian (`Uint256::from_le_bytes`); valid when <= target.
 * - Difficulty (stratum share difficulty): the convention of the Kaspa stratum bridges
 *   (kaspanet/rusty-kaspa bridge/src/hasher.rs, onemorebsmith/kaspa-stratum-bridge): difficulty 1 ⇔
 *   target 2^224 − 1, and one share of difficulty 1 stands for 2^32 hashes (their `minHash`). Miners
 *   that derive the target as 0xFFFF × 2^208 / D (tmrlvi kaspa-miner) aim at a target 0.0015% smaller,
 *   so every share they send also meets ours.
 *
 * The two cSHAKE256 calls are computed from precomputed states (the state after absorbing the cSHAKE
 * prefix block for each customization string, as rusty-kaspa's `PowHash`/`KHeavyHash` do) with the
 * unrolled Keccak-f[1600] of keccak.ts: one permutation each, no per-call allocation but the 32-byte
 * result. The code assumes a little-endian host (every platform Node supports in practice).
 */
import { blake2b } from '@noble/hashes/blake2.js';
import { checkInputLength, defineAlgorithm, type PowAlgorithm } from './algorithm.js';
import { keccakF1600 } from './keccak.js';
import { targetFromCompact } from './target.js';

if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) {
  throw new Error('kheavyhash: a big-endian host is not supported');
}

export const KASPA_POW_INPUT_LENGTH = 80;
const KECCAK_RATE = 136; // bytes, for 256-bit security

// ---------------------------------------------------------------------------------------------------
// cSHAKE256 with a fixed customization string and a short message

function leftEncode(value: number): number[] {
  const bytes: number[] = [];
  for (let v = value; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  if (bytes.length === 0) bytes.push(0);
  return [bytes.length, ...bytes];
}

/** The Keccak state after absorbing cSHAKE256's prefix block bytepad(encode_string("") ‖ encode_string(S), 136). */
export function cshake256PrefixState(customization: string): Uint32Array {
  const s = [...new TextEncoder().encode(customization)];
  const prefix = [...leftEncode(KECCAK_RATE), ...leftEncode(0), ...leftEncode(8 * s.length), ...s];
  if (prefix.length > KECCAK_RATE) throw new RangeError('customization string longer than one Keccak block');
  const state = new Uint32Array(50);
  const bytes = new Uint8Array(state.buffer);
  prefix.forEach((byte, i) => {
    bytes[i] = byte;
  });
  keccakF1600(state);
  return state;
}

const POW_PREFIX_STATE = cshake256PrefixState('ProofOfWorkHash');
const HEAVY_PREFIX_STATE = cshake256PrefixState('HeavyHash');
const keccakState = new Uint32Array(50);
const keccakBytes = new Uint8Array(keccakState.buffer);

/** cSHAKE256 (32 bytes out) of a message shorter than one block, starting from a prefix state. */
function cshakeShort(prefixState: Uint32Array, message: Uint8Array, out: Uint8Array): Uint8Array {
  keccakState.set(prefixState);
  for (let i = 0; i < message.length; i++) keccakBytes[i] = (keccakBytes[i] as number) ^ (message[i] as number);
  keccakBytes[message.length] = (keccakBytes[message.length] as number) ^ 0x04; // cSHAKE domain bits + pad start
  keccakBytes[KECCAK_RATE - 1] = (keccakBytes[KECCAK_RATE - 1] as number) ^ 0x80; // pad end
  keccakF1600(keccakState);
  out.set(keccakBytes.subarray(0, 32));
  return out;
}

/** cSHAKE256(S = "ProofOfWorkHash") of the 80-byte work input, 32 bytes. */
export function cshakeProofOfWorkHash(input: Uint8Array): Uint8Array {
  checkInputLength('kheavyhash', input, KASPA_POW_INPUT_LENGTH);
  return cshakeShort(POW_PREFIX_STATE, input, new Uint8Array(32));
}

/** cSHAKE256(S = "HeavyHash") of 32 bytes, 32 bytes. */
export function cshakeHeavyHash(data: Uint8Array): Uint8Array {
  checkInputLength('kheavyhash', data, 32);
  return cshakeShort(HEAVY_PREFIX_STATE, data, new Uint8Array(32));
}

// ---------------------------------------------------------------------------------------------------
// The matrix

const MASK64 = (1n << 64n) - 1n;

function rotl64(x: bigint, k: bigint): bigint {
  return ((x << k) | (x >> (64n - k))) & MASK64;
}

/** 64×64 nibbles, row-major: entry (i, j) at i * 64 + j. */
export type HeavyHashMatrix = Uint8Array;

/** Rank of the matrix by Gaussian elimination in floats with the epsilon rusty-kaspa uses (1e-9). */
export function matrixRank(matrix: HeavyHashMatrix): number {
  const EPS = 1e-9;
  const m = Float64Array.from(matrix);
  const rowSelected = new Uint8Array(64);
  let rank = 0;
  for (let i = 0; i < 64; i++) {
    let j = 0;
    while (j < 64 && (rowSelected[j] === 1 || Math.abs(m[j * 64 + i] as number) <= EPS)) j++;
    if (j === 64) continue;
    rank++;
    rowSelected[j] = 1;
    const pivot = m[j * 64 + i] as number;
    for (let p = i + 1; p < 64; p++) m[j * 64 + p] = (m[j * 64 + p] as number) / pivot;
    for (let k = 0; k < 64; k++) {
      const factor = m[k * 64 + i] as number;
      if (k === j || Math.abs(factor) <= EPS) continue;
      for (let p = i + 1; p < 64; p++) m[k * 64 + p] = (m[k * 64 + p] as number) - (m[j * 64 + p] as number) * factor;
    }
  }
  return rank;
}

/** The heavy-hash matrix for a pre_pow_hash: xoshiro256++ nibbles, regenerated until full rank. */
export function generateHeavyHashMatrix(prePowHash: Uint8Array): HeavyHashMatrix {
  checkInputLength('kheavyhash', prePowHash, 32);
  const seed = new DataView(prePowHash.buffer, prePowHash.byteOffset, 32);
  let s0 = seed.getBigUint64(0, true);
  let s1 = seed.getBigUint64(8, true);
  let s2 = seed.getBigUint64(16, true);
  let s3 = seed.getBigUint64(24, true);
  const matrix = new Uint8Array(64 * 64);
  for (;;) {
    for (let draw = 0; draw < 256; draw++) {
      const value = (rotl64((s0 + s3) & MASK64, 23n) + s0) & MASK64;
      const t = (s1 << 17n) & MASK64;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotl64(s3, 45n);
      let low = Number(value & 0xffffffffn);
      let high = Number(value >> 32n);
      const base = draw * 16;
      for (let n = 0; n < 8; n++, low >>>= 4) matrix[base + n] = low & 0x0f;
      for (let n = 8; n < 16; n++, high >>>= 4) matrix[base + n] = high & 0x0f;
    }
    if (matrixRank(matrix) === 64) return matrix;
  }
}

/**
 * A matrix with its rows paired for the product: entry (i, j) holds row 2i, column j in its low 16 bits
 * and row 2i + 1 in its high 16 bits, so one multiply-add serves both rows (each sum stays below
 * 64 × 15 × 15 = 14400, so the high half never carries into bit 31).
 */
type PairedMatrix = Uint32Array;

function pairRows(matrix: HeavyHashMatrix): PairedMatrix {
  checkInputLength('kheavyhash', matrix, 64 * 64);
  const paired = new Uint32Array(32 * 64);
  for (let i = 0; i < 32; i++) {
    for (let j = 0; j < 64; j++) {
      paired[i * 64 + j] = (matrix[128 * i + j] as number) | ((matrix[128 * i + 64 + j] as number) << 16);
    }
  }
  return paired;
}

const vector = new Uint32Array(64);
const product = new Uint8Array(32);

function heavyHashPaired(paired: PairedMatrix, hash: Uint8Array): Uint8Array {
  for (let i = 0; i < 32; i++) {
    const byte = hash[i] as number;
    vector[2 * i] = byte >>> 4;
    vector[2 * i + 1] = byte & 0x0f;
  }
  for (let i = 0, row = 0; i < 32; i++, row += 64) {
    let sums = 0;
    for (let j = 0; j < 64; j++) sums += (paired[row + j] as number) * (vector[j] as number);
    product[i] = ((((sums & 0xffff) >>> 10) << 4) | (sums >>> 26)) ^ (hash[i] as number);
  }
  return cshakeShort(HEAVY_PREFIX_STATE, product, new Uint8Array(32));
}

/** The heavy-hash step on a 32-byte hash: matrix × nibbles, XOR, then cSHAKE256("HeavyHash"). */
export function heavyHash(matrix: HeavyHashMatrix, hash: Uint8Array): Uint8Array {
  checkInputLength('kheavyhash', hash, 32);
  return heavyHashPaired(pairRows(matrix), hash);
}

// ---------------------------------------------------------------------------------------------------
// Matrix cache

export const MATRIX_CACHE_CAPACITY = 256;

interface CachedMatrix {
  matrix: HeavyHashMatrix;
  paired: PairedMatrix;
}

const matrixCache = new Map<string, CachedMatrix>();
let lastSeed: Uint8Array | undefined;
let lastEntry: CachedMatrix | undefined;

function sameBytes(a: Uint8Array, b: Uint8Array, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function seedKey(prePowHash: Uint8Array): string {
  let key = '';
  for (let i = 0; i < 32; i++) key += String.fromCharCode(prePowHash[i] as number);
  return key;
}

function cachedMatrix(prePowHash: Uint8Array): CachedMatrix {
  if (lastSeed && lastEntry && sameBytes(lastSeed, prePowHash, 32)) return lastEntry;
  const key = seedKey(prePowHash);
  let entry = matrixCache.get(key);
  if (entry) {
    matrixCache.delete(key);
  } else {
    const matrix = generateHeavyHashMatrix(prePowHash.subarray(0, 32));
    entry = { matrix, paired: pairRows(matrix) };
    if (matrixCache.size >= MATRIX_CACHE_CAPACITY) {
      const oldest = matrixCache.keys().next();
      if (!oldest.done) matrixCache.delete(oldest.value);
    }
  }
  matrixCache.set(key, entry);
  lastSeed = prePowHash.slice(0, 32);
  lastEntry = entry;
  return entry;
}

/** The matrix for a pre_pow_hash, from the LRU cache or generated (and cached). */
export function heavyHashMatrixFor(prePowHash: Uint8Array): HeavyHashMatrix {
  checkInputLength('kheavyhash', prePowHash, 32);
  return cachedMatrix(prePowHash).matrix;
}

/** Number of matrices currently cached (for tests and metrics). */
export function matrixCacheSize(): number {
  return matrixCache.size;
}

// ---------------------------------------------------------------------------------------------------
// Proof of work

const powHashScratch = new Uint8Array(32);

/** kHeavyHash of the 80-byte work input pre_pow_hash ‖ timestamp ‖ 32 zero bytes ‖ nonce. */
export function kheavyhash(input: Uint8Array): Uint8Array {
  checkInputLength('kheavyhash', input, KASPA_POW_INPUT_LENGTH);
  const { paired } = cachedMatrix(input.subarray(0, 32));
  return heavyHashPaired(paired, cshakeShort(POW_PREFIX_STATE, input, powHashScratch));
}

/** The 80-byte work input pre_pow_hash ‖ timestamp (u64 LE, ms) ‖ 32 zero bytes ‖ nonce (u64 LE). */
export function kaspaPowInput(prePowHash: Uint8Array, timestamp: bigint, nonce: bigint): Uint8Array {
  checkInputLength('kheavyhash', prePowHash, 32);
  const input = new Uint8Array(KASPA_POW_INPUT_LENGTH);
  input.set(prePowHash);
  const view = new DataView(input.buffer);
  view.setBigUint64(32, BigInt.asUintN(64, timestamp), true);
  view.setBigUint64(72, BigInt.asUintN(64, nonce), true);
  return input;
}

/** Writes `nonce` (u64 LE) into an 80-byte work input, in place. */
export function setKaspaNonce(input: Uint8Array, nonce: bigint): void {
  checkInputLength('kheavyhash', input, KASPA_POW_INPUT_LENGTH);
  new DataView(input.buffer, input.byteOffset, KASPA_POW_INPUT_LENGTH).setBigUint64(
    72,
    BigInt.asUintN(64, nonce),
    true,
  );
}

// ---------------------------------------------------------------------------------------------------
// Header hashing

export interface KaspaHeader {
  version: number;
  /** Parents by level (expanded): each level a list of 32-byte hashes. */
  parents: readonly (readonly Uint8Array[])[];
  hashMerkleRoot: Uint8Array;
  acceptedIdMerkleRoot: Uint8Array;
  utxoCommitment: Uint8Array;
  /** Milliseconds since the epoch. */
  timestamp: bigint;
  bits: number;
  nonce: bigint;
  daaScore: bigint;
  blueScore: bigint;
  blueWork: bigint;
  pruningPoint: Uint8Array;
}

const BLOCK_HASH_KEY = new TextEncoder().encode('BlockHash');

function u64le(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt.asUintN(64, value), true);
  return out;
}

function hash32(name: string, bytes: Uint8Array): Uint8Array {
  if (bytes.length !== 32) throw new RangeError(`Kaspa header ${name} must be 32 bytes, got ${bytes.length}`);
  return bytes;
}

/** Blue work as Kaspa hashes it: big-endian bytes without leading zeros, preceded by their count (u64 LE). */
function blueWorkBytes(blueWork: bigint): Uint8Array[] {
  if (blueWork < 0n) throw new RangeError('blue work must not be negative');
  let hex = blueWork === 0n ? '' : blueWork.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return [u64le(BigInt(bytes.length)), bytes];
}

function headerHash(header: KaspaHeader, timestamp: bigint, nonce: bigint): Uint8Array {
  const hasher = blake2b.create({ dkLen: 32, key: BLOCK_HASH_KEY });
  const version = new Uint8Array(2);
  new DataView(version.buffer).setUint16(0, header.version, true);
  hasher.update(version);
  hasher.update(u64le(BigInt(header.parents.length)));
  for (const level of header.parents) {
    hasher.update(u64le(BigInt(level.length)));
    for (const parent of level) hasher.update(hash32('parent', parent));
  }
  hasher.update(hash32('hashMerkleRoot', header.hashMerkleRoot));
  hasher.update(hash32('acceptedIdMerkleRoot', header.acceptedIdMerkleRoot));
  hasher.update(hash32('utxoCommitment', header.utxoCommitment));
  hasher.update(u64le(timestamp));
  const bits = new Uint8Array(4);
  new DataView(bits.buffer).setUint32(0, header.bits >>> 0, true);
  hasher.update(bits);
  hasher.update(u64le(nonce));
  hasher.update(u64le(header.daaScore));
  hasher.update(u64le(header.blueScore));
  for (const part of blueWorkBytes(header.blueWork)) hasher.update(part);
  hasher.update(hash32('pruningPoint', header.pruningPoint));
  return hasher.digest();
}

/** The block hash (Blake2b-256 keyed "BlockHash" of the serialized header). */
export function kaspaBlockHash(header: KaspaHeader): Uint8Array {
  return headerHash(header, header.timestamp, header.nonce);
}

/** pre_pow_hash: the block hash with timestamp and nonce set to 0. */
export function kaspaPrePowHash(header: KaspaHeader): Uint8Array {
  return headerHash(header, 0n, 0n);
}

/** Kaspa's compact `bits` → target (24-bit unsigned mantissa). */
export const kaspaTargetFromBits = targetFromCompact;

export const KHEAVYHASH_DIFF1_TARGET = (1n << 224n) - 1n;

export const kheavyhashPow: PowAlgorithm = defineAlgorithm({
  key: 'kheavyhash',
  hash: kheavyhash,
  byteOrder: 'le',
  diff1Target: KHEAVYHASH_DIFF1_TARGET,
  hashesPerDifficulty: 2 ** 32,
});
