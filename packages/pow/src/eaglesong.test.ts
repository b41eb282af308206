import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  ckbBlockHash,
  ckbHash,
  ckbPowHash,
  ckbPowMessage,
  EAGLESONG_INJECTION_CONSTANTS,
  eaglesong,
  eaglesongPow,
  encodeCkbRawHeader,
} from './eaglesong.js';
import { targetFromCompact } from './target.js';

describe('Eaglesong hash', () => {
  // nervosnetwork/eaglesong src/test_vectors.txt (outputs generated there by the RFC's eaglesong.py)
  it.each([
    ['61', '34d81e6aa4551c99edba23e65b69af25b478f5e8233461a7a8c0eb3f40407c97'],
    ['616263', '1e93baa3ff9f8afa381430b7811d428c5b4514f39f6a78d00511b20305067b68'],
    ['6d65737361676520646967657374', 'f1d33eb7907454979d67d06dd6995806e397941a8280a25cbabecb43496217e3'],
    [
      '6162636465666768696a6b6c6d6e6f707172737475767778797a',
      'e759b93888208f7df31f749590a7c59420deb04810bae49744cc43f4e3b8094f',
    ],
    [
      '4142434445464748494a4b4c4d4e4f505152535455565758595a6162636465666768696a6b6c6d6e6f707172737475767778797a30313233343536373839',
      '2893d0188b08fdc50bad2e9854ff74210eb9805f20f15d7ee1f5410163bcd295',
    ],
    [
      '3132333435363738393031323334353637383930313233343536373839303132333435363738393031323334353637383930313233343536373839303132333435363738393031323334353637383930',
      '5f68529f2cbea3c01ef570f0fe03e19c4fa0a1a366ab21fa75e686def0fb726a',
    ],
    [
      '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f',
      '4bd70497c1045cbf2fbd946e55912ef76dc58c678812910518369911d79a5a46',
    ],
    [
      '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f8081',
      '4f91345f65bd47fde7f83b534ae4f5d0af3d8129e479583ac3b2ff02f2e83c76',
    ],
  ])('test_vectors.txt input %s', (input, output) => {
    expect(bytesToHex(eaglesong(hexToBytes(input)))).toBe(output);
  });

  // nervosnetwork/eaglesong src/lib.rs tests: BLANK_HASH, HASH_34_1, HASH_32_1_2_2
  it.each([
    ['', '9e4452fc7aed93d7240b7b55263792befd1be09252b456401122ba71a56f62a0'],
    ['1111111111111111111111111111111111\n', 'a50a3310f78cbaeadcffe2d46262119eeeda9d6568b4df1b636399742c867aca'],
    ['1111111111111111111111111111111122\n', 'd7b68a8ba4cfc606e86ed7e2ca3244ff27b28bb24c28ee09af4b1f47af9b9236'],
  ])('lib.rs vector %j', (text, output) => {
    expect(bytesToHex(eaglesong(new TextEncoder().encode(text)))).toBe(output);
  });

  it('derives the injection constants of the RFC table from SHAKE256', () => {
    // nervosnetwork/rfcs rfcs/0010-eaglesong/0010-eaglesong.md, `injection_constants`
    expect(EAGLESONG_INJECTION_CONSTANTS.length).toBe(688);
    expect(EAGLESONG_INJECTION_CONSTANTS[0]).toBe(0x6e9e40ae);
    expect(EAGLESONG_INJECTION_CONSTANTS[1]).toBe(0x71927c02);
    expect(EAGLESONG_INJECTION_CONSTANTS[16]).toBe(0x6260c9e6);
    expect(EAGLESONG_INJECTION_CONSTANTS[687]).toBe(0xb7d8ce7f);
  });
});

describe('EAGLESONG (Nervos CKB proof of work)', () => {
  it('builds the pow message pow_hash ‖ u128 LE nonce (nervosnetwork/ckb pow/src/tests.rs)', () => {
    // test_pow_message: pow_message(blake2b_256([]), u128::MAX)
    const zeroHash = ckbHash(new Uint8Array(0));
    expect(bytesToHex(zeroHash)).toBe('44f4c69744d5f8c55d642062949dcae49bc4e7ef43d388c5a12f42b5633d163e');
    expect(bytesToHex(ckbPowMessage(zeroHash, (1n << 128n) - 1n))).toBe(
      '44f4c69744d5f8c55d642062949dcae49bc4e7ef43d388c5a12f42b5633d163effffffffffffffffffffffffffffffff',
    );
  });

  // CKB mainnet block 18,731,746 (header as served by the CKB RPC `get_header`; fields quoted from
  // the test data of ckb-light-esp, test/test_header_chain.cpp, checked there against a mainnet node).
  // The block hash and the proof of work below are facts of the chain that these fields must reproduce.
  const raw = encodeCkbRawHeader({
    version: 0,
    compactTarget: 0x190c561d,
    timestamp: 0x19ca64cc29dn,
    number: 0x11dd2e2n,
    epoch: 0x4a202100035b1n,
    parentHash: hexToBytes('f58c3f31367dbd2048e35855a81cdaeef20ce52d282d95552be1e67ec5dfd3c0'),
    transactionsRoot: hexToBytes('a446f35a76532887b1bb2300150022f735cf393cee7c74dc7a9d82c43afdd365'),
    proposalsHash: hexToBytes('701fe0e115ac20dc3492fdcee5ebe574f268aeec7151401afe905d6531575eff'),
    extraHash: hexToBytes('1206e7ad3f4774b819e3a862cbce25cb83b785abeabe7a5645bbc54e86bc9ccd'),
    dao: hexToBytes('73e10496f6fc48588fb17d6b8f492a005c4eec29eed472090058de774afc3507'),
  });
  const nonce = 0xef5253f22d9822be0000001537651703n;

  it('mainnet block 18,731,746: block hash and pow_hash', () => {
    expect(bytesToHex(ckbBlockHash(raw, nonce))).toBe(
      '2ab1c231a9f43997eef6123f834d31d3497fcd79845c8abd9d906d47b31830fa',
    );
    expect(bytesToHex(ckbPowHash(raw))).toBe('756922e2fab65d403f29da75d4c68521b26d01ecc46e4f28d3b781035ca47288');
  });

  it('mainnet block 18,731,746: Eaglesong of the pow message meets compact_target 0x190c561d', () => {
    const hash = eaglesongPow.hash(ckbPowMessage(ckbPowHash(raw), nonce));
    const target = targetFromCompact(0x190c561d);
    expect(eaglesongPow.meetsTarget(hash, target)).toBe(true);
    // read big-endian: the leading bytes are the zero ones
    expect(hash[0]).toBe(0);
    expect(eaglesongPow.hashValue(hash)).toBe(BigInt(`0x${bytesToHex(hash)}`));
  });

  it('a flipped nonce byte changes the hash and loses the proof of work', () => {
    const message = ckbPowMessage(ckbPowHash(raw), nonce);
    const original = bytesToHex(eaglesongPow.hash(message));
    message[32] = (message[32] as number) ^ 0x01;
    const hash = eaglesongPow.hash(message);
    expect(bytesToHex(hash)).not.toBe(original);
    expect(eaglesongPow.meetsTarget(hash, targetFromCompact(0x190c561d))).toBe(false);
  });

  it('rejects inputs that are not 48 bytes', () => {
    expect(() => eaglesongPow.hash(new Uint8Array(32))).toThrow(RangeError);
    expect(() => ckbPowMessage(new Uint8Array(32), 1n << 128n)).toThrow(RangeError);
  });
});
