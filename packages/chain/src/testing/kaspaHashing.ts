/**
 * The stand-in kaspad's own hashing, written apart from packages/pow and ../kaspa so that the node
 * checks what the pool sends instead of agreeing with it by construction. Each object is serialized
 * whole into bytes and hashed once, as kaspanet/rusty-kaspa consensus/core/src/hashing/{header,tx}.rs
 * and crypto/merkle/src/lib.rs define it; checked against real blocks in kaspaHashing.test.ts.
 */
import { blake2b } from '@noble/hashes/blake2.js';

/** Bytes appended in order, then hashed. */
class Bytes {
  private readonly parts: number[] = [];

  raw(bytes: Uint8Array | readonly number[]): this {
    for (const b of bytes) this.parts.push(b);
    return this;
  }

  hex(hex: string): this {
    for (let i = 0; i < hex.length; i += 2) this.parts.push(Number.parseInt(hex.slice(i, i + 2), 16));
    return this;
  }

  uint(value: bigint | number, size: number): this {
    let v = BigInt(value);
    for (let i = 0; i < size; i++, v >>= 8n) this.parts.push(Number(v & 0xffn));
    return this;
  }

  /** A length (u64 LE) and the bytes. */
  varHex(hex: string): this {
    return this.uint(hex.length / 2, 8).hex(hex);
  }

  digest(key: string): string {
    const out = blake2b(Uint8Array.from(this.parts), { dkLen: 32, key: new TextEncoder().encode(key) });
    return Buffer.from(out).toString('hex');
  }
}

/** The header fields as JSON carries them (u64 fields as bigint or number). */
export interface HeaderFields {
  version: number;
  parentsByLevel: readonly (readonly string[])[];
  hashMerkleRoot: string;
  acceptedIdMerkleRoot: string;
  utxoCommitment: string;
  timestamp: bigint | number;
  bits: number;
  nonce: bigint | number;
  daaScore: bigint | number;
  blueScore: bigint | number;
  /** Big-endian hex, any length. */
  blueWork: string;
  pruningPoint: string;
}

/** The block hash; with `prePow` the pre-PoW hash (timestamp and nonce written as 0). */
export function headerHash(h: HeaderFields, prePow = false): string {
  const w = new Bytes().uint(h.version, 2).uint(h.parentsByLevel.length, 8);
  for (const level of h.parentsByLevel) {
    w.uint(level.length, 8);
    for (const parent of level) w.hex(parent);
  }
  w.hex(h.hashMerkleRoot).hex(h.acceptedIdMerkleRoot).hex(h.utxoCommitment);
  w.uint(prePow ? 0 : h.timestamp, 8)
    .uint(h.bits, 4)
    .uint(prePow ? 0 : h.nonce, 8);
  w.uint(h.daaScore, 8).uint(h.blueScore, 8);
  // Blue work: big-endian bytes without leading zeros, with their count.
  let work = BigInt(`0x${h.blueWork || '0'}`).toString(16);
  if (work === '0') work = '';
  if (work.length % 2) work = `0${work}`;
  w.varHex(work).hex(h.pruningPoint);
  return w.digest('BlockHash');
}

/** A transaction as RPC JSON carries it. */
export interface TransactionFields {
  version: number;
  inputs: readonly {
    previousOutpoint: { transactionId: string; index: number };
    signatureScript: string;
    sequence: bigint | number;
    sigOpCount?: number;
    computeBudget?: number;
  }[];
  outputs: readonly { value: bigint | number; scriptPublicKey: string; covenant?: unknown }[];
  lockTime: bigint | number;
  subnetworkId: string;
  gas: bigint | number;
  payload: string;
  storageMass?: bigint | number;
  mass?: bigint | number;
}

/** The transaction hash (not its id): what the header's hashMerkleRoot commits to. */
export function transactionHash(tx: TransactionFields): string {
  return writeTransaction(tx, false).digest('TransactionHash');
}

/** A version-0 transaction's id: signature scripts left out, no mass commitment. */
export function transactionIdV0(tx: TransactionFields): string {
  if (tx.version !== 0) throw new RangeError('the stand-in computes ids of version-0 transactions only');
  return writeTransaction(tx, true).digest('TransactionID');
}

function writeTransaction(tx: TransactionFields, forId: boolean): Bytes {
  const w = new Bytes().uint(tx.version, 2).uint(tx.inputs.length, 8);
  for (const input of tx.inputs) {
    w.hex(input.previousOutpoint.transactionId).uint(input.previousOutpoint.index, 4);
    if (forId) {
      w.uint(0, 8).uint(input.sequence, 8);
      continue;
    }
    w.varHex(input.signatureScript);
    // Version 0 commits to the sig-op count, version 1 and later to a compute budget instead.
    if (tx.version === 0) w.uint(input.sigOpCount ?? 0, 1);
    w.uint(input.sequence, 8);
    if (tx.version >= 1) w.uint(input.computeBudget ?? 0, 2);
  }
  w.uint(tx.outputs.length, 8);
  for (const output of tx.outputs) {
    // The script public key's hex starts with its version, big-endian; the hash writes it little-endian.
    const version = Number.parseInt(output.scriptPublicKey.slice(0, 4), 16);
    w.uint(output.value, 8).uint(version, 2).varHex(output.scriptPublicKey.slice(4));
    if (tx.version >= 1) {
      if (output.covenant !== undefined && output.covenant !== null) {
        throw new RangeError('the stand-in does not hash covenant outputs');
      }
      w.uint(0, 1);
    }
  }
  w.uint(tx.lockTime, 8).hex(tx.subnetworkId).uint(tx.gas, 8).varHex(tx.payload);
  const mass = BigInt(tx.storageMass ?? tx.mass ?? 0);
  if (!forId && (tx.version >= 1 || mass > 0n)) w.uint(mass, 8);
  return w;
}

const ZERO_HASH = '0'.repeat(64);

/** Kaspa's merkle root: pairs hashed with "MerkleBranchHash", a lone last node paired with zeros. */
export function merkleRoot(hashes: readonly string[]): string {
  if (hashes.length === 0) return ZERO_HASH;
  let level = [...hashes];
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) {
      next.push(
        new Bytes()
          .hex(level[i] as string)
          .hex(level[i + 1] ?? ZERO_HASH)
          .digest('MerkleBranchHash'),
      );
    }
    level = next;
  }
  return level[0] as string;
}

/** Compact bits → target (a mantissa of 3 bytes with a base-256 exponent). */
export function targetFromBits(bits: number): bigint {
  const exponent = bits >>> 24;
  const mantissa = BigInt(bits & 0x007fffff);
  return exponent <= 3 ? mantissa >> BigInt(8 * (3 - exponent)) : mantissa << BigInt(8 * (exponent - 3));
}
