import { hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { displayHexToHash, encodeBitcoinHeader, HEADER_NONCE_OFFSET, hashToDisplayHex } from './header.js';
import { scryptPow } from './scrypt.js';
import { sha256dHeader } from './sha256.js';
import { targetFromBits } from './target.js';

// dogecoin/dogecoin src/test/scrypt_tests.cpp, BOOST_AUTO_TEST_CASE(scrypt_hashtest) (the same five
// vectors as Litecoin's src/test/scrypt_tests.cpp): 80-byte headers and scrypt_1024_1_1_256 hashes, as
// uint256::ToString() prints them (reversed).
const DOGECOIN_VECTORS: [string, string][] = [
  [
    '020000004c1271c211717198227392b029a64a7971931d351b387bb80db027f270411e398a07046f7d4a08dd815412a8712f874a7ebf0507e3878bd24e20a3b73fd750a667d2f451eac7471b00de6659',
    '00000000002bef4107f882f6115e0b01f348d21195dacd3582aa2dabd7985806',
  ],
  [
    '0200000011503ee6a855e900c00cfdd98f5f55fffeaee9b6bf55bea9b852d9de2ce35828e204eef76acfd36949ae56d1fbe81c1ac9c0209e6331ad56414f9072506a77f8c6faf551eac7471b00389d01',
    '00000000003a0d11bdd5eb634e08b7feddcfbbf228ed35d250daf19f1c88fc94',
  ],
  [
    '02000000a72c8a177f523946f42f22c3e86b8023221b4105e8007e59e81f6beb013e29aaf635295cb9ac966213fb56e046dc71df5b3f7f67ceaeab24038e743f883aff1aaafaf551eac7471b0166249b',
    '00000000000b40f895f288e13244728a6c2d9d59d8aff29c65f8dd5114a8ca81',
  ],
  [
    '010000007824bc3a8a1b4628485eee3024abd8626721f7f870f8ad4d2f33a27155167f6a4009d1285049603888fe85a84b6c803a53305a8d497965a5e896e1a00568359589faf551eac7471b0065434e',
    '00000000003007005891cd4923031e99d8e8d72f6e8e7edc6a86181897e105fe',
  ],
  [
    '0200000050bfd4e4a307a8cb6ef4aef69abc5c0f2d579648bd80d7733e1ccc3fbc90ed664a7f74006cb11bde87785f229ecd366c2d4e44432832580e0608c579e4cb76f383f7f551eac7471b00c36982',
    '000000000018f0b426a4afc7130ccb47fa02af730d345b4fe7c7724d3800ec8c',
  ],
];

// Litecoin mainnet genesis, litecoin-project/litecoin src/chainparams.cpp:
//   genesis = CreateGenesisBlock(1317972665, 2084524493, 0x1e0ffff0, 1, 50 * COIN);
//   assert(consensus.hashGenesisBlock == uint256S("0x12a765e31ffd4059bada1e25190f6e98c99d9714d334efa41a195a7e7e04bfe2"));
//   assert(genesis.hashMerkleRoot == uint256S("0x97ddfbbae6be97fd6cdf3e7ca13232a3afff2353e29badfab7f73011edd4ced9"));
const LITECOIN_GENESIS = encodeBitcoinHeader({
  version: 1,
  prevHash: new Uint8Array(32),
  merkleRoot: displayHexToHash('97ddfbbae6be97fd6cdf3e7ca13232a3afff2353e29badfab7f73011edd4ced9'),
  time: 1317972665,
  bits: 0x1e0ffff0,
  nonce: 2084524493,
});

describe('SCRYPT (scrypt N=1024 r=1 p=1 of the 80-byte header)', () => {
  it.each(DOGECOIN_VECTORS)('hashes header %s', (header, expected) => {
    expect(hashToDisplayHex(scryptPow.hash(hexToBytes(header)))).toBe(expected);
  });

  it('Litecoin genesis: sha256d block hash, and a scrypt hash that meets its bits', () => {
    expect(hashToDisplayHex(sha256dHeader(LITECOIN_GENESIS))).toBe(
      '12a765e31ffd4059bada1e25190f6e98c99d9714d334efa41a195a7e7e04bfe2',
    );
    const powHash = scryptPow.hash(LITECOIN_GENESIS);
    expect(scryptPow.meetsTarget(powHash, targetFromBits(0x1e0ffff0))).toBe(true);
  });

  it('a flipped nonce byte changes the hash and loses the proof of work', () => {
    const [headerHex, expected] = DOGECOIN_VECTORS[0] as [string, string];
    const header = hexToBytes(headerHex);
    header[HEADER_NONCE_OFFSET + 1] = (header[HEADER_NONCE_OFFSET + 1] as number) ^ 0x80;
    const hash = scryptPow.hash(header);
    expect(hashToDisplayHex(hash)).not.toBe(expected);
    expect(scryptPow.meetsTarget(hash, BigInt(`0x${expected}`))).toBe(false);
  });

  it('uses the 65536 multiplier: a scrypt difficulty-1 target is 65536 × the SHA256 one', () => {
    expect(scryptPow.diff1Target).toBe((0xffffn << 208n) * 65536n);
    expect(scryptPow.targetForDifficulty(65536)).toBe(0xffffn << 208n);
  });

  it('rejects inputs that are not 80 bytes', () => {
    expect(() => scryptPow.hash(new Uint8Array(81))).toThrow(RangeError);
  });
});
