import { sha256d } from './hash.js';
import type { ChainNetwork } from './networks.js';
import { OP_0, OP_1, OP_CHECKSIG, OP_DUP, OP_EQUAL, OP_EQUALVERIFY, OP_HASH160, pushData } from './serialize.js';

/** An address the pool cannot pay to on the given network, with the reason. */
export class InvalidAddressError extends Error {
  override readonly name = 'InvalidAddressError';
  constructor(
    readonly address: string,
    readonly reason: string,
  ) {
    super(`invalid address ${JSON.stringify(address)}: ${reason}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Base58Check

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_INDEX = new Map([...BASE58].map((c, i) => [c, i]));

export function base58Decode(text: string): Buffer {
  const digits: number[] = [];
  for (const c of text) {
    const v = BASE58_INDEX.get(c);
    if (v === undefined) throw new TypeError(`invalid base58 character ${JSON.stringify(c)}`);
    // digits (little-endian, base 256) = digits * 58 + v
    let carry = v;
    for (let i = 0; i < digits.length; i++) {
      carry += (digits[i] ?? 0) * 58;
      digits[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      digits.push(carry & 0xff);
      carry >>= 8;
    }
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(digits.reverse())]);
}

export function base58Encode(bytes: Uint8Array): string {
  const digits: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += (digits[i] ?? 0) << 8;
      digits[i] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let out = '';
  for (const byte of bytes) {
    if (byte !== 0) break;
    out += '1';
  }
  for (let i = digits.length - 1; i >= 0; i--) out += BASE58[digits[i] ?? 0];
  return out;
}

export function base58CheckDecode(text: string): Buffer {
  const raw = base58Decode(text);
  if (raw.length < 5) throw new TypeError('base58check payload too short');
  const payload = raw.subarray(0, raw.length - 4);
  const checksum = sha256d(payload).subarray(0, 4);
  if (!checksum.equals(raw.subarray(raw.length - 4))) throw new TypeError('base58check checksum mismatch');
  return payload;
}

export function base58CheckEncode(payload: Uint8Array): string {
  return base58Encode(Buffer.concat([payload, sha256d(payload).subarray(0, 4)]));
}

// ---------------------------------------------------------------------------------------------
// Bech32 (BIP173) and Bech32m (BIP350)

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const CHARSET_INDEX = new Map([...CHARSET].map((c, i) => [c, i]));
const GENERATORS = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

export type Bech32Variant = 'bech32' | 'bech32m';
const VARIANT_CONSTANT: Record<Bech32Variant, number> = { bech32: 1, bech32m: 0x2bc830a3 };

function polymod(values: readonly number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GENERATORS[i] ?? 0;
  }
  return chk >>> 0;
}

function hrpExpand(hrp: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) >> 5);
  out.push(0);
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) & 31);
  return out;
}

export interface Bech32Decoded {
  hrp: string;
  /** 5-bit groups without the checksum. */
  data: number[];
  variant: Bech32Variant;
}

/** Decodes a Bech32 or Bech32m string (BIP173 / BIP350 rules: ≤ 90 chars, one case, printable HRP). */
export function bech32Decode(text: string): Bech32Decoded {
  if (text.length > 90) throw new TypeError('bech32 string too long');
  const lower = text.toLowerCase();
  if (text !== lower && text !== text.toUpperCase()) throw new TypeError('bech32 string has mixed case');
  const sep = lower.lastIndexOf('1');
  if (sep < 1) throw new TypeError('bech32 string has no human-readable part');
  if (sep + 7 > lower.length) throw new TypeError('bech32 checksum too short');
  const hrp = lower.slice(0, sep);
  for (let i = 0; i < hrp.length; i++) {
    const c = hrp.charCodeAt(i);
    if (c < 33 || c > 126) throw new TypeError('bech32 human-readable part has an invalid character');
  }
  const values: number[] = [];
  for (const c of lower.slice(sep + 1)) {
    const v = CHARSET_INDEX.get(c);
    if (v === undefined) throw new TypeError(`invalid bech32 character ${JSON.stringify(c)}`);
    values.push(v);
  }
  const check = polymod([...hrpExpand(hrp), ...values]);
  const variant = check === VARIANT_CONSTANT.bech32 ? 'bech32' : check === VARIANT_CONSTANT.bech32m ? 'bech32m' : null;
  if (variant === null) throw new TypeError('bech32 checksum mismatch');
  return { hrp, data: values.slice(0, -6), variant };
}

export function bech32Encode(hrp: string, data: readonly number[], variant: Bech32Variant): string {
  const values = [...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0];
  const mod = polymod(values) ^ VARIANT_CONSTANT[variant];
  let out = `${hrp}1`;
  for (const d of data) out += CHARSET[d];
  for (let i = 0; i < 6; i++) out += CHARSET[(mod >>> (5 * (5 - i))) & 31];
  return out;
}

/** Regroups bits (8→5 to encode, 5→8 to decode); decoding refuses padding over 4 bits or non-zero padding. */
export function convertBits(data: readonly number[], from: number, to: number, pad: boolean): number[] {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const maxv = (1 << to) - 1;
  for (const value of data) {
    if (value < 0 || value >> from !== 0) throw new TypeError('value out of range for bit conversion');
    acc = (acc << from) | value;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & maxv);
    }
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & maxv);
  } else if (bits >= from || ((acc << (to - bits)) & maxv) !== 0) {
    throw new TypeError('invalid padding');
  }
  return out;
}

export interface WitnessProgram {
  version: number;
  program: Buffer;
}

/** Decodes a native segwit address for the given HRP (BIP173 for v0, BIP350 for v1..v16). */
export function decodeSegwitAddress(hrp: string, address: string): WitnessProgram {
  const decoded = bech32Decode(address);
  if (decoded.hrp !== hrp) throw new TypeError(`human-readable part is ${decoded.hrp}, expected ${hrp}`);
  const [version, ...rest] = decoded.data;
  if (version === undefined) throw new TypeError('empty data section');
  if (version > 16) throw new TypeError(`invalid witness version ${version}`);
  const program = Buffer.from(convertBits(rest, 5, 8, false));
  if (program.length < 2 || program.length > 40) throw new TypeError(`invalid program length ${program.length}`);
  if (version === 0 && program.length !== 20 && program.length !== 32) {
    throw new TypeError(`invalid program length ${program.length} for witness version 0`);
  }
  const expected: Bech32Variant = version === 0 ? 'bech32' : 'bech32m';
  if (decoded.variant !== expected) throw new TypeError(`witness version ${version} must use ${expected}`);
  return { version, program };
}

export function encodeSegwitAddress(hrp: string, version: number, program: Uint8Array): string {
  const address = bech32Encode(
    hrp,
    [version, ...convertBits([...program], 8, 5, true)],
    version === 0 ? 'bech32' : 'bech32m',
  );
  decodeSegwitAddress(hrp, address); // refuses programs that are not valid for the version
  return address;
}

// ---------------------------------------------------------------------------------------------
// Output scripts

export function p2pkhScript(hash: Uint8Array): Buffer {
  if (hash.length !== 20) throw new RangeError('P2PKH needs a 20-byte hash');
  return Buffer.concat([Buffer.from([OP_DUP, OP_HASH160, 20]), hash, Buffer.from([OP_EQUALVERIFY, OP_CHECKSIG])]);
}

export function p2shScript(hash: Uint8Array): Buffer {
  if (hash.length !== 20) throw new RangeError('P2SH needs a 20-byte hash');
  return Buffer.concat([Buffer.from([OP_HASH160, 20]), hash, Buffer.from([OP_EQUAL])]);
}

export function witnessScript(version: number, program: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([version === 0 ? OP_0 : OP_1 + version - 1]), pushData(program)]);
}

/**
 * The scriptPubKey an address stands for on `network`: Base58Check P2PKH / P2SH with the network's
 * version bytes, or a native segwit program (v0 Bech32, v1+ Bech32m) with its HRP.
 */
export function addressToScript(address: string, network: ChainNetwork): Buffer {
  const trimmed = address.trim();
  if (trimmed.length === 0) throw new InvalidAddressError(address, 'empty');
  const hrp = network.bech32;
  if (hrp !== undefined && trimmed.toLowerCase().startsWith(`${hrp}1`)) {
    try {
      const { version, program } = decodeSegwitAddress(hrp, trimmed);
      return witnessScript(version, program);
    } catch (error) {
      throw new InvalidAddressError(address, (error as Error).message);
    }
  }
  if (trimmed.toLowerCase().includes('mweb1')) {
    throw new InvalidAddressError(address, 'MWEB addresses cannot receive a coinbase output');
  }
  let payload: Buffer;
  try {
    payload = base58CheckDecode(trimmed);
  } catch (error) {
    const hint = hrp === undefined ? '' : ` (nor a ${hrp}1… segwit address)`;
    throw new InvalidAddressError(address, `${(error as Error).message}${hint}`);
  }
  for (const prefixes of [network.pubKeyHash, network.scriptHash]) {
    for (const version of prefixes) {
      if (payload.length === 21 && payload[0] === version) {
        const hash = payload.subarray(1);
        return prefixes === network.pubKeyHash ? p2pkhScript(hash) : p2shScript(hash);
      }
    }
  }
  throw new InvalidAddressError(address, `not an address of the ${network.name} network (version byte ${payload[0]})`);
}

/** Encodes a P2PKH address for a network (used for the demo payout address and in tests). */
export function p2pkhAddress(hash: Uint8Array, network: ChainNetwork): string {
  const version = network.pubKeyHash[0];
  if (version === undefined) throw new RangeError(`${network.name} has no P2PKH version`);
  return base58CheckEncode(Buffer.concat([Buffer.from([version]), hash]));
}
