import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  blake2sPow,
  KADENA_NONCE_OFFSET,
  KADENA_WORK_LENGTH,
  kadenaNonce,
  kadenaTarget,
  setKadenaNonce,
} from './blake2s.js';

// Two real Kadena mainnet block headers (318-byte binary encoding; the work header is the first 286
// bytes), from kadena-io/chainweb-node test/unit/Chainweb/Test/BlockHeader/Validation.hs,
// `validationFailures` → `hdr` ("From mainnet"): the "parent" and "header" values, base64url there,
// hex here. Chain 0 (heights 318265 and 318266). A header is valid when Blake2s-256 of its work
// header, read little-endian, is <= the target at offset 158.
const MAINNET_HEADERS = {
  parent:
    '0051c100dc4790bcadda47fbbf9e05001cb17c5ad1fa904ff2230b0cd28ed124adfa7b53121d48553d84e2648f92ad360300' +
    '020000007da18811eedafb0193f0e7445f3f51be5cc95642609843e6ce4e366f38d03a2d060000008c5b20741dab882b48b3' +
    '48f8d2fa2f1867dc14866628f9f111711e91c576f1e50800000041c280da9cb42f9b75675bbcdf767ddd5e4de21a0abffefe' +
    '65e8c2fd02930b34ed80ac315e3e04a2f7fdec42e6a3f881aee54ba0afd86a79f92d020000000000b14c27581c0bca0a5bdd' +
    '0c5b6c58d3b80dd746ccdbe1af742edf0ef2830f000f07000000990fc0c55e4bb66401000000000000000000000000000000' +
    '000000000000000039db040000000000050000004f7861cdbf9e0500000061520db400009aeeee478b9b0deb1df4959bdc24' +
    '4c75900414f010fc0483c440f7dbf332e8fe',
  header:
    '0046e9008ceaa628a7b35afcbf9e05009aeeee478b9b0deb1df4959bdc244c75900414f010fc0483c440f7dbf332e8fe0300' +
    '02000000cbb412007a087858f425789d7bf728f8e684cf36166de66101fa615c8f3e211d060000006be3f33bfcd49a4d722c' +
    'ecadda40f7888e9c7a12aa43f29d2bc0faa99f97e97e08000000efd570da4a9b5431e6f560f392c170c59726c7938924d5be' +
    '81eee355adc78876ed80ac315e3e04a2f7fdec42e6a3f881aee54ba0afd86a79f92d020000000000bef4d6eef414eadd8af9' +
    'baaae354b0a81f8b62fccd81dec8e2348f681f3f5ea307000000dcf465d7d2c0b66401000000000000000000000000000000' +
    '00000000000000003adb040000000000050000004f7861cdbf9e05000000fbc8edf90000516e62408765170d975937f80d44' +
    '66fc8fc6188529d1d9c19453aa8b39eda88e',
};

const work = (name: keyof typeof MAINNET_HEADERS) => hexToBytes(MAINNET_HEADERS[name]).slice(0, KADENA_WORK_LENGTH);

describe('BLAKE2S (Kadena)', () => {
  it('is Blake2s-256 (RFC 7693 Appendix B: BLAKE2s-256("abc"))', async () => {
    const { createHash } = await import('node:crypto');
    expect(createHash('blake2s256').update('abc').digest('hex')).toBe(
      '508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982',
    );
  });

  it.each(['parent', 'header'] as const)('mainnet %s: the work hash meets the target it carries', (name) => {
    const w = work(name);
    const target = kadenaTarget(w);
    const hash = blake2sPow.hash(w);
    expect(blake2sPow.meetsTarget(hash, target)).toBe(true);
    // The hash has at least as many leading zero bits (at the little-endian end) as the target.
    expect(blake2sPow.hashValue(hash) <= target).toBe(true);
    expect(hash[31]).toBe(0);
  });

  it('reads the nonce at offset 278', () => {
    expect(kadenaNonce(work('header'))).toBe(274799674458112n);
    const w = work('header');
    setKadenaNonce(w, 1n);
    expect(w[KADENA_NONCE_OFFSET]).toBe(1);
    expect(kadenaNonce(w)).toBe(1n);
  });

  it('a flipped nonce byte changes the hash and loses the proof of work', () => {
    const w = work('header');
    const original = bytesToHex(blake2sPow.hash(w));
    w[KADENA_NONCE_OFFSET + 5] = (w[KADENA_NONCE_OFFSET + 5] as number) ^ 0x01;
    const hash = blake2sPow.hash(w);
    expect(bytesToHex(hash)).not.toBe(original);
    expect(blake2sPow.meetsTarget(hash, kadenaTarget(w))).toBe(false);
  });

  it('difficulty = 2^256 / target', () => {
    expect(blake2sPow.difficultyForTarget(1n << 200n)).toBe(2 ** 56);
    expect(blake2sPow.targetForDifficulty(2 ** 56)).toBe((1n << 200n) - 1n);
  });

  it('rejects inputs that are not 286 bytes', () => {
    expect(() => blake2sPow.hash(new Uint8Array(318))).toThrow(RangeError);
  });
});
