/**
 * CKB's JSON number and byte encodings (nervosnetwork/ckb util/jsonrpc-types/src/{uints.rs,bytes.rs,fixed_bytes}):
 * - `Uint32`, `Uint64`, `Uint128`: "0x" and hex digits without redundant leading zeros ("0x0", "0x10";
 *   "0x01", "0x00" and "10" are refused);
 * - `H256` / `Byte32`: "0x" and exactly 64 hex digits;
 * - `JsonBytes`: "0x" and an even number of hex digits ("0x" is the empty string).
 * Parsing is strict so that a node's odd reply is a clear error naming the field, never a wrong number.
 */

/** Why a CKB JSON value could not be read; `field` names where it was. */
export class CkbEncodingError extends TypeError {
  override readonly name = 'CkbEncodingError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

const UINT = /^0x(?:0|[1-9a-fA-F][0-9a-fA-F]*)$/;
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;

export type CkbUintBits = 32 | 64 | 128;

/** A CKB `Uint32`/`Uint64`/`Uint128` JSON string as a bigint, refusing leading zeros, signs and overflow. */
export function parseCkbUint(value: unknown, field: string, bits: CkbUintBits = 64): bigint {
  if (typeof value !== 'string')
    throw new CkbEncodingError(field, `expected a Uint${bits} hex string, got ${describe(value)}`);
  if (!value.startsWith('0x')) throw new CkbEncodingError(field, `Uint${bits} ${value} has no 0x prefix`);
  if (!UINT.test(value)) {
    const reason = /^0x0[0-9a-fA-F]/.test(value) ? 'redundant leading zeros' : 'not hex digits';
    throw new CkbEncodingError(field, `Uint${bits} ${value} has ${reason}`);
  }
  const n = BigInt(value);
  if (n >= 1n << BigInt(bits)) throw new CkbEncodingError(field, `${value} does not fit in Uint${bits}`);
  return n;
}

/** A `Uint32` as a number. */
export function parseCkbUint32(value: unknown, field: string): number {
  return Number(parseCkbUint(value, field, 32));
}

/** A `Uint64` that must be a safe JavaScript integer (block numbers, counts). */
export function parseCkbSafeUint(value: unknown, field: string): number {
  const n = parseCkbUint(value, field, 64);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new CkbEncodingError(field, `${value} is beyond 2^53`);
  return Number(n);
}

/** The CKB JSON form of an unsigned integer: "0x" and lower-case hex, no leading zeros. */
export function toCkbUint(value: bigint | number, bits: CkbUintBits = 64): string {
  const n = BigInt(value);
  if (n < 0n || n >= 1n << BigInt(bits)) throw new RangeError(`${value} is not a Uint${bits}`);
  return `0x${n.toString(16)}`;
}

/** An `H256`/`Byte32` JSON string, lower-cased. */
export function parseCkbHash(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(value)) {
    throw new CkbEncodingError(field, `expected 0x and 64 hex digits, got ${describe(value)}`);
  }
  return value.toLowerCase();
}

/** A `JsonBytes` string (0x and an even number of hex digits), lower-cased. */
export function parseCkbBytes(value: unknown, field: string, byteLength?: number): string {
  if (typeof value !== 'string' || !HEX_BYTES.test(value)) {
    throw new CkbEncodingError(field, `expected 0x and an even number of hex digits, got ${describe(value)}`);
  }
  if (byteLength !== undefined && value.length !== 2 + 2 * byteLength) {
    throw new CkbEncodingError(field, `expected ${byteLength} bytes, got ${(value.length - 2) / 2}`);
  }
  return value.toLowerCase();
}

/** 0x-hex → bytes (the value must already be checked). */
export function ckbHexToBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
}

/** Bytes → 0x-hex, lower case. */
export function bytesToCkbHex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}

/** The header's u128 `nonce` for the 16 nonce bytes a miner hashed: those bytes read little-endian. */
export function nonceFromBytes(nonce16: Uint8Array): bigint {
  if (nonce16.length !== 16) throw new RangeError(`a CKB nonce is 16 bytes, got ${nonce16.length}`);
  let n = 0n;
  for (let i = 15; i >= 0; i--) n = (n << 8n) | BigInt(nonce16[i] as number);
  return n;
}

/** The 16 bytes of a u128 nonce as they enter the pow message (little-endian). */
export function nonceToBytes(nonce: bigint): Uint8Array {
  if (nonce < 0n || nonce >= 1n << 128n) throw new RangeError(`${nonce} is not a u128 nonce`);
  const out = new Uint8Array(16);
  let n = nonce;
  for (let i = 0; i < 16; i++) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return out;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}
