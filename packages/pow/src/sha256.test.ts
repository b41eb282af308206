import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  displayHexToHash,
  encodeBitcoinHeader,
  HEADER_NONCE_OFFSET,
  hashToDisplayHex,
  setHeaderNonce,
} from './header.js';
import { sha256d, sha256Pow } from './sha256.js';
import { targetFromBits } from './target.js';

// Bitcoin mainnet genesis, bitcoin/bitcoin src/kernel/chainparams.cpp:
//   genesis = CreateGenesisBlock(1231006505, 2083236893, 0x1d00ffff, 1, 50 * COIN);
//   assert(consensus.hashGenesisBlock == uint256{"000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f"});
//   assert(genesis.hashMerkleRoot == uint256{"4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b"});
const GENESIS_HEADER =
  '0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c';
const GENESIS_HASH = '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f';

describe('SHA256 (sha256d of the 80-byte header)', () => {
  it('serialises the Bitcoin genesis header from its chainparams fields', () => {
    const header = encodeBitcoinHeader({
      version: 1,
      prevHash: new Uint8Array(32),
      merkleRoot: displayHexToHash('4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b'),
      time: 1231006505,
      bits: 0x1d00ffff,
      nonce: 2083236893,
    });
    expect(bytesToHex(header)).toBe(GENESIS_HEADER);
  });

  it('hashes the Bitcoin genesis header to the genesis block hash', () => {
    const hash = sha256Pow.hash(hexToBytes(GENESIS_HEADER));
    expect(hashToDisplayHex(hash)).toBe(GENESIS_HASH);
    expect(sha256Pow.hashValue(hash)).toBe(BigInt(`0x${GENESIS_HASH}`));
    expect(sha256Pow.meetsTarget(hash, targetFromBits(0x1d00ffff))).toBe(true);
  });

  it('is SHA-256 applied twice (FIPS 180-2 "abc" vector, then its hash)', () => {
    // SHA-256("abc") = ba7816bf…15ad; sha256d("abc") = SHA-256 of those 32 bytes.
    expect(bytesToHex(sha256d(new TextEncoder().encode('abc')))).toBe(
      '4f8b42c22dd3729b519ba6f68d2da7cc5b2d606d05daed5ad5128cc03e6c6358',
    );
  });

  it('genesis block is difficulty 1', () => {
    expect(sha256Pow.difficultyForTarget(targetFromBits(0x1d00ffff))).toBe(1);
    expect(sha256Pow.targetForDifficulty(1)).toBe(targetFromBits(0x1d00ffff));
  });

  it('a flipped nonce byte changes the hash and loses the proof of work', () => {
    const header = hexToBytes(GENESIS_HEADER);
    header[HEADER_NONCE_OFFSET] = (header[HEADER_NONCE_OFFSET] as number) ^ 0x01;
    const hash = sha256Pow.hash(header);
    expect(hashToDisplayHex(hash)).not.toBe(GENESIS_HASH);
    expect(sha256Pow.meetsTarget(hash, targetFromBits(0x1d00ffff))).toBe(false);
    setHeaderNonce(header, 2083236893);
    expect(hashToDisplayHex(sha256Pow.hash(header))).toBe(GENESIS_HASH);
  });

  it('rejects inputs that are not 80 bytes', () => {
    expect(() => sha256Pow.hash(new Uint8Array(79))).toThrow(RangeError);
  });
});
