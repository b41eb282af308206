/**
 * EAGLESONG (Nervos CKB).
 *
 * Eaglesong is the sponge hash of the CKB RFC 0010 (nervosnetwork/rfcs rfcs/0010-eaglesong): a
 * 512-bit state of sixteen 32-bit words, rate 256 bits, delimiter 0x06, and a 43-round ARX permutation
 * (bit-matrix mix, circulant multiplication, constant injection, addition-rotation-addition). The 688
 * injection constants are, as the RFC defines them, the first 2752 bytes of SHAKE256 of the Hayek
 * sentence below, read as little-endian 32-bit words; they are derived here at load time rather than
 * copied. Input bytes enter the state big-endian within each word (a final partial word holds its bytes
 * and the delimiter right-aligned, exactly as the reference code does); output words leave little-endian.
 *
 * CKB proof of work:
 * - pow_hash = Blake2b-256 with personalization "ckb-default-hash" of the 192-byte molecule RawHeader
 *   (version u32, compact_target u32, timestamp u64, number u64, epoch u64, parent_hash,
 *   transactions_root, proposals_hash, extra_hash, dao; integers little-endian). The block hash is the
 *   same Blake2b over RawHeader ‖ nonce (u128 LE).
 * - Work input of `hash`: the 48-byte pow message pow_hash ‖ nonce (u128 little-endian).
 * - Hash: Eaglesong(pow message), 32 bytes.
 * - Hash value: the 32 bytes read big-endian (CKB compares `U256::from_big_endian(output)` with the
 *   target of `compact_target`, see `targetFromCompact`).
 * - Difficulty: difficulty = 2^256 / target, so diff1Target = 2^256 − 1 and hashesPerDifficulty = 1.
 */
import { blake2b } from '@noble/hashes/blake2.js';
import { shake256 } from '@noble/hashes/sha3.js';
import { checkInputLength, defineAlgorithm, type PowAlgorithm } from './algorithm.js';
import { MAX_UINT256 } from './uint256.js';

const ROUNDS = 43;
const RATE_BYTES = 32;
const DELIMITER = 0x06;

const CONSTANTS_SEED =
  'The various ways in which the knowledge on which people base their plan is communicated to them is the crucial problem for any theory explaining the economic process, and the problem of what is the best way to utilizing knowledge initially dispersed among all the people is at least one of the main problems of economic policy - or of designing an efficient economic system.';

function deriveInjectionConstants(): Uint32Array {
  const bytes = shake256(new TextEncoder().encode(CONSTANTS_SEED), { dkLen: ROUNDS * 16 * 4 });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const constants = new Uint32Array(ROUNDS * 16);
  for (let i = 0; i < constants.length; i++) constants[i] = view.getUint32(4 * i, true);
  return constants;
}

/** The 688 round constants, 16 per round. */
export const EAGLESONG_INJECTION_CONSTANTS: Uint32Array = deriveInjectionConstants();

/** The Eaglesong permutation F, applied in place to a 16-word state. */
export function eaglesongPermutation(state: Uint32Array): void {
  const ic = EAGLESONG_INJECTION_CONSTANTS;
  let s0 = state[0] as number;
  let s1 = state[1] as number;
  let s2 = state[2] as number;
  let s3 = state[3] as number;
  let s4 = state[4] as number;
  let s5 = state[5] as number;
  let s6 = state[6] as number;
  let s7 = state[7] as number;
  let s8 = state[8] as number;
  let s9 = state[9] as number;
  let s10 = state[10] as number;
  let s11 = state[11] as number;
  let s12 = state[12] as number;
  let s13 = state[13] as number;
  let s14 = state[14] as number;
  let s15 = state[15] as number;
  for (let c = 0; c < ROUNDS * 16; c += 16) {
    // bit matrix: new[j] = XOR of s[k] over the rows k whose column j is 1
    let t0 = s0 ^ s4 ^ s5 ^ s6 ^ s7 ^ s12 ^ s15;
    let t1 = s0 ^ s1 ^ s4 ^ s8 ^ s12 ^ s13 ^ s15;
    let t2 = s0 ^ s1 ^ s2 ^ s4 ^ s6 ^ s7 ^ s9 ^ s12 ^ s13 ^ s14 ^ s15;
    let t3 = s0 ^ s1 ^ s2 ^ s3 ^ s4 ^ s6 ^ s8 ^ s10 ^ s12 ^ s13 ^ s14;
    let t4 = s1 ^ s2 ^ s3 ^ s4 ^ s5 ^ s7 ^ s9 ^ s11 ^ s13 ^ s14 ^ s15;
    let t5 = s0 ^ s2 ^ s3 ^ s7 ^ s8 ^ s10 ^ s14;
    let t6 = s1 ^ s3 ^ s4 ^ s8 ^ s9 ^ s11 ^ s15;
    let t7 = s0 ^ s2 ^ s6 ^ s7 ^ s9 ^ s10 ^ s15;
    let t8 = s0 ^ s1 ^ s3 ^ s4 ^ s5 ^ s6 ^ s8 ^ s10 ^ s11 ^ s12 ^ s15;
    let t9 = s0 ^ s1 ^ s2 ^ s9 ^ s11 ^ s13 ^ s15;
    let t10 = s0 ^ s1 ^ s2 ^ s3 ^ s4 ^ s5 ^ s6 ^ s7 ^ s10 ^ s14 ^ s15;
    let t11 = s0 ^ s1 ^ s2 ^ s3 ^ s8 ^ s11 ^ s12;
    let t12 = s1 ^ s2 ^ s3 ^ s4 ^ s9 ^ s12 ^ s13;
    let t13 = s2 ^ s3 ^ s4 ^ s5 ^ s10 ^ s13 ^ s14;
    let t14 = s3 ^ s4 ^ s5 ^ s6 ^ s11 ^ s14 ^ s15;
    let t15 = s0 ^ s1 ^ s2 ^ s3 ^ s5 ^ s7 ^ s8 ^ s9 ^ s10 ^ s11 ^ s15;
    // circulant multiplication, then constants injection
    t0 = (t0 ^ ((t0 << 2) | (t0 >>> 30)) ^ ((t0 << 4) | (t0 >>> 28)) ^ (ic[c + 0] as number)) | 0;
    t1 = (t1 ^ ((t1 << 13) | (t1 >>> 19)) ^ ((t1 << 22) | (t1 >>> 10)) ^ (ic[c + 1] as number)) | 0;
    t2 = (t2 ^ ((t2 << 4) | (t2 >>> 28)) ^ ((t2 << 19) | (t2 >>> 13)) ^ (ic[c + 2] as number)) | 0;
    t3 = (t3 ^ ((t3 << 3) | (t3 >>> 29)) ^ ((t3 << 14) | (t3 >>> 18)) ^ (ic[c + 3] as number)) | 0;
    t4 = (t4 ^ ((t4 << 27) | (t4 >>> 5)) ^ ((t4 << 31) | (t4 >>> 1)) ^ (ic[c + 4] as number)) | 0;
    t5 = (t5 ^ ((t5 << 3) | (t5 >>> 29)) ^ ((t5 << 8) | (t5 >>> 24)) ^ (ic[c + 5] as number)) | 0;
    t6 = (t6 ^ ((t6 << 17) | (t6 >>> 15)) ^ ((t6 << 26) | (t6 >>> 6)) ^ (ic[c + 6] as number)) | 0;
    t7 = (t7 ^ ((t7 << 3) | (t7 >>> 29)) ^ ((t7 << 12) | (t7 >>> 20)) ^ (ic[c + 7] as number)) | 0;
    t8 = (t8 ^ ((t8 << 18) | (t8 >>> 14)) ^ ((t8 << 22) | (t8 >>> 10)) ^ (ic[c + 8] as number)) | 0;
    t9 = (t9 ^ ((t9 << 12) | (t9 >>> 20)) ^ ((t9 << 18) | (t9 >>> 14)) ^ (ic[c + 9] as number)) | 0;
    t10 = (t10 ^ ((t10 << 4) | (t10 >>> 28)) ^ ((t10 << 7) | (t10 >>> 25)) ^ (ic[c + 10] as number)) | 0;
    t11 = (t11 ^ ((t11 << 4) | (t11 >>> 28)) ^ ((t11 << 31) | (t11 >>> 1)) ^ (ic[c + 11] as number)) | 0;
    t12 = (t12 ^ ((t12 << 12) | (t12 >>> 20)) ^ ((t12 << 27) | (t12 >>> 5)) ^ (ic[c + 12] as number)) | 0;
    t13 = (t13 ^ ((t13 << 7) | (t13 >>> 25)) ^ ((t13 << 17) | (t13 >>> 15)) ^ (ic[c + 13] as number)) | 0;
    t14 = (t14 ^ ((t14 << 7) | (t14 >>> 25)) ^ ((t14 << 8) | (t14 >>> 24)) ^ (ic[c + 14] as number)) | 0;
    t15 = (t15 ^ ((t15 << 1) | (t15 >>> 31)) ^ ((t15 << 13) | (t15 >>> 19)) ^ (ic[c + 15] as number)) | 0;
    // addition / rotation / addition on pairs
    t0 = (t0 + t1) | 0;
    s0 = (t0 << 8) | (t0 >>> 24);
    s1 = (s0 + ((t1 << 24) | (t1 >>> 8))) | 0;
    t2 = (t2 + t3) | 0;
    s2 = (t2 << 8) | (t2 >>> 24);
    s3 = (s2 + ((t3 << 24) | (t3 >>> 8))) | 0;
    t4 = (t4 + t5) | 0;
    s4 = (t4 << 8) | (t4 >>> 24);
    s5 = (s4 + ((t5 << 24) | (t5 >>> 8))) | 0;
    t6 = (t6 + t7) | 0;
    s6 = (t6 << 8) | (t6 >>> 24);
    s7 = (s6 + ((t7 << 24) | (t7 >>> 8))) | 0;
    t8 = (t8 + t9) | 0;
    s8 = (t8 << 8) | (t8 >>> 24);
    s9 = (s8 + ((t9 << 24) | (t9 >>> 8))) | 0;
    t10 = (t10 + t11) | 0;
    s10 = (t10 << 8) | (t10 >>> 24);
    s11 = (s10 + ((t11 << 24) | (t11 >>> 8))) | 0;
    t12 = (t12 + t13) | 0;
    s12 = (t12 << 8) | (t12 >>> 24);
    s13 = (s12 + ((t13 << 24) | (t13 >>> 8))) | 0;
    t14 = (t14 + t15) | 0;
    s14 = (t14 << 8) | (t14 >>> 24);
    s15 = (s14 + ((t15 << 24) | (t15 >>> 8))) | 0;
  }
  state[0] = s0;
  state[1] = s1;
  state[2] = s2;
  state[3] = s3;
  state[4] = s4;
  state[5] = s5;
  state[6] = s6;
  state[7] = s7;
  state[8] = s8;
  state[9] = s9;
  state[10] = s10;
  state[11] = s11;
  state[12] = s12;
  state[13] = s13;
  state[14] = s14;
  state[15] = s15;
}

const sponge = new Uint32Array(16);

/** Eaglesong-256 of any input (the RFC's EaglesongHash: sponge with delimiter 0x06, 32 output bytes). */
export function eaglesong(input: Uint8Array): Uint8Array {
  const state = sponge;
  state.fill(0);
  const length = input.length;
  const blocks = Math.floor(((length + 1) * 8 + RATE_BYTES * 8 - 1) / (RATE_BYTES * 8));
  for (let block = 0; block < blocks; block++) {
    for (let word = 0; word < 8; word++) {
      let integer = 0;
      for (let k = 0; k < 4; k++) {
        const index = block * RATE_BYTES + word * 4 + k;
        if (index < length) integer = (integer << 8) ^ (input[index] as number);
        else if (index === length) integer = (integer << 8) ^ DELIMITER;
      }
      state[word] = (state[word] as number) ^ integer;
    }
    eaglesongPermutation(state);
  }
  // Squeeze one rate-sized block (32 bytes); the reference's permutation after it changes no output.
  const out = new Uint8Array(32);
  for (let word = 0; word < 8; word++) {
    const w = state[word] as number;
    out[4 * word] = w & 0xff;
    out[4 * word + 1] = (w >>> 8) & 0xff;
    out[4 * word + 2] = (w >>> 16) & 0xff;
    out[4 * word + 3] = w >>> 24;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// CKB header helpers

export const CKB_RAW_HEADER_LENGTH = 192;
export const CKB_POW_MESSAGE_LENGTH = 48;

const CKB_PERSONALIZATION = new TextEncoder().encode('ckb-default-hash');

/** CKB's blake2b_256: Blake2b, 32-byte output, personalization "ckb-default-hash". */
export function ckbHash(data: Uint8Array): Uint8Array {
  return blake2b(data, { dkLen: 32, personalization: CKB_PERSONALIZATION });
}

export interface CkbRawHeader {
  version: number;
  compactTarget: number;
  /** Milliseconds since the epoch. */
  timestamp: bigint;
  number: bigint;
  /** The packed epoch number-with-fraction, as in the header. */
  epoch: bigint;
  parentHash: Uint8Array;
  transactionsRoot: Uint8Array;
  proposalsHash: Uint8Array;
  extraHash: Uint8Array;
  dao: Uint8Array;
}

/** The 192-byte molecule serialization of a RawHeader. Hash fields are in RPC order (the hex as shown). */
export function encodeCkbRawHeader(header: CkbRawHeader): Uint8Array {
  const out = new Uint8Array(CKB_RAW_HEADER_LENGTH);
  const view = new DataView(out.buffer);
  view.setUint32(0, header.version >>> 0, true);
  view.setUint32(4, header.compactTarget >>> 0, true);
  view.setBigUint64(8, BigInt.asUintN(64, header.timestamp), true);
  view.setBigUint64(16, BigInt.asUintN(64, header.number), true);
  view.setBigUint64(24, BigInt.asUintN(64, header.epoch), true);
  const hashes = [header.parentHash, header.transactionsRoot, header.proposalsHash, header.extraHash, header.dao];
  hashes.forEach((hash, i) => {
    if (hash.length !== 32) throw new RangeError(`CKB header hash field ${i} must be 32 bytes, got ${hash.length}`);
    out.set(hash, 32 + 32 * i);
  });
  return out;
}

/** pow_hash: the personalized Blake2b-256 of the 192-byte raw header (constant for a job). */
export function ckbPowHash(rawHeader: Uint8Array): Uint8Array {
  checkInputLength('eaglesong', rawHeader, CKB_RAW_HEADER_LENGTH);
  return ckbHash(rawHeader);
}

function nonceBytes(nonce: bigint): Uint8Array {
  if (nonce < 0n || nonce >= 1n << 128n)
    throw new RangeError(`CKB nonce must be an unsigned 128-bit integer, got ${nonce}`);
  const out = new Uint8Array(16);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt.asUintN(64, nonce), true);
  view.setBigUint64(8, nonce >> 64n, true);
  return out;
}

/** The block hash: the personalized Blake2b-256 of raw header ‖ nonce (u128 LE). */
export function ckbBlockHash(rawHeader: Uint8Array, nonce: bigint): Uint8Array {
  checkInputLength('eaglesong', rawHeader, CKB_RAW_HEADER_LENGTH);
  const data = new Uint8Array(CKB_RAW_HEADER_LENGTH + 16);
  data.set(rawHeader);
  data.set(nonceBytes(nonce), CKB_RAW_HEADER_LENGTH);
  return ckbHash(data);
}

/** The 48-byte pow message pow_hash ‖ nonce (u128 LE) that Eaglesong hashes. */
export function ckbPowMessage(powHash: Uint8Array, nonce: bigint): Uint8Array {
  if (powHash.length !== 32) throw new RangeError(`pow_hash must be 32 bytes, got ${powHash.length}`);
  const message = new Uint8Array(CKB_POW_MESSAGE_LENGTH);
  message.set(powHash);
  message.set(nonceBytes(nonce), 32);
  return message;
}

/** Eaglesong of a 48-byte pow message. */
export function eaglesongPowMessage(message: Uint8Array): Uint8Array {
  checkInputLength('eaglesong', message, CKB_POW_MESSAGE_LENGTH);
  return eaglesong(message);
}

export const eaglesongPow: PowAlgorithm = defineAlgorithm({
  key: 'eaglesong',
  hash: eaglesongPowMessage,
  byteOrder: 'be',
  diff1Target: MAX_UINT256,
  hashesPerDifficulty: 1,
});
