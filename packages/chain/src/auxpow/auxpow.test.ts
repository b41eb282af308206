import { readFileSync } from 'node:fs';
import { encodeBitcoinHeader, POW, targetFromBits } from '@lodestone/pow';
import { describe, expect, it } from 'vitest';
import { type ParsedTransaction, readTransaction } from '../bitcoin/block.js';
import { hashFromRpcHex, hashToRpcHex, int32LE, uint32LE } from '../bitcoin/bytes.js';
import { buildCoinbase, serializeOutputs } from '../bitcoin/coinbase.js';
import { sha256d } from '../bitcoin/hash.js';
import { coinbaseMerkleBranch, merkleRoot, merkleRootFromBranch } from '../bitcoin/merkle.js';
import { ByteReader } from '../bitcoin/reader.js';
import { encodeVarInt, pushData } from '../bitcoin/serialize.js';
import {
  type AuxHeader,
  type AuxPow,
  auxMerkleCommitment,
  buildAuxPow,
  checkAuxPow,
  DOGECOIN_CHAIN_ID,
  expectedAuxIndex,
  foldMerkleBranch,
  MERGED_MINING_MAGIC,
  readAuxHeader,
  readAuxPow,
  serializeAuxPow,
} from './auxpow.js';

/*
 * Fixtures: real Dogecoin mainnet blocks, copied byte for byte from dogecoin/libdohj at commit
 * 3dd6d7548843fe1891366e0325a05587eb21d1aa (files last changed in bacc3485413737ef5e49189394558dda9521c4e3),
 * core/src/test/resources/org/bitcoinj/core/dogecoin_block{371337,748634,894863}.bin. The published
 * hashes and the parent coinbase / parent header / branch values asserted below are the ones
 * libdohj's core/src/test/java/org/bitcoinj/core/DogecoinBlockTest.java (same commit) asserts.
 *
 * The rule cases mirror check_auxpow in dogecoin/dogecoin src/test/auxpow_tests.cpp (as stored at
 * 07ee1780df748b6aad3e01092108cbe07f15e460), applied by mutating the real proof of block 371,337.
 */
const REAL_BLOCKS = [
  { height: 371337, hash: '60323982f9c5ff1b5a954eac9dc1269352835f47c2c5222691d80f0d50dcf053', txs: 6 },
  { height: 748634, hash: 'bd98a06391115285265c04984e8505229739f6ffa5d498929a91fbe7c281ea7b' },
  { height: 894863, hash: '93a207e6d227f4d60ee64fad584b47255f654b0b6378d78e774123dd66f4fef9' },
] as const;

interface RealBlock {
  bytes: Buffer;
  aux: AuxHeader;
  auxpow: AuxPow;
  /** Where the AuxPoW's bytes are in the block. */
  auxpowBytes: Buffer;
  transactions: ParsedTransaction[];
}

function loadBlock(height: number): RealBlock {
  const bytes = readFileSync(new URL(`./fixtures/dogecoin_block${height}.bin`, import.meta.url));
  const reader = new ByteReader(bytes);
  const aux = readAuxHeader(reader);
  const auxpowEnd = reader.position;
  const count = reader.varInt('tx count');
  const transactions: ParsedTransaction[] = [];
  for (let i = 0; i < count; i++) transactions.push(readTransaction(reader));
  expect(reader.remaining).toBe(0);
  if (aux.auxpow === undefined) throw new Error(`block ${height} has no auxpow`);
  return { bytes, aux, auxpow: aux.auxpow, auxpowBytes: bytes.subarray(80, auxpowEnd), transactions };
}

/** A legacy (no witness) serialization of a transaction with its first input's script replaced. */
function withInputScript(tx: ParsedTransaction, script: Uint8Array): ParsedTransaction {
  expect(tx.hasWitness).toBe(false);
  const inputs = tx.inputs.map((input, i) =>
    Buffer.concat([
      input.prevTxid,
      uint32LE(input.prevIndex),
      encodeVarInt(i === 0 ? script.length : input.script.length),
      i === 0 ? script : input.script,
      uint32LE(input.sequence),
    ]),
  );
  const raw = Buffer.concat([
    int32LE(tx.version),
    encodeVarInt(inputs.length),
    ...inputs,
    serializeOutputs(tx.outputs),
    uint32LE(tx.lockTime),
  ]);
  return readTransaction(new ByteReader(raw));
}

/**
 * The proof with another parent coinbase script, the parent header's merkle root recomputed through
 * the same branch: what a parent block with that coinbase would have carried, so that the script rules
 * are reached (the parent's proof of work no longer holds, which check does not look at).
 */
function withCoinbaseScript(auxpow: AuxPow, script: Uint8Array): AuxPow {
  const coinbase = withInputScript(auxpow.coinbase, script);
  const parentHeader = Buffer.from(auxpow.parentHeader);
  merkleRootFromBranch(coinbase.txid, auxpow.coinbaseBranch).copy(parentHeader, 36);
  return { ...auxpow, coinbase, parentHeader };
}

function scriptOf(auxpow: AuxPow): Buffer {
  return (auxpow.coinbase.inputs[0] as ParsedTransaction['inputs'][number]).script;
}

describe('real merge-mined Dogecoin blocks (libdohj fixtures)', () => {
  for (const expected of REAL_BLOCKS) {
    describe(`block ${expected.height}`, () => {
      const block = loadBlock(expected.height);

      it('parses: published hash, chain id 0x0062, base version 2, transactions reach the merkle root', () => {
        expect(hashToRpcHex(block.aux.hash)).toBe(expected.hash);
        expect(block.aux.chainId).toBe(DOGECOIN_CHAIN_ID);
        expect(block.aux.header.version & 0xff).toBe(2);
        expect(block.aux.header.nonce).toBe(0);
        if ('txs' in expected) expect(block.transactions).toHaveLength(expected.txs);
        expect(merkleRoot(block.transactions.map((tx) => tx.txid))).toEqual(block.aux.header.merkleRoot);
      });

      it('passes the AuxPoW check with Dogecoin chain id', () => {
        const verdict = checkAuxPow(block.auxpow, block.aux.hash, DOGECOIN_CHAIN_ID);
        expect(verdict).toMatchObject({ valid: true });
        if (!verdict.valid) return;
        expect(verdict.treeSize).toBe(2 ** block.auxpow.chainBranch.length);
        expect(expectedAuxIndex(verdict.nonce, DOGECOIN_CHAIN_ID, block.auxpow.chainBranch.length)).toBe(
          block.auxpow.chainIndex,
        );
      });

      it("the parent header's scrypt hash meets the target of the Dogecoin header's bits", () => {
        const target = targetFromBits(block.aux.header.bits);
        expect(POW.scrypt.meetsTarget(POW.scrypt.hash(block.auxpow.parentHeader), target)).toBe(true);
        // ... while the Dogecoin header itself (nonce 0) does not: the work is the parent's.
        expect(POW.scrypt.meetsTarget(POW.scrypt.hash(block.aux.headerBytes), target)).toBe(false);
      });

      it('serializes back to the same bytes', () => {
        expect(serializeAuxPow(block.auxpow)).toEqual(block.auxpowBytes);
      });
    });
  }

  it("block 371337's parent coinbase, parent header and branches are libdohj's", () => {
    const { auxpow } = loadBlock(371337);
    expect(hashToRpcHex(auxpow.coinbase.txid)).toBe('e5422732b20e9e7ecc243427abbe296e9528d308bb111aae8d30c3465e442de8');
    expect(hashToRpcHex(sha256d(auxpow.parentHeader))).toBe(
      '45df41e40aba5b2a03d08bd1202a1c02ef3954d8aa22ea6c5ae62fd00f290ea9',
    );
    expect(auxpow.chainBranch.map(hashToRpcHex)).toEqual([
      'b541c848bc001d07d2bdf8643abab61d2c6ae50d5b2495815339a4b30703a46f',
      '78d6abe48cee514cf3496f4042039acb7e27616dcfc5de926ff0d6c7e5987be7',
      'a0469413ce64d67c43902d54ee3a380eff12ded22ca11cbd3842e15d48298103',
    ]);
    expect(auxpow.coinbaseBranch.map(hashToRpcHex)).toEqual([
      'cd3947cd5a0c26fde01b05a3aa3d7a38717be6ae11d27239365024db36a679a9',
      '48f9e8fef3411944e27f49ec804462c9e124dca0954c71c8560e8a9dd218a452',
      'd11293660392e7c51f69477a6130237c72ecee2d0c1d3dc815841734c370331a',
    ]);
    // The commitment as the parent coinbase carries it: magic, root (byte-reversed), size 8, nonce 0.
    const script = scriptOf(auxpow);
    const root = foldMerkleBranch(hashFromRpcHex(REAL_BLOCKS[0].hash), auxpow.chainBranch, auxpow.chainIndex);
    const at = script.indexOf(MERGED_MINING_MAGIC);
    expect(script.subarray(at + 4, at + 36)).toEqual(Buffer.from(root).reverse());
    expect(script.readUInt32LE(at + 36)).toBe(8);
    expect(script.readUInt32LE(at + 40)).toBe(0);
  });

  it("block 894863's parent coinbase is libdohj's", () => {
    expect(hashToRpcHex(loadBlock(894863).auxpow.coinbase.txid)).toBe(
      'c84431cf41f592373cc70db07f6804f945202f5f7baad31a8bbab89aaecb7b8b',
    );
  });
});

describe('checkAuxPow refuses, rule by rule (auxpow_tests.cpp cases on the real proof of block 371337)', () => {
  const { auxpow, aux } = loadBlock(371337);
  const hash = aux.hash;
  const height = auxpow.chainBranch.length;
  const script = scriptOf(auxpow);
  const magicAt = script.indexOf(MERGED_MINING_MAGIC);
  const rootEnd = magicAt + 4 + 32;
  const ruleOf = (proof: AuxPow, auxHash: Uint8Array = hash, chainId = DOGECOIN_CHAIN_ID) => {
    const verdict = checkAuxPow(proof, auxHash, chainId);
    return verdict.valid ? 'valid' : verdict.rule;
  };

  it('the unmodified proof and the rebuilt-coinbase helper are valid', () => {
    expect(ruleOf(auxpow)).toBe('valid');
    expect(ruleOf(withCoinbaseScript(auxpow, script))).toBe('valid');
  });

  it('a parent transaction other than the coinbase', () => {
    expect(ruleOf({ ...auxpow, coinbaseIndex: 1 })).toBe('coinbase-not-first');
  });

  it('a parent carrying our chain id (libdohj: the Dogecoin header as its own parent)', () => {
    expect(ruleOf({ ...auxpow, parentHeader: aux.headerBytes })).toBe('parent-has-our-chain-id');
  });

  it('a wrong chain id: the slot is not the one its nonce selects', () => {
    expect(expectedAuxIndex(0, DOGECOIN_CHAIN_ID + 1, height)).not.toBe(auxpow.chainIndex);
    expect(ruleOf(auxpow, hash, DOGECOIN_CHAIN_ID + 1)).toBe('chain-index');
  });

  it('a chain branch longer than 30', () => {
    const long = Array.from({ length: 31 }, (_, i) => Buffer.alloc(32, i));
    expect(ruleOf({ ...auxpow, chainBranch: long })).toBe('chain-branch-too-long');
  });

  it('another aux block hash', () => {
    const other = Buffer.from(hash);
    other[0] = (other[0] as number) ^ 1;
    expect(ruleOf(auxpow, other)).toBe('root-not-in-coinbase');
  });

  it('a tampered coinbase (or parent merkle root)', () => {
    const raw = Buffer.from(auxpow.coinbase.raw);
    raw[raw.length - 10] = (raw[raw.length - 10] as number) ^ 0xff; // inside the output script
    const tampered = readTransaction(new ByteReader(raw));
    expect(ruleOf({ ...auxpow, coinbase: tampered })).toBe('parent-merkle-root');
    const header = Buffer.from(auxpow.parentHeader);
    header[40] = (header[40] as number) ^ 1;
    expect(ruleOf({ ...auxpow, parentHeader: header })).toBe('parent-merkle-root');
  });

  it('a coinbase without input', () => {
    expect(ruleOf({ ...auxpow, coinbase: { ...auxpow.coinbase, inputs: [] } })).toBe('coinbase-without-input');
  });

  it('the magic twice', () => {
    const doubled = Buffer.concat([script, MERGED_MINING_MAGIC]);
    expect(ruleOf(withCoinbaseScript(auxpow, doubled))).toBe('magic-twice');
    const smuggled = Buffer.concat([script.subarray(0, magicAt), MERGED_MINING_MAGIC, script.subarray(magicAt)]);
    expect(ruleOf(withCoinbaseScript(auxpow, smuggled))).toBe('magic-twice');
  });

  it('the magic not right before the root', () => {
    const gap = Buffer.concat([script.subarray(0, magicAt + 4), Buffer.from([0]), script.subarray(magicAt + 4)]);
    expect(ruleOf(withCoinbaseScript(auxpow, gap))).toBe('magic-not-before-root');
  });

  it('the legacy form without magic: accepted when the root starts within 20 bytes, refused after', () => {
    const legacy = Buffer.concat([script.subarray(0, magicAt), script.subarray(magicAt + 4)]);
    expect(legacy.indexOf(Buffer.from(scriptOf(auxpow).subarray(magicAt + 4, rootEnd)))).toBeLessThanOrEqual(20);
    expect(ruleOf(withCoinbaseScript(auxpow, legacy))).toBe('valid');
    const late = Buffer.concat([Buffer.alloc(21, 0x51), legacy]);
    expect(ruleOf(withCoinbaseScript(auxpow, late))).toBe('legacy-root-too-late');
  });

  it('size and nonce cut short', () => {
    expect(ruleOf(withCoinbaseScript(auxpow, script.subarray(0, rootEnd + 7)))).toBe('size-and-nonce-missing');
  });

  it('a tree size that is not 2^(branch length)', () => {
    const wrong = Buffer.from(script);
    wrong.writeUInt32LE(2 ** (height - 1), rootEnd);
    expect(ruleOf(withCoinbaseScript(auxpow, wrong))).toBe('tree-size');
  });

  it('another merkle nonce', () => {
    const wrong = Buffer.from(script);
    wrong.writeUInt32LE(wrong.readUInt32LE(rootEnd + 4) + 3, rootEnd + 4);
    expect(ruleOf(withCoinbaseScript(auxpow, wrong))).toBe('chain-index');
  });

  it('the aux hash in another slot, its root committed', () => {
    const slot = (auxpow.chainIndex + 1) % 2 ** height;
    const root = foldMerkleBranch(hash, auxpow.chainBranch, slot);
    const moved = Buffer.from(script);
    Buffer.from(root)
      .reverse()
      .copy(moved, magicAt + 4);
    const proof = { ...withCoinbaseScript(auxpow, moved), chainIndex: slot };
    expect(ruleOf(proof)).toBe('chain-index');
  });
});

describe('expectedAuxIndex', () => {
  it('is Dogecoin’s slot formula in unsigned 32-bit arithmetic', () => {
    // The same steps in BigInt arithmetic, reduced mod 2^32 after each one.
    const slot = (nonce: bigint, chainId: bigint, height: bigint) => {
      const mod = 2n ** 32n;
      let r = (nonce * 1103515245n + 12345n) % mod;
      r = (r + chainId) % mod;
      r = (r * 1103515245n + 12345n) % mod;
      return Number(r % 2n ** height);
    };
    for (const [nonce, chainId, height] of [
      [0, 98, 30],
      [0, 98, 3],
      [7, 98, 30],
      [0xfffffffe, 0x62, 12],
      [123456789, 0x10, 5],
    ] as const) {
      expect(expectedAuxIndex(nonce, chainId, height)).toBe(slot(BigInt(nonce), BigInt(chainId), BigInt(height)));
    }
    expect(expectedAuxIndex(0, 98, 0)).toBe(0);
    expect(expectedAuxIndex(0xffffffff, 98, 30)).toBe(expectedAuxIndex(-1, 98, 30));
  });
});

describe('building a merged-mining proof', () => {
  const BELLS_LIKE_CHAIN_ID = 0x10; // a second chain id for the test; not asserted to be Bellscoin's
  const dogeHash = hashFromRpcHex(REAL_BLOCKS[0].hash);
  const otherHash = sha256d(Buffer.from('second aux chain block'));

  it('one chain takes the whole (size 1) tree: the root is its hash', () => {
    const one = auxMerkleCommitment(new Map([[DOGECOIN_CHAIN_ID, dogeHash]]));
    expect(one.size).toBe(1);
    expect(one.root).toEqual(dogeHash);
    expect(one.slots.get(DOGECOIN_CHAIN_ID)).toMatchObject({ index: 0, branch: [] });
  });

  it('two chains: commitment in a coinbase, proof built, both checked; the wire form round-trips', () => {
    const commitment = auxMerkleCommitment(
      new Map([
        [DOGECOIN_CHAIN_ID, dogeHash],
        [BELLS_LIKE_CHAIN_ID, otherHash],
      ]),
    );
    expect(commitment.size).toBeGreaterThanOrEqual(2);
    expect(commitment.script).toHaveLength(44);
    expect(commitment.script.subarray(0, 4)).toEqual(MERGED_MINING_MAGIC);
    expect(commitment.script.subarray(4, 36)).toEqual(Buffer.from(commitment.root).reverse());
    const slots = [...commitment.slots.values()];
    expect(new Set(slots.map((s) => s.index)).size).toBe(2);

    // The parent (Litecoin-like) coinbase from our own builder, the commitment as one push.
    const parts = buildCoinbase({
      height: 2_500_000,
      outputs: [
        { value: 625_000_000n, script: Buffer.from('76a914000000000000000000000000000000000000000088ac', 'hex') },
      ],
      extranonceSize: 8,
      auxData: pushData(commitment.script),
      poolTag: 'lodestone',
    });
    const rawCoinbase = Buffer.concat([parts.coinbase1, Buffer.from('0102030405060708', 'hex'), parts.coinbase2]);
    const coinbase = readTransaction(new ByteReader(rawCoinbase));
    const others = [sha256d(Buffer.from('tx a')), sha256d(Buffer.from('tx b')), sha256d(Buffer.from('tx c'))];
    const branch = coinbaseMerkleBranch(others);
    const header = Buffer.from(
      encodeBitcoinHeader({
        version: 0x20000000,
        prevHash: Buffer.alloc(32, 7),
        merkleRoot: merkleRoot([coinbase.txid, ...others]),
        time: 1_700_000_000,
        bits: 0x207fffff,
        nonce: 0,
      }),
    );
    // Solve the parent at an easy (regtest-like) target, as a share would.
    const easy = targetFromBits(0x207fffff);
    while (!POW.scrypt.meetsTarget(POW.scrypt.hash(header), easy))
      header.writeUInt32LE(header.readUInt32LE(76) + 1, 76);

    for (const [chainId, auxHash] of [
      [DOGECOIN_CHAIN_ID, dogeHash],
      [BELLS_LIKE_CHAIN_ID, otherHash],
    ] as const) {
      const slot = commitment.slots.get(chainId);
      if (slot === undefined) throw new Error('missing slot');
      const proof = buildAuxPow({ coinbase, coinbaseBranch: branch, parentHeader: header, slot });
      expect(checkAuxPow(proof, auxHash, chainId)).toMatchObject({
        valid: true,
        treeSize: commitment.size,
        nonce: commitment.nonce,
      });
      const reread = readAuxPow(new ByteReader(serializeAuxPow(proof)));
      expect(serializeAuxPow(reread)).toEqual(serializeAuxPow(proof));
      expect(checkAuxPow(reread, auxHash, chainId).valid).toBe(true);
      // The other chain's hash is not in this chain's slot.
      const swapped = chainId === DOGECOIN_CHAIN_ID ? otherHash : dogeHash;
      expect(checkAuxPow(proof, swapped, chainId).valid).toBe(false);
    }
  });

  it('refuses an empty set of chains and a tree that cannot hold them', () => {
    expect(() => auxMerkleCommitment(new Map())).toThrow(RangeError);
    const many = new Map(Array.from({ length: 5 }, (_, i) => [i + 1, sha256d(Buffer.from([i]))] as const));
    expect(() => auxMerkleCommitment(many, { maxHeight: 2 })).toThrow(RangeError);
  });
});
