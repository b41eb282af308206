import { wordsToBytes } from '../bitcoin/address.js';
import { NETWORKS } from '../bitcoin/networks.js';
import { attempt, Invalid, type PayoutNetwork } from './checker.js';
import { checkUtxo, type UtxoParams } from './utxo.js';

// CashAddr (Bitcoin Cash) and its Kaspa variant: base32 with a 40-bit BCH-code checksum over the prefix.

export const BASE32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
export const BASE32_INDEX = new Map([...BASE32].map((c, i) => [c, i]));

/** The CashAddr checksum polynomial (bitcoincashorg/bitcoincash.org spec/cashaddr.md, "Checksum"). */
export function cashPolymod(values: readonly number[]): bigint {
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
export function decodeCashAddr(address: string, defaultPrefix: string | undefined): Buffer {
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

export function checkBitcoinCash(address: string, network: PayoutNetwork): void {
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
