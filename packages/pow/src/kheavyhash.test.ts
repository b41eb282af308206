import { cshake256 } from '@noble/hashes/sha3-addons.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  cshake256PrefixState,
  cshakeHeavyHash,
  cshakeProofOfWorkHash,
  generateHeavyHashMatrix,
  heavyHash,
  heavyHashMatrixFor,
  type KaspaHeader,
  kaspaBlockHash,
  kaspaPowInput,
  kaspaPrePowHash,
  kaspaTargetFromBits,
  kheavyhashPow,
  MATRIX_CACHE_CAPACITY,
  matrixCacheSize,
  matrixRank,
} from './kheavyhash.js';

const matrixFromRows = (rows: string[]) => Uint8Array.from(rows.join(''), (c) => Number.parseInt(c, 16));
const rowHex = (matrix: Uint8Array, row: number) =>
  Array.from(matrix.subarray(row * 64, row * 64 + 64), (v) => v.toString(16)).join('');

// kaspanet/rusty-kaspa consensus/pow/src/matrix.rs, `test_heavy_hash`: the 64×64 test matrix (one hex
// digit per entry, one row per string), its input hash and the expected heavy hash.
const TEST_MATRIX = [
  'd2ed2fe3a418438fffff2bfff17cc42061eacef8ac05d3eaa6cbb766a224bc05',
  '4d021fddb25cf70a7263c0c0267777acbecc4ba0ab2a177cf95e9c30cd4d8fb6',
  'e6f9822c234cdf45d430e35e3d4f9c7f51dc998beb4ac6c86398160589c5ef22',
  '96760b562ec64d89219745a8bbbf7b1e38e828d788f71d7917ff00cfd5da156d',
  '40ca6be22f41242cd19a802ad8975382661c3014283d6f0de4f073785ee55012',
  'ce6334671327fffa9c063850d5060e2ca4b2a7768b44b93ca52655adca16e7c4',
  '7e677c41868dd5cea862c38f5ff3e0869c9738407e33de3732233c6741ea6a29',
  'ebf57a1b426297409cb23d154a566c811f42cc04e3b175943f73f98383367692',
  'a46a52fc0eefe0c91c4552a42db318a070c4b1e6e55bb13806bb8476e49e97d9',
  'c7982335e809742ff3bb85750fa80d1e8a14d1d3bb23a68ef2aac77663d81e21',
  '2b69d3c6046d8e69a2a84d650df42217533d7359fee60fb24f6989f269f844b1',
  'ab83bda2252efa2b0182e1a0375a78f725d4a362396b7e1b9337609b4a41974f',
  'd8febc539e15ede5d54a99006c572726661c9f7bbab1aa0814558aaf68dbb3f5',
  '8b5a1a91c76b11412844778271e18ffca4fb36a740a9b71e4e3ea4dc53c7a803',
  '9b6fea04776077cf54c3730c27b673285b9438bc35ec4dc03e49119eae8f6eaf',
  'aea0acf039ba3511917f78aacb51a366d0d145949f84dd455b1df3af7baf8ca3',
  '85b38dff3c1d17156d7851c3a7c6ecf53c2fbd1d8580df7d6da1b0895b299a4f',
  '04ce3175bd53bc68afb87a025f6a4231d76ce76eca6ec0cb6931cff355ab7fd3',
  'ce2ed6f788ed922a3f6ab7d0c1588c1b1324a7773a722301d582e0bd93d2e2f4',
  '00d69cf78074cf3271e493dcbc9937a919a2aeb0e4fcc998e19e0610d976d239',
  '80ad079751037a3f1f3b263a0aa34f86bb75857f1b7dd6dd423f95a6663bfd1f',
  '112a22959201e2b6b610d7e1fed7cb8b2b6a2300f0464c557ea603d081da5175',
  '052ca251e014fb87bef641667dc5d2162d5f088655203de2a576e514b2b18f24',
  '9945253ce51330067e0feb3a194e7e10fb59400a44078fc8a8121bceee8a15da',
  '5a44ba060ca59b8ab3bec946bc876e06c45390b6132c897ce7c6bd021318c2ff',
  'ab23ba171aae5da3bf9ebb3fb6fdd11a515ba39cc1563311c83f628e34a97d26',
  'c0104336831d6c1114c4499ef364b1c560a918e5284fcd7ec2694d0faa6c7c9a',
  '085bccb7292f110065a1bc8717a428251129203751553143e8b7802d3f1defbd',
  '8d5e299df82e42601dad6cfb6b99296e29c1d95ba44589da905f4c7a655f88be',
  '69671f014f53a9f9ec7630c8c2b8b81aa7753512db252aa1ee81b126fa87a703',
  'c6b1178155846564284100e2aeeb29efce937e47c93510c9a5bcaa6e6dd55ada',
  'c6d080a6ff730adead5dfe34aa966f270a6e29b755debf9420f54ee1345811ac',
  '2504b556a467a30ee0cfbcd7639198884a317a32c6fe068a19ccf71bfd04a0cb',
  '8cefefa02e3126021790fd5e68f4f6a6f3c854a5304da9846396cb9d8a998c12',
  'baff5ef759ee7b6638234eb1cfb600d7e3ce0f61b2b83d4cad7e9d3a2ed4cdea',
  '1b2c1a7c33e91a0b8acc4c2b503f82e3a21d6e008b6dfac77be92768e9eab99c',
  '5ae214b5a2d96cb5d45e87f984529b53c26174b4f052dbb2fa0c58a14b3db79e',
  '98a502587336b1df44b626db26945dc2877cef5c70ff05f039af9baa5393cd0d',
  '1bf0a535671b4b425c255615e915ec6a085bbbca8aa1e108470b31bcb8ef931e',
  'ebcc468ef1b2d362718149bf81ad4d277a52ccc3a82b038942f7f646c7e998ec',
  'f48cbb950076a58256ebd0df549fdcefa236ae1867a1e9cd72ca6bf1fbd06d7f',
  '33c5e9ee809122eb7131efc8e24da5a8176542b54de6df667cb5da9d9e567eb7',
  'ecb505a5717b10d65e305e678586636183a7f6b667d2200b1f2e514801801122',
  'add3fe9cff858a59667f10e91b6bd46e9cd8e6e23f44e49c809bda8e357b67f2',
  '99b6b0548a8b2c87bd61ddb4577964c0b86cb4fbc8bb136e96750a3fd701df1e',
  'a687369f13ae900a0f200060d99186d219e9148420850bcfd1eef7844c1c8395',
  'cb14ae8c24f2977bfcab74d08688a55d379dde68157c4469d1616e582a4a196f',
  '4d496b187bb13acb1a6a0730063921482a2f9feefe32766a884b1d602a0bfe69',
  'f0cd09a4b5a08732c6385fe2dd6b569ae5e4975bd271e9078cbf215b37516386',
  '038146313820ffefdab92b5c330153b6ab857f4c88ccc194b6ab1c8c561e2a30',
  'ad69b14a0d874cf5ec6900a5daf3087098a6b8adb7559d1f05f54799f8263858',
  'e0624c2d6a52216b169d0d93c438709c017aa739d5f4d0854eb33df99c95201e',
  '4ed0efbab13391c865fb17538d0db58186d4d7c65570c118164288fbbb4447dc',
  'efa04319d799f5039647db327168d7a4395926a79d2e2e72e2880909c67768cd',
  '5f8cb3d45ea4ff1a9e664c49c2fd25c232fbc262b679ca511596eb3b6abb0cf1',
  'c68a25798effdaf3aa6aea75376cbc89c9fff783fe1c00409a87ea8e6281ba01',
  'c12c7a4b5ea2294d3e3f50e77f6528f966da9863e7c978dced60519ce0bb63b7',
  'f48c8b4f162d177c08eeae0c033b742d00b258cb65600400199b32d4d9f47832',
  '3d88ca547dade32cb09564e46925a39a50c5f5ff2c3b0f9e1566e58059377cf1',
  '1b74d308b9f14c2ca4e39ee23bc45a6f2dd991bcce15f17ecabdd5247794efda',
  'ef9e95d200e86207ba2d2e964b5e616e6395293b1e54c535b3b6d7d7494d835b',
  'dccd8242a635776d86f4c7f4398f03c198daf4e16f0489313f551bbaba8854d0',
  '84f9e9588a5f98c5ba2cd1026db9c050b5ec342a3c5f48e10d9524d82589f355',
  '0334655132e5a7fb7df40c9fc031e1c9d89fc35b3b4194d74a6ed09bff33dfaf',
];

describe('kHeavyHash building blocks (rusty-kaspa vectors)', () => {
  it('test_heavy_hash: matrix × hash, XOR, cSHAKE256("HeavyHash")', () => {
    const input = Uint8Array.from([
      82, 46, 212, 218, 28, 192, 143, 92, 213, 66, 86, 63, 245, 241, 155, 189, 73, 159, 229, 180, 202, 105, 159, 166,
      109, 172, 128, 136, 169, 195, 97, 41,
    ]);
    const expected = Uint8Array.from([
      135, 104, 159, 55, 153, 67, 234, 249, 183, 71, 92, 169, 83, 37, 104, 119, 114, 191, 204, 104, 252, 120, 153, 202,
      235, 68, 9, 236, 69, 144, 195, 37,
    ]);
    expect(bytesToHex(heavyHash(matrixFromRows(TEST_MATRIX), input))).toBe(bytesToHex(expected));
  });

  it('test_generate_matrix: xoshiro256++ seeded with [42; 32] (rows 0, 1 and 63)', () => {
    const matrix = generateHeavyHashMatrix(new Uint8Array(32).fill(42));
    // [4, 5, 4, 5, …, 15, 3, …, 2, 10, …, 14, 1, 2, 2, 14, 10, 4, 12, 4, 12, 10, 10, 10, 10, 10, 10]
    expect(rowHex(matrix, 0)).toBe('4545454545454545f3f3f3f3f3f3f3f32a2a2a2a2a2a2a2ae122ea4c4caaaaaa');
    expect(rowHex(matrix, 1)).toBe('9b1b1b9b9b93cdb5ff5068186bf536732fe37be736ec39511084af9a6d117446');
    expect(rowHex(matrix, 63)).toBe('a5bec1c7c8a56a0756bbdc0d06b0e421c71a7f53ef1312a4b82b2554f5a3172e');
    expect(matrixRank(matrix)).toBe(64);
  });

  it('test_compute_rank: zero matrix, full rank, one duplicated row', () => {
    expect(matrixRank(new Uint8Array(4096))).toBe(0);
    const matrix = matrixFromRows(TEST_MATRIX);
    expect(matrixRank(matrix)).toBe(64);
    matrix.copyWithin(0, 64, 128); // row 0 = row 1
    expect(matrixRank(matrix)).toBe(63);
  });

  // crypto/hashes/src/pow_hashers.rs: INITIAL_STATE of `PowHash` (cSHAKE256 "ProofOfWorkHash", with the
  // padding of an 80-byte message already XORed into lanes 10 and 16) and of `KHeavyHash` (cSHAKE256
  // "HeavyHash", padding of a 32-byte message in lanes 4 and 16).
  it('cSHAKE256 prefix states match rusty-kaspa INITIAL_STATE', () => {
    const lanes = (state: Uint32Array) => Array.from(new BigUint64Array(state.slice().buffer));
    const pow = lanes(cshake256PrefixState('ProofOfWorkHash'));
    pow[10] = (pow[10] as bigint) ^ 0x04n;
    pow[16] = (pow[16] as bigint) ^ 0x8000000000000000n;
    expect(pow).toEqual([
      1242148031264380989n,
      3008272977830772284n,
      2188519011337848018n,
      1992179434288343456n,
      8876506674959887717n,
      5399642050693751366n,
      1745875063082670864n,
      8605242046444978844n,
      17936695144567157056n,
      3343109343542796272n,
      1123092876221303306n,
      4963925045340115282n,
      17037383077651887893n,
      16629644495023626889n,
      12833675776649114147n,
      3784524041015224902n,
      1082795874807940378n,
      13952716920571277634n,
      13411128033953605860n,
      15060696040649351053n,
      9928834659948351306n,
      5237849264682708699n,
      12825353012139217522n,
      6706187291358897596n,
      196324915476054915n,
    ]);
    const heavy = lanes(cshake256PrefixState('HeavyHash'));
    heavy[4] = (heavy[4] as bigint) ^ 0x04n;
    heavy[16] = (heavy[16] as bigint) ^ 0x8000000000000000n;
    expect(heavy).toEqual([
      4239941492252378377n,
      8746723911537738262n,
      8796936657246353646n,
      1272090201925444760n,
      16654558671554924250n,
      8270816933120786537n,
      13907396207649043898n,
      6782861118970774626n,
      9239690602118867528n,
      11582319943599406348n,
      17596056728278508070n,
      15212962468105129023n,
      7812475424661425213n,
      3370482334374859748n,
      5690099369266491460n,
      8596393687355028144n,
      570094237299545110n,
      9119540418498120711n,
      16901969272480492857n,
      13372017233735502424n,
      14372891883993151831n,
      5171152063242093102n,
      10573107899694386186n,
      6096431547456407061n,
      1592359455985097269n,
    ]);
  });

  it('test_pow_hash / test_heavy_hash inputs agree with a general cSHAKE256 (@noble/hashes)', () => {
    // pow_hashers.rs: timestamp 5435345234, nonce 432432432, pre_pow_hash [42; 32]
    const input = kaspaPowInput(new Uint8Array(32).fill(42), 5435345234n, 432432432n);
    const personalization = (s: string) => new TextEncoder().encode(s);
    expect(bytesToHex(cshakeProofOfWorkHash(input))).toBe(
      bytesToHex(cshake256(input, { personalization: personalization('ProofOfWorkHash'), dkLen: 32 })),
    );
    const val = new Uint8Array(32).fill(42);
    expect(bytesToHex(cshakeHeavyHash(val))).toBe(
      bytesToHex(cshake256(val, { personalization: personalization('HeavyHash'), dkLen: 32 })),
    );
  });
});

// Genesis blocks, kaspanet/rusty-kaspa consensus/core/src/config/genesis.rs (GENESIS, TESTNET_GENESIS,
// DEVNET_GENESIS): header fields and the block hash each must produce (`test_genesis_hashes`).
const ZERO = new Uint8Array(32);
const EMPTY_MUHASH = hexToBytes('544eb3142c000f0ad2c76ac41f4222abbababed830eeafee4b6dc56b52d5cac0');
const genesisHeader = (fields: Partial<KaspaHeader>): KaspaHeader => ({
  version: 0,
  parents: [],
  hashMerkleRoot: ZERO,
  acceptedIdMerkleRoot: ZERO,
  utxoCommitment: EMPTY_MUHASH,
  timestamp: 0n,
  bits: 0,
  nonce: 0n,
  daaScore: 0n,
  blueScore: 0n,
  blueWork: 0n,
  pruningPoint: ZERO,
  ...fields,
});
const MAINNET_GENESIS = genesisHeader({
  hashMerkleRoot: hexToBytes('8ec898568c6801d13df4ee6e2a1b54b7e6236f671f20954f05306410518eeb32'),
  utxoCommitment: hexToBytes('710f27df423e63aa6cdb72b89ea5a06cffa399d66f167704455b5af59def8e20'),
  timestamp: 1637609671037n,
  bits: 486722099,
  nonce: 0x3392cn,
  daaScore: 1312860n,
});
const TESTNET_GENESIS = genesisHeader({
  hashMerkleRoot: hexToBytes('17341408a5724556504df4d6cf515cbfbb220430dc451c743c22d5e911720c2a'),
  timestamp: 0x17c5f62fbb6n,
  bits: 0x1e7fffff,
  nonce: 0x14582n,
});
const DEVNET_GENESIS = genesisHeader({
  hashMerkleRoot: hexToBytes('58abf20321d70716162b6bf8d9f589ca33ae6e32b3b19abb7fa65d1141a3f94d'),
  timestamp: 0x11e9db49828n,
  bits: 0x1e21bc1c,
  nonce: 0x48e5en,
});

describe('KHEAVYHASH (Kaspa proof of work)', () => {
  it.each([
    ['mainnet', MAINNET_GENESIS, '58c2d4199e21f910d1571d114969cecef48f09f934d42ccb6a281a15868f2999'],
    ['testnet', TESTNET_GENESIS, 'f896a3034873be1739fc4359236899fd3d65d2bc94f9780df0d0da3eb1cc4370'],
    ['devnet', DEVNET_GENESIS, '4cb48d0b2073b802360145a15ad1abdc01d89b5c2fe4722630ab9b5fe9dfc4f2'],
  ])('serialises and hashes the %s genesis header to its block hash', (_name, header, hash) => {
    expect(bytesToHex(kaspaBlockHash(header))).toBe(hash);
  });

  it('hashes blue work as big-endian bytes without leading zeros (hashing/mod.rs test_hash_blue_work)', () => {
    // blue work 123456 is written as [3, 0, 0, 0, 0, 0, 0, 0, 1, 226, 64]: the hash differs from blue work 0
    const zero = bytesToHex(kaspaBlockHash(TESTNET_GENESIS));
    expect(bytesToHex(kaspaBlockHash({ ...TESTNET_GENESIS, blueWork: 123456n }))).not.toBe(zero);
  });

  it('testnet genesis: the kHeavyHash of its pre-PoW hash, time and nonce meets its bits', () => {
    const prePowHash = kaspaPrePowHash(TESTNET_GENESIS);
    const hash = kheavyhashPow.hash(kaspaPowInput(prePowHash, TESTNET_GENESIS.timestamp, TESTNET_GENESIS.nonce));
    const target = kaspaTargetFromBits(TESTNET_GENESIS.bits);
    expect(kheavyhashPow.meetsTarget(hash, target)).toBe(true);
    // the chance of a wrong implementation passing this is about 2^-17
    expect(target < 1n << 239n).toBe(true);
  });

  it('a flipped nonce byte changes the hash and loses the proof of work', () => {
    const prePowHash = kaspaPrePowHash(TESTNET_GENESIS);
    const input = kaspaPowInput(prePowHash, TESTNET_GENESIS.timestamp, TESTNET_GENESIS.nonce);
    const original = bytesToHex(kheavyhashPow.hash(input));
    input[72] = (input[72] as number) ^ 0x01;
    const hash = kheavyhashPow.hash(input);
    expect(bytesToHex(hash)).not.toBe(original);
    expect(kheavyhashPow.meetsTarget(hash, kaspaTargetFromBits(TESTNET_GENESIS.bits))).toBe(false);
  });

  it('caches matrices per pre-PoW hash, bounded', () => {
    const seed = new Uint8Array(32).fill(1);
    const first = heavyHashMatrixFor(seed);
    expect(heavyHashMatrixFor(Uint8Array.from(seed))).toBe(first);
    for (let i = 0; i <= MATRIX_CACHE_CAPACITY; i++) {
      const other = new Uint8Array(32);
      new DataView(other.buffer).setUint32(0, i + 1000, true);
      heavyHashMatrixFor(other);
    }
    expect(matrixCacheSize()).toBe(MATRIX_CACHE_CAPACITY);
    const regenerated = heavyHashMatrixFor(seed);
    expect(regenerated).not.toBe(first);
    expect(regenerated).toEqual(first);
  });

  it('uses the Kaspa stratum bridge convention: difficulty 1 = target 2^224 − 1 = 2^32 hashes', () => {
    expect(kheavyhashPow.diff1Target).toBe((1n << 224n) - 1n);
    expect(kheavyhashPow.hashesPerDifficulty).toBe(2 ** 32);
  });

  it('rejects inputs that are not 80 bytes', () => {
    expect(() => kheavyhashPow.hash(new Uint8Array(72))).toThrow(RangeError);
  });
});
