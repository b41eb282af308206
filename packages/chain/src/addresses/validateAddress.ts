import { keccak_256 } from '@noble/hashes/sha3.js';
import {
  type Bech32Variant,
  base58CheckDecode,
  base58Decode,
  bech32Variant,
  decodeSegwitAddress,
  wordsToBytes,
} from '../bitcoin/address.js';
import { NETWORKS } from '../bitcoin/networks.js';

/**
 * Payout address checks, one rule set per coin family. They answer "can the pool send this coin to this
 * string on this network without losing it?" — checksum, network prefix, length and the kinds of
 * destination a payout may go to — before an address is saved, so a typo is refused at the form and
 * not discovered by the wallet (or never) at payout time. Nothing here talks to a node.
 */
export const ADDRESS_FORMATS = [
  'bitcoin',
  'litecoin',
  'dogecoin',
  'digibyte',
  'dash',
  'bitcoincash',
  'bells',
  'ethereum',
  'ckb',
  'kadena',
  'kaspa',
  'solana',
] as const;
export type AddressFormat = (typeof ADDRESS_FORMATS)[number];

export const PAYOUT_NETWORKS = ['mainnet', 'testnet', 'regtest'] as const;
export type PayoutNetwork = (typeof PAYOUT_NETWORKS)[number];

export type PayoutAddressCheck = { ok: true } | { ok: false; reason: string };

/** Longer than any address below (CKB full addresses with long args are the longest, ~100–200 chars). */
const MAX_ADDRESS_LENGTH = 1000;

/**
 * Whether `address` can receive payouts of `format` on `network`. The address is checked exactly as
 * given: callers trim user input before validating and store what they validated.
 */
export function validatePayoutAddress(
  format: AddressFormat,
  address: string,
  network: PayoutNetwork = 'mainnet',
): PayoutAddressCheck {
  // A format this build does not know is a programming or configuration error, not a bad address.
  if (!Object.hasOwn(CHECKERS, format)) throw new TypeError(`unknown address format ${JSON.stringify(format)}`);
  if (!(PAYOUT_NETWORKS as readonly string[]).includes(network)) {
    throw new TypeError(`unknown network ${JSON.stringify(network)}`);
  }
  const reason = check(format, address, network);
  if (reason === undefined) return { ok: true };
  // The most common mistake after a typo: an address of the right coin on another network.
  if (NETWORK_DEPENDENT.has(format)) {
    const other = PAYOUT_NETWORKS.find((n) => n !== network && check(format, address, n) === undefined);
    if (other !== undefined) {
      return { ok: false, reason: `this is a ${format} ${other} address; payouts are made on ${network}` };
    }
  }
  return { ok: false, reason };
}

/** Thrown inside a checker with the reason; never escapes this module. */
class Invalid extends Error {}

/** Runs a decoder from ../bitcoin/address.ts, whose refusals are TypeErrors, as a reason. */
function attempt<T>(decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof TypeError) throw new Invalid(error.message);
    throw error;
  }
}

type Checker = (address: string, network: PayoutNetwork) => void;

function check(format: AddressFormat, address: string, network: PayoutNetwork): string | undefined {
  if (typeof address !== 'string' || address.length === 0) return 'empty';
  if (address.length > MAX_ADDRESS_LENGTH) return 'too long to be an address';
  if (!/^[\x21-\x7e]+$/.test(address)) return 'contains spaces or characters that no address uses';
  try {
    CHECKERS[format](address, network);
    return undefined;
  } catch (error) {
    if (error instanceof Invalid) return error.message;
    throw error;
  }
}

const NETWORK_DEPENDENT = new Set<AddressFormat>([
  'bitcoin',
  'litecoin',
  'dogecoin',
  'digibyte',
  'dash',
  'bitcoincash',
  'bells',
  'ckb',
  'kaspa',
]);

// ---------------------------------------------------------------------------------------------
// Bitcoin family: Base58Check P2PKH / P2SH with the coin's version bytes, native segwit with its HRP.

interface UtxoParams {
  /** Base58Check version bytes of P2PKH addresses. */
  pubKeyHash: readonly number[];
  /** Base58Check version bytes of P2SH addresses (several where the coin moved its prefix). */
  scriptHash: readonly number[];
  /** Native segwit HRP, when the coin has segwit. */
  segwit?: string;
  /**
   * Whether witness v1 (taproot) outputs are spendable on this coin: before the soft fork is active,
   * anyone can spend what is sent to them.
   */
  taproot?: boolean;
  /** Litecoin's MWEB HRPs: such addresses are recognised only to say why they are refused. */
  mweb?: readonly string[];
}

function utxo(
  network: { pubKeyHash: readonly number[]; scriptHash: readonly number[]; bech32?: string },
  extra: Omit<UtxoParams, 'pubKeyHash' | 'scriptHash' | 'segwit'> = {},
): UtxoParams {
  return { pubKeyHash: network.pubKeyHash, scriptHash: network.scriptHash, segwit: network.bech32, ...extra };
}

/**
 * Version bytes and HRPs from each coin's src/chainparams.cpp (see ../bitcoin/networks.ts for the coins
 * it already lists). Taproot is accepted where its activation on mainnet is certain (Bitcoin since
 * block 709632, Litecoin with MWEB in 2022, Bells, whose Core 3 wallet library builds p2tr outputs); on
 * DigiByte witness v1 is refused until someone confirms activation there.
 */
const UTXO: Record<
  'bitcoin' | 'litecoin' | 'dogecoin' | 'digibyte' | 'dash' | 'bells',
  Record<PayoutNetwork, UtxoParams>
> = {
  bitcoin: {
    mainnet: utxo(NETWORKS.bitcoin, { taproot: true }),
    testnet: utxo(NETWORKS['bitcoin-testnet'], { taproot: true }),
    regtest: utxo(NETWORKS['bitcoin-regtest'], { taproot: true }),
  },
  // litecoin-project/litecoin src/chainparams.cpp: mweb_hrp "ltcmweb" on main, "tmweb" on test and
  // regtest. Both are recognised on every network: the reason to refuse is the same.
  litecoin: {
    mainnet: utxo(NETWORKS.litecoin, { taproot: true, mweb: ['ltcmweb', 'tmweb'] }),
    testnet: utxo(NETWORKS['litecoin-testnet'], { taproot: true, mweb: ['ltcmweb', 'tmweb'] }),
    regtest: utxo(NETWORKS['litecoin-regtest'], { taproot: true, mweb: ['ltcmweb', 'tmweb'] }),
  },
  // Dogecoin 1.14 has no segwit. Regtest: the 1.21 development branch uses 113 / 196 (dogecoin/dogecoin
  // src/chainparams.cpp, CRegTestParams); 111, Bitcoin's test byte, is accepted too for older regtest nodes.
  dogecoin: {
    mainnet: utxo(NETWORKS.dogecoin),
    testnet: utxo(NETWORKS['dogecoin-testnet']),
    regtest: { pubKeyHash: [113, 111], scriptHash: [196] },
  },
  // DigiByte-Core/digibyte src/chainparams.cpp: main 30 / 63 (SCRIPT_ADDRESS) and 5 (SCRIPT_ADDRESS_OLD),
  // HRP "dgb"; test and regtest 126 / 140 with HRPs "dgbt" and "dgbrt".
  digibyte: {
    mainnet: { pubKeyHash: [30], scriptHash: [63, 5], segwit: 'dgb' },
    testnet: { pubKeyHash: [126], scriptHash: [140], segwit: 'dgbt' },
    regtest: { pubKeyHash: [126], scriptHash: [140], segwit: 'dgbrt' },
  },
  // Dash has no segwit; its regtest and devnets use the testnet bytes (140 / 19).
  dash: {
    mainnet: utxo(NETWORKS.dash),
    testnet: utxo(NETWORKS['dash-testnet']),
    regtest: utxo(NETWORKS['dash-testnet']),
  },
  // Nintondo/bellscoinV3 src/kernel/chainparams.cpp: main 25 / 30 HRP "bel"; test 33 / 22 HRP "tbel";
  // regtest 111 / 196 HRP "bcrt" (Bitcoin's).
  bells: {
    mainnet: { pubKeyHash: [25], scriptHash: [30], segwit: 'bel', taproot: true },
    testnet: { pubKeyHash: [33], scriptHash: [22], segwit: 'tbel', taproot: true },
    regtest: { pubKeyHash: [111], scriptHash: [196], segwit: 'bcrt', taproot: true },
  },
};

function checkUtxo(params: UtxoParams, address: string, what: string): void {
  const lower = address.toLowerCase();
  if (params.mweb?.some((hrp) => lower.startsWith(`${hrp}1`))) {
    throw new Invalid('MWEB addresses cannot receive payouts');
  }
  if (params.segwit !== undefined && lower.startsWith(`${params.segwit}1`)) {
    const hrp = params.segwit;
    const { version, program } = attempt(() => decodeSegwitAddress(hrp, address));
    if (version === 0) return; // 20-byte P2WPKH or 32-byte P2WSH, checked by the decoder
    if (version === 1 && program.length === 32) {
      if (params.taproot) return;
      throw new Invalid(`taproot addresses are not accepted for ${what}`);
    }
    // BIP350 asks senders to support future versions, but a payout to an output no soft fork defines
    // yet can be taken by anyone; no wallet hands such an address to a user.
    throw new Invalid(`witness version ${version} with a ${program.length}-byte program is not a spendable output yet`);
  }
  const payload = attempt(() => base58CheckDecode(address));
  if (payload.length !== 21) throw new Invalid(`wrong length: ${payload.length} bytes instead of 21`);
  const version = payload[0] as number;
  if (params.pubKeyHash.includes(version) || params.scriptHash.includes(version)) return;
  throw new Invalid(`version byte ${version} is not a ${what} address prefix`);
}

// ---------------------------------------------------------------------------------------------
// CashAddr (Bitcoin Cash) and its Kaspa variant: base32 with a 40-bit BCH-code checksum over the prefix.

const BASE32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BASE32_INDEX = new Map([...BASE32].map((c, i) => [c, i]));

/** The CashAddr checksum polynomial (bitcoincashorg/bitcoincash.org spec/cashaddr.md, "Checksum"). */
function cashPolymod(values: readonly number[]): bigint {
  const generators = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n];
  let c = 1n;
  for (const d of values) {
    const c0 = c >> 35n;
    c = ((c & 0x07ffffffffn) << 5n) ^ BigInt(d);
    for (let i = 0; i < 5; i++) if ((c0 >> BigInt(i)) & 1n) c ^= generators[i] as bigint;
  }
  return c ^ 1n;
}

/**
 * The payload bytes (version byte first) of a CashAddr-style string, checksum verified over the written
 * prefix, or over `defaultPrefix` when none is written (CashAddr lets users omit it).
 */
function decodeCashAddr(address: string, defaultPrefix: string | undefined): Buffer {
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) throw new Invalid('mixed upper and lower case');
  const colon = lower.lastIndexOf(':');
  const prefix = colon >= 0 ? lower.slice(0, colon) : defaultPrefix;
  if (prefix === undefined || prefix.length === 0) throw new Invalid('missing the network prefix (e.g. "kaspa:")');
  const values: number[] = [];
  for (const c of lower.slice(colon + 1)) {
    const v = BASE32_INDEX.get(c);
    if (v === undefined) throw new Invalid(`invalid character ${JSON.stringify(c)}`);
    values.push(v);
  }
  if (values.length <= 8) throw new Invalid('too short');
  const prefixValues = [...prefix].map((c) => c.charCodeAt(0) & 0x1f);
  if (cashPolymod([...prefixValues, 0, ...values]) !== 0n) {
    throw new Invalid(colon >= 0 ? 'checksum mismatch' : `checksum mismatch (for the ${prefix}: prefix)`);
  }
  const bytes = attempt(() => wordsToBytes(values.slice(0, -8)));
  if (bytes.length === 0) throw new Invalid('empty payload');
  return bytes;
}

const CASHADDR_PREFIX: Record<PayoutNetwork, string> = {
  mainnet: 'bitcoincash',
  testnet: 'bchtest',
  regtest: 'bchreg',
};
/** Legacy Base58 addresses keep Bitcoin's version bytes (the chains split in 2017); no segwit. */
const BCH_LEGACY: Record<PayoutNetwork, UtxoParams> = {
  mainnet: { pubKeyHash: NETWORKS.bitcoin.pubKeyHash, scriptHash: NETWORKS.bitcoin.scriptHash },
  testnet: { pubKeyHash: NETWORKS['bitcoin-testnet'].pubKeyHash, scriptHash: NETWORKS['bitcoin-testnet'].scriptHash },
  regtest: { pubKeyHash: NETWORKS['bitcoin-regtest'].pubKeyHash, scriptHash: NETWORKS['bitcoin-regtest'].scriptHash },
};
/** Hash length per CashAddr size bits (spec/cashaddr.md, "Version byte"). */
const CASHADDR_SIZES = [20, 24, 28, 32, 40, 48, 56, 64];

function checkBitcoinCash(address: string, network: PayoutNetwork): void {
  const expected = CASHADDR_PREFIX[network];
  const lower = address.toLowerCase();
  if (!lower.includes(':') && !/^[qpzr]/.test(lower)) {
    checkUtxo(BCH_LEGACY[network], address, `Bitcoin Cash ${network}`);
    return;
  }
  // A written prefix is compared first: "bchtest:" on mainnet is a wrong network, not a bad checksum.
  const colon = lower.lastIndexOf(':');
  if (colon >= 0 && lower.slice(0, colon) !== expected) {
    throw new Invalid(`prefix ${lower.slice(0, colon)}: is not ${expected}:`);
  }
  const bytes = decodeCashAddr(address, expected);
  const version = bytes[0] as number;
  const hash = bytes.subarray(1);
  if (version & 0x80) throw new Invalid('reserved bit of the version byte is set');
  const type = version >> 3;
  const size = CASHADDR_SIZES[version & 7] as number;
  if (hash.length !== size) throw new Invalid(`wrong length: ${hash.length}-byte hash, the version byte says ${size}`);
  // Types 0 / 1 are P2PKH / P2SH; 2 / 3 the same outputs marked token-aware (CHIP-2022-02 CashTokens),
  // which pay BCH exactly alike. P2SH may use a 32-byte hash (P2SH32) since the May 2023 upgrade.
  const pubKeyHash = type === 0 || type === 2;
  const scriptHash = type === 1 || type === 3;
  if (pubKeyHash && size === 20) return;
  if (scriptHash && (size === 20 || size === 32)) return;
  if (!pubKeyHash && !scriptHash) throw new Invalid(`CashAddr type ${type} is not a payment address`);
  throw new Invalid(`a ${size}-byte ${pubKeyHash ? 'P2PKH' : 'P2SH'} hash is not a standard output`);
}

/** kaspanet/rusty-kaspa crypto/addresses: prefixes per network, version → payload length. */
const KASPA_PREFIXES: Record<PayoutNetwork, readonly string[]> = {
  mainnet: ['kaspa'],
  testnet: ['kaspatest'],
  // Kaspa has no "regtest"; its local networks are simnet and devnet.
  regtest: ['kaspasim', 'kaspadev'],
};
const KASPA_VERSIONS = new Map([
  [0, { kind: 'Schnorr public key', length: 32 }],
  [1, { kind: 'ECDSA public key', length: 33 }],
  [8, { kind: 'script hash', length: 32 }],
]);

function checkKaspa(address: string, network: PayoutNetwork): void {
  const colon = address.lastIndexOf(':');
  const allowed = KASPA_PREFIXES[network];
  const prefix = address.slice(0, Math.max(colon, 0));
  if (colon >= 0 && address === address.toLowerCase() && !allowed.includes(prefix)) {
    throw new Invalid(`prefix ${prefix}: is not ${allowed.join(': or ')}:`);
  }
  decodeKaspa(address);
}

function decodeKaspa(address: string): KaspaAddress {
  // Kaspa nodes decode lower case only (unlike CashAddr, upper case is not a valid spelling).
  if (address !== address.toLowerCase()) throw new Invalid('Kaspa addresses are lower case');
  const colon = address.lastIndexOf(':');
  if (colon < 0) throw new Invalid('missing the "kaspa:" prefix');
  const prefix = address.slice(0, colon);
  if (!Object.values(KASPA_PREFIXES).flat().includes(prefix)) throw new Invalid(`unknown Kaspa prefix ${prefix}:`);
  const bytes = decodeCashAddr(address, undefined);
  const version = bytes[0] as number;
  const spec = KASPA_VERSIONS.get(version);
  if (spec === undefined) throw new Invalid(`unknown address version ${version}`);
  if (bytes.length - 1 !== spec.length) {
    throw new Invalid(`wrong length: ${bytes.length - 1} bytes for a ${spec.kind} (${spec.length})`);
  }
  return { prefix, version, payload: bytes.subarray(1) };
}

/** A Kaspa address taken apart: network prefix, version byte (0 Schnorr, 1 ECDSA, 8 script hash), payload. */
export interface KaspaAddress {
  prefix: string;
  version: number;
  payload: Buffer;
}

/**
 * Decodes a Kaspa address of any network (checksum, prefix, version, payload length), as
 * kaspanet/rusty-kaspa crypto/addresses does; throws a TypeError with the reason otherwise.
 */
export function decodeKaspaAddress(address: string): KaspaAddress {
  try {
    return decodeKaspa(address);
  } catch (error) {
    if (error instanceof Invalid) throw new TypeError(`${address}: ${error.message}`);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// CKB (nervosnetwork/rfcs rfcs/0021-ckb-address-format): Bech32m full format, deprecated Bech32 short format.

/**
 * A Bech32 or Bech32m string without BIP173's 90-character limit, which RFC 0021 lifts for CKB (full
 * addresses are ~97 characters and longer with longer args). The checksum is @scure/base's
 * (bech32Variant in ../bitcoin/address.ts); the checks before it give the reasons users see.
 */
function decodeLongBech32(address: string): { hrp: string; data: number[]; variant: Bech32Variant } {
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) throw new Invalid('mixed upper and lower case');
  const separator = lower.lastIndexOf('1');
  if (separator < 1) throw new Invalid('no "1" separator after the prefix');
  const hrp = lower.slice(0, separator);
  const data = lower.slice(separator + 1);
  for (const c of data) if (!BASE32_INDEX.has(c)) throw new Invalid(`invalid character ${JSON.stringify(c)}`);
  if (data.length < 7) throw new Invalid('too short');
  const decoded = bech32Variant(lower);
  if (decoded === undefined) throw new Invalid('checksum mismatch');
  return { hrp, data: decoded.words, variant: decoded.variant };
}

const CKB_HRP: Record<PayoutNetwork, string> = { mainnet: 'ckb', testnet: 'ckt', regtest: 'ckt' };
/** hash_type: 0 data, 1 type, 2 data1 (RFC 0021), 4 data2 (CKB2023, RFC 0051). */
const CKB_HASH_TYPES = new Set([0, 1, 2, 4]);

function checkCkb(address: string, network: PayoutNetwork): void {
  const expected = CKB_HRP[network];
  const { hrp, data, variant } = decodeLongBech32(address);
  if (hrp !== expected) throw new Invalid(`prefix ${hrp}1 is not ${expected}1`);
  const payload = attempt(() => wordsToBytes(data));
  const format = payload[0];
  if (format === 0x00) {
    if (variant !== 'bech32m') throw new Invalid('full-format CKB addresses use the Bech32m checksum');
    if (payload.length < 34) throw new Invalid('too short for a code hash and hash type');
    const hashType = payload[33] as number;
    if (!CKB_HASH_TYPES.has(hashType)) throw new Invalid(`unknown hash type ${hashType}`);
    return;
  }
  if (format === 0x01) {
    // Fixed length, so the Bech32 insertion weakness cannot turn one valid short address into another.
    if (variant !== 'bech32') throw new Invalid('short-format CKB addresses use the Bech32 checksum');
    if (payload.length !== 22) throw new Invalid(`wrong length: ${payload.length} bytes instead of 22`);
    const index = payload[1] as number;
    if (index > 2) throw new Invalid(`unknown code hash index ${index}`);
    return;
  }
  if (format === 0x02 || format === 0x04) {
    // Variable length under a Bech32 checksum: a character inserted before a final "p" goes unnoticed.
    throw new Invalid('deprecated full-format CKB address; use the current ckb1q… form of the same lock');
  }
  throw new Invalid(`unknown CKB address format ${format}`);
}

/** The lock script a CKB address stands for, and the chain its prefix names. */
export interface CkbAddressLock {
  network: 'mainnet' | 'testnet';
  lock: { code_hash: string; hash_type: 'data' | 'type' | 'data1' | 'data2'; args: string };
}

const CKB_HASH_TYPE_NAMES = { 0: 'data', 1: 'type', 2: 'data1', 4: 'data2' } as const;

/**
 * The lock of a CKB address (RFC 0021): the full format (code hash, hash type, args), or the
 * deprecated short format with code hash index 0 (secp256k1-blake160, whose type hash is the same on
 * mainnet and testnet: docs/hashes.toml). Other short indexes name scripts whose hashes differ per
 * chain and are refused; so is anything `checkCkb` refuses. Throws a TypeError with the reason.
 */
export function decodeCkbAddress(address: string): CkbAddressLock {
  try {
    const { hrp, data } = decodeLongBech32(address);
    const network = hrp === 'ckb' ? 'mainnet' : hrp === 'ckt' ? 'testnet' : undefined;
    if (network === undefined) throw new Invalid(`prefix ${hrp}1 is not ckb1 or ckt1`);
    checkCkb(address, network);
    const payload = attempt(() => wordsToBytes(data));
    const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
    if (payload[0] === 0x00) {
      const hashType = CKB_HASH_TYPE_NAMES[payload[33] as keyof typeof CKB_HASH_TYPE_NAMES];
      return {
        network,
        lock: { code_hash: hex(payload.subarray(1, 33)), hash_type: hashType, args: hex(payload.subarray(34)) },
      };
    }
    if (payload[1] !== 0)
      throw new Invalid('a short address of another script than secp256k1-blake160; use its full address');
    return {
      network,
      lock: {
        code_hash: '0x9bd7e06f3ecf4be0f2fcd2188b23f1b9fcc88e5d4b65a8637b17723bbda3cce8',
        hash_type: 'type',
        args: hex(payload.subarray(2)),
      },
    };
  } catch (error) {
    if (error instanceof Invalid) throw new TypeError(`${address}: ${error.message}`);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Ethereum (and ERC-20 USDC): 0x + 40 hex, EIP-55 mixed-case checksum when mixed case is used.

function checkEthereum(address: string): void {
  if (!address.startsWith('0x')) throw new Invalid('must start with 0x');
  const hex = address.slice(2);
  if (!/^[0-9a-fA-F]+$/.test(hex)) throw new Invalid('not hexadecimal after 0x');
  if (hex.length !== 40) throw new Invalid(`wrong length: ${hex.length} hex digits instead of 40`);
  if (/^0+$/.test(hex)) throw new Invalid('the zero address burns whatever is sent to it');
  const lower = hex.toLowerCase();
  if (hex === lower || hex === hex.toUpperCase()) return; // no checksum to verify
  // EIP-55: a letter is upper case when the matching nibble of Keccak-256(lower-case hex) is ≥ 8 —
  // the original Keccak padding, not SHA3-256's.
  const hash = Buffer.from(keccak_256(Buffer.from(lower, 'ascii'))).toString('hex');
  for (let i = 0; i < 40; i++) {
    const c = lower.charAt(i);
    if (c < 'a') continue;
    const expected = Number.parseInt(hash.charAt(i), 16) >= 8 ? c.toUpperCase() : c;
    if (hex.charAt(i) !== expected) throw new Invalid('EIP-55 checksum mismatch (wrong upper/lower case)');
  }
}

// ---------------------------------------------------------------------------------------------
// Kadena and Solana.

/**
 * Only `k:` accounts: their name is their guard (kadena-io/pact-5 Pact/Core/Principal.hs: "k:" + 64 hex
 * digits), so the pool can create the account on any chain with transfer-create without trusting a
 * name someone else may own. Account names are case-sensitive and wallets show keys in lower case, so
 * upper-case hex would name a different, unowned account.
 */
function checkKadena(address: string): void {
  if (!address.startsWith('k:')) throw new Invalid('only k: accounts (k: followed by the public key) receive payouts');
  const key = address.slice(2);
  if (!/^[0-9a-fA-F]*$/.test(key)) throw new Invalid('the public key after k: is not hexadecimal');
  if (key.length !== 64) throw new Invalid(`wrong length: ${key.length} hex digits after k: instead of 64`);
  if (key !== key.toLowerCase()) throw new Invalid('the public key after k: must be lower case');
}

/** A Solana address is a 32-byte public key in Base58 (no checksum, so only the length can be checked). */
function checkSolana(address: string): void {
  const bytes = attempt(() => base58Decode(address));
  if (bytes.length !== 32) throw new Invalid(`wrong length: ${bytes.length} bytes instead of 32`);
  if (bytes.every((byte) => byte === 0)) throw new Invalid('the System Program address cannot own payouts');
}

const CHECKERS: Record<AddressFormat, Checker> = {
  bitcoin: (address, network) => checkUtxo(UTXO.bitcoin[network], address, `Bitcoin ${network}`),
  litecoin: (address, network) => checkUtxo(UTXO.litecoin[network], address, `Litecoin ${network}`),
  dogecoin: (address, network) => checkUtxo(UTXO.dogecoin[network], address, `Dogecoin ${network}`),
  digibyte: (address, network) => checkUtxo(UTXO.digibyte[network], address, `DigiByte ${network}`),
  dash: (address, network) => checkUtxo(UTXO.dash[network], address, `Dash ${network}`),
  bells: (address, network) => checkUtxo(UTXO.bells[network], address, `Bells ${network}`),
  bitcoincash: checkBitcoinCash,
  ethereum: checkEthereum,
  ckb: checkCkb,
  kadena: checkKadena,
  kaspa: checkKaspa,
  solana: checkSolana,
};
