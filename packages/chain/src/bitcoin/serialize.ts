/**
 * Bitcoin's wire encodings: CompactSize ("varint"), script pushes and script numbers.
 * See Bitcoin Core src/serialize.h (WriteCompactSize) and src/script/script.h (CScriptNum, CScript::push_int64).
 */

export function encodeVarInt(value: number | bigint): Buffer {
  const n = BigInt(value);
  if (n < 0n) throw new RangeError('varint cannot be negative');
  if (n < 0xfdn) return Buffer.from([Number(n)]);
  if (n <= 0xffffn) {
    const out = Buffer.allocUnsafe(3);
    out[0] = 0xfd;
    out.writeUInt16LE(Number(n), 1);
    return out;
  }
  if (n <= 0xffffffffn) {
    const out = Buffer.allocUnsafe(5);
    out[0] = 0xfe;
    out.writeUInt32LE(Number(n), 1);
    return out;
  }
  if (n > 0xffffffffffffffffn) throw new RangeError('varint exceeds 64 bits');
  const out = Buffer.allocUnsafe(9);
  out[0] = 0xff;
  out.writeBigUInt64LE(n, 1);
  return out;
}

/** Minimal little-endian sign-magnitude encoding of a script number (CScriptNum::serialize). */
export function encodeScriptNumber(value: number): Buffer {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${value} is not a safe integer`);
  if (value === 0) return Buffer.alloc(0);
  const negative = value < 0;
  let abs = Math.abs(value);
  const bytes: number[] = [];
  while (abs > 0) {
    bytes.push(abs & 0xff);
    abs = Math.floor(abs / 256);
  }
  const last = bytes.length - 1;
  if (((bytes[last] ?? 0) & 0x80) !== 0) bytes.push(negative ? 0x80 : 0x00);
  else if (negative) bytes[last] = (bytes[last] ?? 0) | 0x80;
  return Buffer.from(bytes);
}

export const OP_0 = 0x00;
export const OP_PUSHDATA1 = 0x4c;
export const OP_PUSHDATA2 = 0x4d;
export const OP_PUSHDATA4 = 0x4e;
export const OP_1NEGATE = 0x4f;
export const OP_1 = 0x51;
export const OP_DUP = 0x76;
export const OP_EQUAL = 0x87;
export const OP_EQUALVERIFY = 0x88;
export const OP_HASH160 = 0xa9;
export const OP_CHECKSIG = 0xac;

/** A data push with the smallest push opcode for its length. */
export function pushData(data: Uint8Array): Buffer {
  const n = data.length;
  let prefix: Buffer;
  if (n < OP_PUSHDATA1) prefix = Buffer.from([n]);
  else if (n <= 0xff) prefix = Buffer.from([OP_PUSHDATA1, n]);
  else if (n <= 0xffff) {
    prefix = Buffer.allocUnsafe(3);
    prefix[0] = OP_PUSHDATA2;
    prefix.writeUInt16LE(n, 1);
  } else {
    prefix = Buffer.allocUnsafe(5);
    prefix[0] = OP_PUSHDATA4;
    prefix.writeUInt32LE(n, 1);
  }
  return Buffer.concat([prefix, data]);
}

/**
 * A number pushed the way `CScript() << n` does it: OP_0, OP_1NEGATE and OP_1..OP_16 for the small
 * values, otherwise a push of the script number. BIP34 compares the coinbase scriptSig's prefix with
 * exactly this (Bitcoin Core validation.cpp ContextualCheckBlock: `CScript() << nHeight`), so a block at
 * height 1..16 starts its scriptSig with OP_1..OP_16, not with a one-byte push.
 */
export function pushNumber(value: number): Buffer {
  if (value === 0) return Buffer.from([OP_0]);
  if (value === -1) return Buffer.from([OP_1NEGATE]);
  if (value >= 1 && value <= 16) return Buffer.from([OP_1 + value - 1]);
  return pushData(encodeScriptNumber(value));
}

/** The BIP34 height prefix of a coinbase scriptSig. */
export function bip34HeightPush(height: number): Buffer {
  if (!Number.isInteger(height) || height < 0) throw new RangeError(`bad block height ${height}`);
  return pushNumber(height);
}
