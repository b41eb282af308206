import { describe, expect, it } from 'vitest';
import { hashFromRpcHex, hashToRpcHex } from './bytes.js';
import { sha256d } from './hash.js';
import { coinbaseMerkleBranch, merkleRoot, merkleRootFromBranch } from './merkle.js';

// Bitcoin block 100,000 (000000000003ba27aa200b1cecaad478d2b00432346c3f1f3986da1afd33e506): its four
// txids and merkle root as `bitcoin-cli getblock` shows them, and the coinbase's merkle proof
// (fff2525b…, 8e308990…) as block explorers serve it.
const BLOCK_100000_TXIDS = [
  '8c14f0db3df150123e6f3dbbf30f8b955a8249b62ac1d1ff16284aefa3d06d87',
  'fff2525b8931402dd09222c50775608f75787bd2b87e56995a7bdd30f79702c4',
  '6359f0868171b1d194cbee1af2f16ea598ae8fad666d9b012c8ed2b79a236ec4',
  'e9a66845e05d5abc0ad04ec80f774a7e585c6e8db975962d069a522137b80c1d',
];
const BLOCK_100000_ROOT = 'f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766';

describe('merkle root', () => {
  it("computes block 100,000's root from its txids", () => {
    const root = merkleRoot(BLOCK_100000_TXIDS.map((t) => hashFromRpcHex(t)));
    expect(hashToRpcHex(root)).toBe(BLOCK_100000_ROOT);
  });

  it('is the txid itself for a one-transaction block (Bitcoin genesis)', () => {
    const genesisTx = hashFromRpcHex('4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b');
    expect(merkleRoot([genesisTx]).equals(genesisTx)).toBe(true);
  });
});

describe('coinbase merkle branch (stratum order)', () => {
  it("gives block 100,000's coinbase proof and folds back to the root", () => {
    const [coinbase, ...others] = BLOCK_100000_TXIDS.map((t) => hashFromRpcHex(t));
    const branch = coinbaseMerkleBranch(others);
    expect(branch.map(hashToRpcHex)).toEqual([
      'fff2525b8931402dd09222c50775608f75787bd2b87e56995a7bdd30f79702c4',
      '8e30899078ca1813be036a073bbf80b86cdddde1c96e9e9c99e9e3782df4ae49',
    ]);
    expect(hashToRpcHex(merkleRootFromBranch(coinbase as Buffer, branch))).toBe(BLOCK_100000_ROOT);
  });

  it('agrees with the full tree for every block size up to 20 transactions', () => {
    for (let n = 1; n <= 20; n++) {
      const hashes = Array.from({ length: n }, (_, i) => sha256d(Buffer.from([i, n])));
      const [coinbase, ...others] = hashes;
      const folded = merkleRootFromBranch(coinbase as Buffer, coinbaseMerkleBranch(others));
      expect(folded.equals(merkleRoot(hashes)), `n=${n}`).toBe(true);
      expect(coinbaseMerkleBranch(others)).toHaveLength(n === 1 ? 0 : Math.ceil(Math.log2(n)));
    }
  });
});
