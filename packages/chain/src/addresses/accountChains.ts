import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58Decode } from '../bitcoin/address.js';
import { attempt, Invalid } from './checker.js';

// Ethereum (and ERC-20 USDC): 0x + 40 hex, EIP-55 mixed-case checksum when mixed case is used.

export function checkEthereum(address: string): void {
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

// Kadena and Solana.

/**
 * Only `k:` accounts: their name is their guard (kadena-io/pact-5 Pact/Core/Principal.hs: "k:" + 64 hex
 * digits), so the pool can create the account on any chain with transfer-create without trusting a
 * name someone else may own. Account names are case-sensitive and wallets show keys in lower case, so
 * upper-case hex would name a different, unowned account.
 */
export function checkKadena(address: string): void {
  if (!address.startsWith('k:')) throw new Invalid('only k: accounts (k: followed by the public key) receive payouts');
  const key = address.slice(2);
  if (!/^[0-9a-fA-F]*$/.test(key)) throw new Invalid('the public key after k: is not hexadecimal');
  if (key.length !== 64) throw new Invalid(`wrong length: ${key.length} hex digits after k: instead of 64`);
  if (key !== key.toLowerCase()) throw new Invalid('the public key after k: must be lower case');
}

/** A Solana address is a 32-byte public key in Base58 (no checksum, so only the length can be checked). */
export function checkSolana(address: string): void {
  const bytes = attempt(() => base58Decode(address));
  if (bytes.length !== 32) throw new Invalid(`wrong length: ${bytes.length} bytes instead of 32`);
  if (bytes.every((byte) => byte === 0)) throw new Invalid('the System Program address cannot own payouts');
}
