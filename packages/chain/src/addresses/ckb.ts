import { type Bech32Variant, bech32Variant, wordsToBytes } from '../bitcoin/address.js';
import { BASE32_INDEX } from './cashAddr.js';
import { attempt, Invalid, type PayoutNetwork } from './checker.js';

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

export function checkCkb(address: string, network: PayoutNetwork): void {
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
