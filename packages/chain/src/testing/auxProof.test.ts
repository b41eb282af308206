/**
 * The stand-in's AuxPoW checker on real data: three merge-mined Dogecoin mainnet blocks (the libdohj
 * fixtures the pool's own tests use, read here as files only) verify against their own hashes, chain
 * id 0x62 and the targets of their bits; each mutation is refused with Dogecoin's own reason.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sha256d } from '../bitcoin/hash.js';
import { encodeVarInt } from '../bitcoin/serialize.js';
import {
  type AuxProof,
  checkAuxProof,
  compactTarget,
  expectedChainIndex,
  foldMerkleBranch,
  MERGED_MINING_MAGIC,
  parseAuxProof,
  scryptPowValue,
  serializeAuxProof,
  verifyAuxProof,
} from './auxProof.js';

const DOGECOIN_CHAIN_ID = 0x62;

// Published hashes of the fixtures (dogecoin/libdohj DogecoinBlockTest.java, as auxpow.test.ts records).
const REAL_BLOCKS = [
  { height: 371337, hash: '60323982f9c5ff1b5a954eac9dc1269352835f47c2c5222691d80f0d50dcf053' },
  { height: 748634, hash: 'bd98a06391115285265c04984e8505229739f6ffa5d498929a91fbe7c281ea7b' },
  { height: 894863, hash: '93a207e6d227f4d60ee64fad584b47255f654b0b6378d78e774123dd66f4fef9' },
] as const;

interface RealBlock {
  header: Buffer;
  hash: string;
  target: bigint;
  auxpow: Buffer;
  proof: AuxProof;
  /** What follows the proof in the block: the transaction count and transactions. */
  rest: Buffer;
}

function loadBlock(height: number): RealBlock {
  const bytes = readFileSync(new URL(`../auxpow/fixtures/dogecoin_block${height}.bin`, import.meta.url));
  const header = bytes.subarray(0, 80);
  const { proof, size } = parseAuxProof(bytes.subarray(80));
  return {
    header,
    hash: Buffer.from(sha256d(header)).reverse().toString('hex'),
    target: compactTarget(header.readUInt32LE(72)).target,
    auxpow: bytes.subarray(80, 80 + size),
    proof,
    rest: bytes.subarray(80 + size),
  };
}

const reasonOf = (proof: AuxProof, hash: string, target: bigint, chainId = DOGECOIN_CHAIN_ID, strict = true) => {
  const verdict = checkAuxProof(proof, hash, { chainId, strictChainId: strict, target });
  return verdict.ok ? 'ok' : verdict.reason;
};

/**
 * The proof with another scriptSig in its (legacy, one-input) parent coinbase, and the parent header's
 * merkle root recomputed through the same branch, so that the script rules are what is reached.
 */
function withScript(proof: AuxProof, script: Buffer): AuxProof {
  const raw = proof.coinbase.raw;
  const old = proof.coinbase.script;
  if (old === undefined) throw new Error('no input');
  const oldLength = encodeVarInt(old.length).length;
  // version (4) + input count (1) + prevout (36), then the script's length and the script.
  const rebuilt = Buffer.concat([
    raw.subarray(0, 41),
    encodeVarInt(script.length),
    script,
    raw.subarray(41 + oldLength + old.length),
  ]);
  const reread = parseAuxProof(serializeAuxProof({ ...proof, coinbase: { ...proof.coinbase, raw: rebuilt } })).proof;
  expect(reread.coinbase.script).toEqual(script);
  const parentHeader = Buffer.from(proof.parentHeader);
  foldMerkleBranch(reread.coinbase.txid, proof.coinbaseBranch, 0).copy(parentHeader, 36);
  return { ...reread, parentHeader };
}

describe('real merge-mined Dogecoin mainnet blocks', () => {
  for (const expected of REAL_BLOCKS) {
    it(`block ${expected.height}: its AuxPoW verifies against its hash, chain id 0x62 and its bits' target`, () => {
      const block = loadBlock(expected.height);
      expect(block.hash).toBe(expected.hash);
      // Version 0x00620102: chain id 0x62, the AuxPoW flag (1 << 8), base version 2.
      expect(block.header.readInt32LE(0)).toBe(0x00620102);
      expect(verifyAuxProof(block.auxpow, block.hash, { chainId: DOGECOIN_CHAIN_ID, target: block.target })).toEqual({
        ok: true,
      });
      // The work is the parent's: the Dogecoin header itself (nonce 0) does not meet the target.
      expect(block.header.readUInt32LE(76)).toBe(0);
      expect(scryptPowValue(block.header) > block.target).toBe(true);
      // The proof re-serializes to its own bytes, and the block's transactions follow it.
      expect(serializeAuxProof(block.proof)).toEqual(block.auxpow);
      expect(block.rest[0]).toBeGreaterThan(0);
    });
  }

  it("block 371337's parts are the published ones (libdohj): coinbase txid, parent hash, commitment", () => {
    const { proof, hash } = loadBlock(371337);
    expect(Buffer.from(proof.coinbase.txid).reverse().toString('hex')).toBe(
      'e5422732b20e9e7ecc243427abbe296e9528d308bb111aae8d30c3465e442de8',
    );
    expect(Buffer.from(sha256d(proof.parentHeader)).reverse().toString('hex')).toBe(
      '45df41e40aba5b2a03d08bd1202a1c02ef3954d8aa22ea6c5ae62fd00f290ea9',
    );
    expect(proof.chainBranch).toHaveLength(3);
    expect(proof.coinbaseBranch).toHaveLength(3);
    const script = proof.coinbase.script as Buffer;
    const at = script.indexOf(MERGED_MINING_MAGIC);
    const root = foldMerkleBranch(Buffer.from(hash, 'hex').reverse(), proof.chainBranch, proof.chainIndex);
    expect(script.subarray(at + 4, at + 36)).toEqual(root.reverse());
    expect(script.readUInt32LE(at + 36)).toBe(8); // tree size 2^3
    expect(script.readUInt32LE(at + 40)).toBe(0); // merkle nonce
    expect(proof.chainIndex).toBe(expectedChainIndex(0, DOGECOIN_CHAIN_ID, 3));
  });
});

describe('mutations of block 371337’s proof are refused with Dogecoin’s reasons', () => {
  const { proof, hash, target, header } = loadBlock(371337);
  const script = proof.coinbase.script as Buffer;
  const magicAt = script.indexOf(MERGED_MINING_MAGIC);
  const rootEnd = magicAt + 4 + 32;
  const height = proof.chainBranch.length;
  // The script rules come before the proof of work; rebuilt coinbases break the parent's work, so
  // their cases check against the loosest target to reach the script rule alone.
  const ANY = 2n ** 256n - 1n;

  it('unchanged (and through the rebuild helper) the proof passes', () => {
    expect(reasonOf(proof, hash, target)).toBe('ok');
    expect(reasonOf(withScript(proof, script), hash, ANY)).toBe('ok');
  });

  it('a parent transaction other than the coinbase', () => {
    expect(reasonOf({ ...proof, coinbaseIndex: 1 }, hash, target)).toBe('AuxPow is not a generate');
  });

  it('a parent that has our chain id (the chain id asked for, or the parent header’s)', () => {
    // The real parent is a Litecoin header (version 2: chain id 0).
    expect(reasonOf(proof, hash, target, 0)).toBe('Aux POW parent has our chain ID');
    const parentHeader = Buffer.from(proof.parentHeader);
    parentHeader.writeInt32LE(0x00620002, 0);
    expect(reasonOf({ ...proof, parentHeader }, hash, target)).toBe('Aux POW parent has our chain ID');
    expect(reasonOf({ ...proof, parentHeader: header }, hash, target)).toBe('Aux POW parent has our chain ID');
    // Without strict chain ids the rule is skipped (and the changed header's work then fails).
    expect(reasonOf({ ...proof, parentHeader }, hash, target, DOGECOIN_CHAIN_ID, false)).toBe(
      'CheckAuxPowProofOfWork : AUX proof of work failed',
    );
  });

  it('a wrong chain id: its slot is not the one the proof took', () => {
    const other = [0x63, 0x64, 0x65, 0x10].find((id) => expectedChainIndex(0, id, height) !== proof.chainIndex);
    expect(other).toBeDefined();
    expect(reasonOf(proof, hash, target, other)).toBe('Aux POW wrong index');
  });

  it('a chain branch longer than 30', () => {
    const chainBranch = Array.from({ length: 31 }, (_, i) => Buffer.alloc(32, i));
    expect(reasonOf({ ...proof, chainBranch }, hash, target)).toBe('Aux POW chain merkle branch too long');
  });

  it('a coinbase branch that does not lead to the parent merkle root', () => {
    const coinbaseBranch = proof.coinbaseBranch.map((h, i) => (i === 1 ? Buffer.alloc(32, 7) : h));
    expect(reasonOf({ ...proof, coinbaseBranch }, hash, target)).toBe('Aux POW merkle root incorrect');
    const parentHeader = Buffer.from(proof.parentHeader);
    parentHeader[40] = (parentHeader[40] as number) ^ 1;
    expect(reasonOf({ ...proof, parentHeader }, hash, target)).toBe('Aux POW merkle root incorrect');
  });

  it('the root missing: another aux block hash, or the root bytes changed', () => {
    const other = Buffer.from(hash, 'hex');
    other[31] = (other[31] as number) ^ 1;
    expect(reasonOf(proof, other.toString('hex'), target)).toBe('Aux POW missing chain merkle root in parent coinbase');
    const changed = Buffer.from(script);
    changed[magicAt + 10] = (changed[magicAt + 10] as number) ^ 0xff;
    expect(reasonOf(withScript(proof, changed), hash, ANY)).toBe(
      'Aux POW missing chain merkle root in parent coinbase',
    );
  });

  it('the magic twice (after the commitment, or smuggled before it)', () => {
    const twice = Buffer.concat([script, MERGED_MINING_MAGIC]);
    expect(reasonOf(withScript(proof, twice), hash, ANY)).toBe('Multiple merged mining headers in coinbase');
    const before = Buffer.concat([script.subarray(0, magicAt), MERGED_MINING_MAGIC, script.subarray(magicAt)]);
    expect(reasonOf(withScript(proof, before), hash, ANY)).toBe('Multiple merged mining headers in coinbase');
  });

  it('the magic not just before the root', () => {
    const gap = Buffer.concat([script.subarray(0, magicAt + 4), Buffer.from([0]), script.subarray(magicAt + 4)]);
    expect(reasonOf(withScript(proof, gap), hash, ANY)).toBe(
      'Merged mining header is not just before chain merkle root',
    );
  });

  it('without magic (the old form): the root must start within the first 20 bytes', () => {
    const legacy = Buffer.concat([script.subarray(0, magicAt), script.subarray(magicAt + 4)]);
    const rootAt = legacy.indexOf(script.subarray(magicAt + 4, rootEnd));
    expect(rootAt).toBeLessThanOrEqual(20);
    expect(reasonOf(withScript(proof, legacy), hash, ANY)).toBe('ok');
    // Exactly at byte 20 still passes; at byte 21 it is refused.
    const at = (offset: number) => Buffer.concat([Buffer.alloc(offset - rootAt, 0x51), legacy]);
    expect(reasonOf(withScript(proof, at(20)), hash, ANY)).toBe('ok');
    expect(reasonOf(withScript(proof, at(21)), hash, ANY)).toBe(
      'Aux POW chain merkle root must start in the first 20 bytes of the parent coinbase',
    );
  });

  it('tree size and nonce cut short', () => {
    expect(reasonOf(withScript(proof, script.subarray(0, rootEnd + 7)), hash, ANY)).toBe(
      'Aux POW missing chain merkle tree size and nonce in parent coinbase',
    );
  });

  it('a tree size that is not 2^(chain branch length)', () => {
    const wrong = Buffer.from(script);
    wrong.writeUInt32LE(2 ** (height - 1), rootEnd);
    expect(reasonOf(withScript(proof, wrong), hash, ANY)).toBe(
      'Aux POW merkle branch size does not match parent coinbase',
    );
  });

  it('the wrong slot: the aux hash moved to another slot with its root committed, or another nonce', () => {
    const slot = (proof.chainIndex + 1) % 2 ** height;
    const moved = Buffer.from(script);
    foldMerkleBranch(Buffer.from(hash, 'hex').reverse(), proof.chainBranch, slot)
      .reverse()
      .copy(moved, magicAt + 4);
    expect(reasonOf({ ...withScript(proof, moved), chainIndex: slot }, hash, ANY)).toBe('Aux POW wrong index');
    const nonce = Buffer.from(script);
    const other = [1, 2, 3, 4, 5].find((n) => expectedChainIndex(n, DOGECOIN_CHAIN_ID, height) !== proof.chainIndex);
    nonce.writeUInt32LE(other as number, rootEnd + 4);
    expect(reasonOf(withScript(proof, nonce), hash, ANY)).toBe('Aux POW wrong index');
  });

  it('the parent’s proof of work above the target: exactly at the boundary', () => {
    const value = scryptPowValue(proof.parentHeader);
    expect(reasonOf(proof, hash, value)).toBe('ok');
    expect(reasonOf(proof, hash, value - 1n)).toBe('CheckAuxPowProofOfWork : AUX proof of work failed');
  });

  it('bytes that are not a proof', () => {
    const verdict = (bytes: Buffer) => verifyAuxProof(bytes, hash, { chainId: DOGECOIN_CHAIN_ID, target });
    const whole = serializeAuxProof(proof);
    expect(verdict(whole.subarray(0, whole.length - 1))).toEqual({ ok: false, reason: 'AuxPow decode failed' });
    expect(verdict(Buffer.alloc(0))).toEqual({ ok: false, reason: 'AuxPow decode failed' });
    // DecodeAuxPow reads the proof and leaves whatever follows it alone.
    expect(verdict(Buffer.concat([whole, Buffer.from('ff', 'hex')]))).toEqual({ ok: true });
  });

  it('a parent coinbase without inputs', () => {
    // version, the empty input vector read as "00 00" (no flags: no outputs), lock time.
    const raw = Buffer.from('01000000000000000000', 'hex');
    const bare = parseAuxProof(serializeAuxProof({ ...proof, coinbase: { ...proof.coinbase, raw } })).proof;
    expect(bare.coinbase.inputCount).toBe(0);
    const parentHeader = Buffer.from(proof.parentHeader);
    foldMerkleBranch(bare.coinbase.txid, proof.coinbaseBranch, 0).copy(parentHeader, 36);
    expect(reasonOf({ ...bare, parentHeader }, hash, ANY)).toBe('Aux POW coinbase has no inputs');
  });
});

describe('compactTarget', () => {
  it('reads nBits as arith_uint256::SetCompact does', () => {
    expect(compactTarget(0x207fffff)).toEqual({ target: 0x7fffffn << 232n, negative: false, overflow: false });
    expect(compactTarget(0x1d00ffff).target).toBe(0xffffn << 208n);
    expect(compactTarget(0x01003456).target).toBe(0n);
    expect(compactTarget(0x04923456)).toMatchObject({ negative: true });
    expect(compactTarget(0xff123456)).toMatchObject({ overflow: true });
  });
});
