import { concatBytes } from '../bitcoin/bytes.js';
import { encodeVarInt } from '../bitcoin/serialize.js';

/**
 * Dash's special transactions (DIP2). Dash Core keeps a transaction's version in 16 bits and its type
 * in the 16 above them, and writes both as one 32-bit field: `n32bitVersion = nVersion | (nType << 16)`
 * (src/primitives/transaction.h, SerializeTransaction). A transaction with version 3 and a type other
 * than 0 carries, after its lock time, an extra payload written as a byte vector: a CompactSize
 * length, then the bytes. The txid is sha256d over the whole serialization, payload included (Dash
 * has no segwit, so there is no other hash).
 */
export const SPECIAL_TX_VERSION = 3;
/** DIP4: the coinbase special transaction (CbTx), type 5 (src/primitives/transaction.h TRANSACTION_COINBASE). */
export const TRANSACTION_COINBASE = 5;

/** The 32-bit version field of a special transaction: version in the low 16 bits, type in the high 16. */
export function specialTxVersionField(type: number, version = SPECIAL_TX_VERSION): number {
  if (!Number.isInteger(type) || type < 0 || type > 0xffff)
    throw new RangeError(`bad special transaction type ${type}`);
  if (!Number.isInteger(version) || version < 0 || version > 0x7fff) throw new RangeError(`bad version ${version}`);
  return (version | (type << 16)) >>> 0;
}

/** Splits a serialized 32-bit version field into Dash's 16-bit version and type. */
export function splitVersionField(field: number): { version: number; type: number } {
  const unsigned = field >>> 0;
  return { version: unsigned & 0xffff, type: unsigned >>> 16 };
}

/** True when Dash Core reads an extra payload after the lock time (`nVersion == 3 && nType != TRANSACTION_NORMAL`). */
export function hasExtraPayload(field: number): boolean {
  const { version, type } = splitVersionField(field);
  return version === SPECIAL_TX_VERSION && type !== 0;
}

/** The bytes that follow the lock time of a special transaction: CompactSize(length) ‖ payload. */
export function extraPayloadBytes(payload: Uint8Array): Buffer {
  return concatBytes([encodeVarInt(payload.length), payload]);
}
