/**
 * The stand-in CKB node's own transaction checks, written apart from the pool's wallet (which builds and
 * signs with @ckb-ccc/core): molecule from the stand-in's encoder (ckbMolecule.ts), ckbhash from
 * @lodestone/pow, public-key recovery from @noble/curves. Proven on a real signed mainnet transaction
 * (fixtures/ckb-mainnet-tx-79238be9.json), so a mistake on either side shows as a refusal, never as
 * agreement with itself.
 */
import { ckbHash } from '@lodestone/pow';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { CkbJsonCellOutput, CkbJsonScript, CkbJsonTransaction } from '../ckb/types.js';
import { encodeRawTransaction, encodeTransaction, hashHex } from './ckbMolecule.js';

const SHANNONS_PER_BYTE = 100_000_000n;

/** The transaction hash: ckbhash of the molecule RawTransaction (RFC 0022, "Transaction hash"). */
export function transactionHash(tx: CkbJsonTransaction): string {
  return hashHex(encodeRawTransaction(tx));
}

/**
 * The size the fee rate is measured on: the molecule Transaction plus the 4-byte offset it takes in a
 * block's transaction vector (nervosnetwork/ckb util/types `serialized_size_in_block`).
 */
export function sizeInBlock(tx: CkbJsonTransaction): number {
  return encodeTransaction(tx).length + 4;
}

/**
 * The capacity an output must at least hold: one CKByte (10^8 shannons) per byte of the cell — its 8-byte
 * capacity field, the lock's code hash (32), hash type (1) and args, the type script likewise, and the data
 * (RFC 0022, "Cell"; ckb util/types `CellOutput::occupied_capacity`).
 */
export function occupiedCapacity(output: CkbJsonCellOutput, data: string): bigint {
  const script = (s: CkbJsonScript) => 33 + (s.args.length - 2) / 2;
  const bytes = 8 + script(output.lock) + (output.type ? script(output.type) : 0) + (data.length - 2) / 2;
  return BigInt(bytes) * SHANNONS_PER_BYTE;
}

/** Why a sighash-all lock refuses a transaction: the system script's exit code (ckb-system-scripts c/common.h). */
export class SighashRefusal extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** Exit codes of secp256k1_blake160_sighash_all.c (nervosnetwork/ckb-system-scripts c/common.h). */
export const SIGHASH_EXIT = {
  encoding: -2,
  recoverPubkey: -11,
  witnessSize: -22,
  pubkeyBlake160Hash: -31,
} as const;

/**
 * The blake160 (first 20 bytes of ckbhash of the compressed public key) that signed the lock group made of
 * the inputs at `group` (ascending). The message, as secp256k1_blake160_sighash_all.c computes it: ckbhash of
 * the tx hash; the first group witness as a WitnessArgs with its 65-byte lock zeroed, length first (u64 LE);
 * every other group witness, length first; every witness past the inputs, length first. The signature is
 * r ‖ s ‖ recovery id.
 */
export function sighashAllSigner(tx: CkbJsonTransaction, group: readonly number[]): string {
  const first = group[0];
  if (first === undefined) throw new RangeError('an empty lock group');
  const witness = hexToBuffer(tx.witnesses[first] ?? '0x');
  const lock = witnessArgsLock(witness);
  if (lock === undefined) {
    throw new SighashRefusal(SIGHASH_EXIT.encoding, `witness ${first} is not a WitnessArgs with a lock`);
  }
  if (lock.length !== 65) throw new SighashRefusal(SIGHASH_EXIT.witnessSize, `the lock field has ${lock.length} bytes`);
  const signature = Buffer.from(lock.bytes);
  const zeroed = Buffer.from(witness);
  zeroed.fill(0, lock.start, lock.start + 65);

  const parts: Buffer[] = [hexToBuffer(transactionHash(tx)), lengthPrefixed(zeroed)];
  for (const index of group.slice(1)) parts.push(lengthPrefixed(hexToBuffer(tx.witnesses[index] ?? '0x')));
  for (let i = tx.inputs.length; i < tx.witnesses.length; i++) {
    parts.push(lengthPrefixed(hexToBuffer(tx.witnesses[i] as string)));
  }
  const message = ckbHash(Buffer.concat(parts));

  let publicKey: Uint8Array;
  try {
    const recovery = signature[64] as number;
    const compact = Uint8Array.of(recovery, ...signature.subarray(0, 64));
    publicKey = secp256k1.Signature.fromBytes(compact, 'recovered').recoverPublicKey(message).toBytes(true);
  } catch (error) {
    throw new SighashRefusal(SIGHASH_EXIT.recoverPubkey, `no public key recovers: ${(error as Error).message}`);
  }
  return `0x${Buffer.from(ckbHash(publicKey).subarray(0, 20)).toString('hex')}`;
}

/** The lock field of a molecule WitnessArgs (table of three BytesOpt), or undefined when it is not one. */
function witnessArgsLock(witness: Buffer): { start: number; length: number; bytes: Buffer } | undefined {
  if (witness.length < 16) return undefined;
  const total = witness.readUInt32LE(0);
  const firstOffset = witness.readUInt32LE(4);
  if (total !== witness.length || firstOffset !== 16) return undefined;
  const lockStart = firstOffset;
  const lockEnd = witness.readUInt32LE(8);
  if (lockEnd < lockStart || lockEnd > total || witness.readUInt32LE(12) < lockEnd) return undefined;
  if (lockEnd === lockStart) return undefined; // BytesOpt None
  const length = witness.readUInt32LE(lockStart);
  if (4 + length !== lockEnd - lockStart) return undefined;
  return { start: lockStart + 4, length, bytes: witness.subarray(lockStart + 4, lockEnd) };
}

function lengthPrefixed(bytes: Buffer): Buffer {
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(bytes.length));
  return Buffer.concat([length, bytes]);
}

function hexToBuffer(hex: string): Buffer {
  return Buffer.from(hex.slice(2), 'hex');
}
