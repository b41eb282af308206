import { sha256d } from './hash.js';

/** The level above `level[from..]`: sha256d of each pair, the last hash of an odd count paired with itself. */
function parents(level: readonly Uint8Array[], from: number): Uint8Array[] {
  const next: Uint8Array[] = [];
  for (let i = from; i < level.length; i += 2) {
    const left = level[i] as Uint8Array;
    const right = level[i + 1] ?? left;
    next.push(sha256d(Buffer.concat([left, right])));
  }
  return next;
}

/**
 * Merkle trees as Bitcoin Core builds them (src/consensus/merkle.cpp ComputeMerkleRoot): hashes in
 * internal byte order, sha256d of each concatenated pair, the last hash of an odd level paired with itself.
 */
export function merkleRoot(hashes: readonly Uint8Array[]): Buffer {
  if (hashes.length === 0) throw new RangeError('a merkle tree needs at least one hash');
  let level: Uint8Array[] = [...hashes];
  while (level.length > 1) {
    level = parents(level, 0);
  }
  return Buffer.from(level[0] as Uint8Array);
}

/**
 * The branch that links the coinbase (always the first leaf) to the root, given the other transactions'
 * hashes in block order. This is what stratum's mining.notify sends: the miner folds
 * `h = sha256d(h ‖ branch[i])` starting from the coinbase hash.
 */
export function coinbaseMerkleBranch(otherHashes: readonly Uint8Array[]): Buffer[] {
  const branch: Buffer[] = [];
  // Level entries after the coinbase's own path; index 0 of each level is the (unknown) coinbase path.
  let rest: Uint8Array[] = [...otherHashes];
  while (rest.length > 0) {
    branch.push(Buffer.from(rest[0] as Uint8Array));
    rest = parents(rest, 1);
  }
  return branch;
}

/** Folds a coinbase hash up its branch to the merkle root. */
export function merkleRootFromBranch(coinbaseHash: Uint8Array, branch: readonly Uint8Array[]): Buffer {
  let h: Buffer = Buffer.from(coinbaseHash);
  const pair = Buffer.allocUnsafe(64);
  for (const node of branch) {
    h.copy(pair, 0);
    pair.set(node, 32);
    h = sha256d(pair);
  }
  return h;
}
