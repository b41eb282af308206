import { base58, bech32, bech32m } from '@scure/base';
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
// Base58Check. The codec is @scure/base's; the checks in front of it keep this module's refusals
// TypeErrors with the reasons that payout-address checks show to users.

const BASE58_LETTERS = new Set('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz');

export function base58Decode(text: string): Buffer {
  for (const c of text) {
    if (!BASE58_LETTERS.has(c)) throw new TypeError(`invalid base58 character ${JSON.stringify(c)}`);
  }
  return Buffer.from(base58.decode(text));
}

export function base58Encode(bytes: Uint8Array): string {
  return base58.encode(bytes);
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
// Bech32 (BIP173) and Bech32m (BIP350): @scure/base's checksums, with this module's checks and reasons.

const BECH32_LETTERS = new Set('qpzry9x8gf2tvdw0s3jn54khce6mua7l');
const CODECS = { bech32, bech32m } as const;

export type Bech32Variant = 'bech32' | 'bech32m';

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
  for (const c of lower.slice(sep + 1)) {
    if (!BECH32_LETTERS.has(c)) throw new TypeError(`invalid bech32 character ${JSON.stringify(c)}`);
  }
  const variant = bech32Variant(lower);
  if (variant === undefined) throw new TypeError('bech32 checksum mismatch');
  return { hrp, data: variant.words, variant: variant.variant };
}

/**
 * Which checksum a lower-case Bech32-alphabet string carries, with its data (5-bit groups), or
 * undefined when neither matches. No length limit: CKB addresses (RFC 0021) are longer than BIP173's 90.
 */
export function bech32Variant(lower: string): { variant: Bech32Variant; words: number[] } | undefined {
  for (const variant of ['bech32', 'bech32m'] as const) {
    const decoded = CODECS[variant].decodeUnsafe(lower, false);
    if (decoded) return { variant, words: [...decoded.words] };
  }
  return undefined;
}

export function bech32Encode(hrp: string, data: readonly number[], variant: Bech32Variant): string {
  return CODECS[variant].encode(hrp, [...data], false);
}

/** 5-bit groups → bytes; refuses padding over 4 bits or non-zero padding. */
export function wordsToBytes(words: readonly number[]): Buffer {
  try {
    return Buffer.from(bech32.fromWords([...words]));
  } catch {
    throw new TypeError('invalid padding');
  }
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
  const program = wordsToBytes(rest);
  if (program.length < 2 || program.length > 40) throw new TypeError(`invalid program length ${program.length}`);
  if (version === 0 && program.length !== 20 && program.length !== 32) {
    throw new TypeError(`invalid program length ${program.length} for witness version 0`);
  }
  const expected: Bech32Variant = version === 0 ? 'bech32' : 'bech32m';
  if (decoded.variant !== expected) throw new TypeError(`witness version ${version} must use ${expected}`);
  return { version, program };
}

export function encodeSegwitAddress(hrp: string, version: number, program: Uint8Array): string {
  const address = bech32Encode(hrp, [version, ...bech32.toWords(program)], version === 0 ? 'bech32' : 'bech32m');
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
