import { checkEthereum, checkKadena, checkSolana } from './accountChains.js';
import { checkBitcoinCash } from './cashAddr.js';
import { type Checker, Invalid, PAYOUT_NETWORKS, type PayoutNetwork } from './checker.js';
import { checkCkb } from './ckb.js';
import { checkKaspa } from './kaspa.js';
import { checkUtxo, UTXO } from './utxo.js';

/**
 * Payout address checks, one rule set per coin family (utxo.ts: the bitcoin family; cashAddr.ts:
 * Bitcoin Cash; kaspa.ts; ckb.ts; accountChains.ts: Ethereum, Kadena, Solana). They answer "can the
 * pool send this coin to this string on this network without losing it?" — checksum, network
 * prefix, length and the kinds of destination a payout may go to — before an address is saved, so a
 * typo is refused at the form and not discovered by the wallet (or never) at payout time. Nothing
 * here talks to a node.
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

/** Formats whose addresses say which network they belong to; the others are written alike on every network. */
const NETWORK_FREE = new Set<AddressFormat>(['ethereum', 'kadena', 'solana']);
const NETWORK_DEPENDENT = new Set<AddressFormat>(ADDRESS_FORMATS.filter((format) => !NETWORK_FREE.has(format)));

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
