import { BASE32, cashPolymod, decodeCashAddr } from './cashAddr.js';
import { Invalid, type PayoutNetwork } from './checker.js';

/** Kaspa addresses: CashAddr's base32 and checksum with Kaspa's prefixes and versions. */

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

export function checkKaspa(address: string, network: PayoutNetwork): void {
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

/**
 * Writes a Kaspa address (kaspanet/rusty-kaspa crypto/addresses/src/bech32.rs `encode_payload`): the
 * version byte and payload in 5-bit groups, then the 40-bit checksum over prefix, separator and data.
 */
export function encodeKaspaAddress(prefix: string, version: number, payload: Uint8Array): string {
  const spec = KASPA_VERSIONS.get(version);
  if (spec === undefined || payload.length !== spec.length) {
    throw new RangeError(`a Kaspa address of version ${version} carries ${spec?.length ?? 'no'} bytes`);
  }
  const words: number[] = [];
  let accumulator = 0;
  let bits = 0;
  for (const byte of [version, ...payload]) {
    accumulator = (accumulator << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((accumulator >> bits) & 31);
    }
    accumulator &= (1 << bits) - 1;
  }
  if (bits > 0) words.push((accumulator << (5 - bits)) & 31);
  const prefixValues = [...prefix].map((c) => c.charCodeAt(0) & 0x1f);
  const checksum = cashPolymod([...prefixValues, 0, ...words, 0, 0, 0, 0, 0, 0, 0, 0]);
  for (let i = 7; i >= 0; i--) words.push(Number((checksum >> BigInt(5 * i)) & 31n));
  return `${prefix}:${words.map((w) => BASE32[w]).join('')}`;
}
