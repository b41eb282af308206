/**
 * Merged mining (AuxPoW, issue 34): the proof that a parent chain's block (Litecoin) also commits to
 * an aux chain's block (Dogecoin, Bellscoin), read from and written to the aux chain's wire format,
 * checked by the aux chain's consensus rules, and built from a parent job's pieces.
 *
 * Facts taken from Dogecoin Core (github.com/dogecoin/dogecoin; the files as stored by the reference
 * index at the commits named):
 * - src/primitives/pureheader.h @ 24be0ef4fe62614f83f27cb9f4bf2bb4170d3704: the version's bit 8 (0x100)
 *   flags an AuxPoW header, bits 16 and up carry the chain id (Dogecoin's is 0x0062 = 98).
 * - src/auxpow.h (CAuxPow serialization; read in index excerpts without a commit, and confirmed by the
 *   libdohj blocks re-serializing byte for byte in auxpow.test.ts): parent coinbase tx, a 32-byte block
 *   hash the check ignores, the coinbase's merkle branch (CompactSize count of 32-byte hashes) and int32
 *   index, the aux chain branch and int32 index, then the 80-byte parent header.
 * - src/auxpow.cpp @ 129e318a88060e4a1b726264b88efdd5098885de, CAuxPow::check and getExpectedIndex:
 *   the rules of `checkAuxPow` below, in the order Dogecoin applies them, and the slot formula. The aux
 *   tree's root appears in the coinbase script byte-reversed from its internal order, i.e. as RPC
 *   shows hashes.
 */

import { type ParsedTransaction, readTransaction } from '../bitcoin/block.js';
import { concatBytes, int32LE, reverseBytes, uint32LE } from '../bitcoin/bytes.js';
import { sha256d } from '../bitcoin/hash.js';
import { type BlockHeader, HEADER_SIZE, parseHeader } from '../bitcoin/header.js';
import { merkleRootFromBranch } from '../bitcoin/merkle.js';
import { type ByteReader, ParseError } from '../bitcoin/reader.js';
import { encodeVarInt } from '../bitcoin/serialize.js';

/** The merged-mining magic that precedes the aux root in the parent coinbase script: fa be 'm' 'm'. */
export const MERGED_MINING_MAGIC = Buffer.from([0xfa, 0xbe, 0x6d, 0x6d]);

/** Version bit that says an AuxPoW follows the 80-byte header. */
export const AUXPOW_VERSION_FLAG = 0x100;

/** Dogecoin's merged-mining chain id (version bits 16+ of its headers). */
export const DOGECOIN_CHAIN_ID = 0x0062;

/** Longest aux chain branch Dogecoin accepts (a tree of at most 2^30 slots). */
export const MAX_CHAIN_BRANCH_LENGTH = 30;

/** Bytes the legacy form (no magic) may have before the root in the coinbase script. */
const LEGACY_ROOT_MAX_OFFSET = 20;

/** The chain id a header version carries (arithmetic shift, as the int32 version is signed). */
export function chainIdOfVersion(version: number): number {
  return version >> 16;
}

export interface AuxPow {
  /** The parent block's coinbase transaction. */
  coinbase: ParsedTransaction;
  /** The serialized hash field after the coinbase; Dogecoin neither checks nor needs it (zeros when we build). */
  blockHash: Buffer;
  /** Branch from the coinbase txid to the parent header's merkle root. */
  coinbaseBranch: Buffer[];
  /** Position of the coinbase in the parent block: must be 0. */
  coinbaseIndex: number;
  /** Branch from the aux block hash to the aux tree root committed in the coinbase. */
  chainBranch: Buffer[];
  /** The aux block's slot in the aux tree. */
  chainIndex: number;
  /** The parent's 80-byte header: its proof of work is the aux block's. */
  parentHeader: Buffer;
}

export interface AuxHeader {
  header: BlockHeader;
  headerBytes: Buffer;
  /** sha256d of the 80-byte header, internal byte order: the aux block's hash. */
  hash: Buffer;
  chainId: number;
  /** Present when the version has the AuxPoW flag. */
  auxpow?: AuxPow;
}

function readHashList(reader: ByteReader, what: string): Buffer[] {
  const count = reader.varInt(`${what} length`);
  if (count * 32 > reader.remaining) throw new ParseError(`${what} longer than the data`);
  const hashes: Buffer[] = [];
  for (let i = 0; i < count; i++) hashes.push(Buffer.from(reader.bytes(32, what)));
  return hashes;
}

/** Reads a serialized CAuxPow at the reader's position. */
export function readAuxPow(reader: ByteReader): AuxPow {
  const coinbase = readTransaction(reader);
  const blockHash = Buffer.from(reader.bytes(32, 'auxpow block hash'));
  const coinbaseBranch = readHashList(reader, 'coinbase branch');
  const coinbaseIndex = reader.int32('coinbase index');
  const chainBranch = readHashList(reader, 'chain branch');
  const chainIndex = reader.int32('chain index');
  const parentHeader = Buffer.from(reader.bytes(HEADER_SIZE, 'parent header'));
  return { coinbase, blockHash, coinbaseBranch, coinbaseIndex, chainBranch, chainIndex, parentHeader };
}

/** Reads an aux chain's block header: 80 bytes, then the AuxPoW when the version flags one. */
export function readAuxHeader(reader: ByteReader): AuxHeader {
  const headerBytes = Buffer.from(reader.bytes(HEADER_SIZE, 'header'));
  const header = parseHeader(headerBytes);
  const result: AuxHeader = {
    header,
    headerBytes,
    hash: sha256d(headerBytes),
    chainId: chainIdOfVersion(header.version),
  };
  if (header.version & AUXPOW_VERSION_FLAG) result.auxpow = readAuxPow(reader);
  return result;
}

function hashList(hashes: readonly Uint8Array[]): Buffer {
  return concatBytes([encodeVarInt(hashes.length), ...hashes]);
}

/** The CAuxPow wire form (what getauxblock/submitauxblock take as hex). */
export function serializeAuxPow(auxpow: AuxPow): Buffer {
  return concatBytes([
    auxpow.coinbase.raw,
    auxpow.blockHash,
    hashList(auxpow.coinbaseBranch),
    int32LE(auxpow.coinbaseIndex),
    hashList(auxpow.chainBranch),
    int32LE(auxpow.chainIndex),
    auxpow.parentHeader,
  ]);
}

/**
 * Folds a leaf up a merkle branch whose position is `index`: at each level the low bit of the index
 * says whether our node is the right (1) or left (0) child.
 */
export function foldMerkleBranch(leaf: Uint8Array, branch: readonly Uint8Array[], index: number): Buffer {
  let node: Buffer = Buffer.from(leaf);
  let position = index;
  for (const sibling of branch) {
    node = sha256d(position & 1 ? concatBytes([sibling, node]) : concatBytes([node, sibling]));
    position >>>= 1;
  }
  return node;
}

/**
 * The slot an aux chain must take in a tree of height `height` for a given merkle nonce: a linear
 * congruential scramble of nonce and chain id in unsigned 32-bit arithmetic, modulo 2^height.
 */
export function expectedAuxIndex(nonce: number, chainId: number, height: number): number {
  let r = nonce >>> 0;
  r = (Math.imul(r, 1103515245) + 12345) >>> 0;
  r = (r + chainId) >>> 0;
  r = (Math.imul(r, 1103515245) + 12345) >>> 0;
  return r % 2 ** height;
}

/** Each way an AuxPoW can fail Dogecoin's check, in the order they are tried. */
export type AuxPowRule =
  | 'coinbase-not-first'
  | 'parent-has-our-chain-id'
  | 'chain-branch-too-long'
  | 'parent-merkle-root'
  | 'coinbase-without-input'
  | 'root-not-in-coinbase'
  | 'magic-twice'
  | 'magic-not-before-root'
  | 'legacy-root-too-late'
  | 'size-and-nonce-missing'
  | 'tree-size'
  | 'chain-index';

export type AuxPowVerdict =
  | { valid: true; root: Buffer; treeSize: number; nonce: number }
  | { valid: false; rule: AuxPowRule; reason: string };

function refuse(rule: AuxPowRule, reason: string): AuxPowVerdict {
  return { valid: false, rule, reason };
}

/**
 * Dogecoin's CAuxPow::check for the aux block `auxBlockHash` (internal byte order) of chain `chainId`,
 * with the strict chain id rule of mainnet. The parent's proof of work is not part of it: the caller
 * compares the parent header's scrypt hash with the aux block's target.
 */
export function checkAuxPow(auxpow: AuxPow, auxBlockHash: Uint8Array, chainId: number): AuxPowVerdict {
  if (auxpow.coinbaseIndex !== 0) return refuse('coinbase-not-first', 'the parent transaction is not the coinbase');
  const parent = parseHeader(auxpow.parentHeader);
  if (chainIdOfVersion(parent.version) === chainId) {
    return refuse('parent-has-our-chain-id', `the parent block carries our chain id ${chainId}`);
  }
  const height = auxpow.chainBranch.length;
  if (height > MAX_CHAIN_BRANCH_LENGTH) {
    return refuse('chain-branch-too-long', `chain branch of ${height} > ${MAX_CHAIN_BRANCH_LENGTH}`);
  }
  const root = foldMerkleBranch(auxBlockHash, auxpow.chainBranch, auxpow.chainIndex);
  const rootInScript = reverseBytes(root);

  if (!merkleRootFromBranch(auxpow.coinbase.txid, auxpow.coinbaseBranch).equals(parent.merkleRoot)) {
    return refuse('parent-merkle-root', "the coinbase's branch does not lead to the parent's merkle root");
  }
  const input = auxpow.coinbase.inputs[0];
  if (input === undefined) return refuse('coinbase-without-input', 'the parent coinbase has no input');
  const script = input.script;

  const magicAt = script.indexOf(MERGED_MINING_MAGIC);
  const rootAt = script.indexOf(rootInScript);
  if (rootAt < 0) return refuse('root-not-in-coinbase', 'the aux tree root is not in the parent coinbase script');
  if (magicAt >= 0) {
    if (script.indexOf(MERGED_MINING_MAGIC, magicAt + 1) >= 0) {
      return refuse('magic-twice', 'the merged-mining magic appears more than once');
    }
    if (magicAt + MERGED_MINING_MAGIC.length !== rootAt) {
      return refuse('magic-not-before-root', 'the aux tree root does not follow the merged-mining magic');
    }
  } else if (rootAt > LEGACY_ROOT_MAX_OFFSET) {
    return refuse(
      'legacy-root-too-late',
      `without the magic the root must start within ${LEGACY_ROOT_MAX_OFFSET} bytes`,
    );
  }

  const after = rootAt + rootInScript.length;
  if (script.length - after < 8) return refuse('size-and-nonce-missing', 'no tree size and nonce after the root');
  const treeSize = script.readUInt32LE(after);
  const nonce = script.readUInt32LE(after + 4);
  if (treeSize !== 2 ** height) {
    return refuse('tree-size', `tree size ${treeSize} is not 2^${height} (the chain branch's length)`);
  }
  const expected = expectedAuxIndex(nonce, chainId, height);
  if (auxpow.chainIndex !== expected) {
    return refuse('chain-index', `chain index ${auxpow.chainIndex}, expected ${expected} for nonce ${nonce}`);
  }
  return { valid: true, root, treeSize, nonce };
}

// ---- the builder side ----

export interface AuxSlot {
  /** The aux block hash, internal byte order. */
  hash: Buffer;
  index: number;
  /** Branch from the hash to the root, for `buildAuxPow`. */
  branch: Buffer[];
}

export interface AuxCommitment {
  /** Root of the aux tree, internal byte order. */
  root: Buffer;
  size: number;
  nonce: number;
  /** magic ‖ root (byte-reversed) ‖ size LE32 ‖ nonce LE32: 44 bytes to put in the parent coinbase script. */
  script: Buffer;
  /** Each chain's slot and branch, by chain id. */
  slots: Map<number, AuxSlot>;
}

export interface AuxCommitmentOptions {
  /** Largest tree height tried (default 8: 256 slots). */
  maxHeight?: number;
  /** Nonces tried per height (default 1024). */
  noncesPerHeight?: number;
}

/** Leaf of a slot no chain takes. */
const EMPTY_SLOT = Buffer.alloc(32);

/** Every level of a full binary tree of sha256d nodes, leaves first. */
function treeLevels(leaves: readonly Buffer[]): Buffer[][] {
  const levels = [leaves.slice()];
  let level = levels[0] as Buffer[];
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2)
      next.push(sha256d(concatBytes([level[i] as Buffer, level[i + 1] as Buffer])));
    levels.push(next);
    level = next;
  }
  return levels;
}

/** A nonce under which every chain id takes its own slot of a 2^height tree, or undefined. */
function collisionFreeNonce(chainIds: readonly number[], height: number, tries: number): number | undefined {
  for (let nonce = 0; nonce < tries; nonce++) {
    const taken = new Set(chainIds.map((id) => expectedAuxIndex(nonce, id, height)));
    if (taken.size === chainIds.length) return nonce;
  }
  return undefined;
}

/**
 * The aux tree for the given aux block hashes (internal byte order) by chain id: the smallest tree
 * and lowest nonce in which each chain's expected slot is its own, unused slots holding zeros.
 */
export function auxMerkleCommitment(
  auxHashes: ReadonlyMap<number, Uint8Array>,
  options: AuxCommitmentOptions = {},
): AuxCommitment {
  const chainIds = [...auxHashes.keys()];
  if (chainIds.length === 0) throw new RangeError('merged mining needs at least one aux chain');
  const maxHeight = Math.min(options.maxHeight ?? 8, MAX_CHAIN_BRANCH_LENGTH);
  const tries = options.noncesPerHeight ?? 1024;
  let height = Math.ceil(Math.log2(chainIds.length));
  let nonce: number | undefined;
  for (; height <= maxHeight; height++) {
    nonce = collisionFreeNonce(chainIds, height, tries);
    if (nonce !== undefined) break;
  }
  if (nonce === undefined) throw new RangeError(`no collision-free aux tree of height ≤ ${maxHeight}`);

  const size = 2 ** height;
  const leaves: Buffer[] = new Array(size).fill(EMPTY_SLOT);
  const indexes = new Map<number, number>();
  for (const [chainId, hash] of auxHashes) {
    if (hash.length !== 32) throw new RangeError(`aux hash of chain ${chainId} is not 32 bytes`);
    const index = expectedAuxIndex(nonce, chainId, height);
    leaves[index] = Buffer.from(hash);
    indexes.set(chainId, index);
  }
  const levels = treeLevels(leaves);
  const root = (levels[levels.length - 1] as Buffer[])[0] as Buffer;
  const slots = new Map<number, AuxSlot>();
  for (const [chainId, index] of indexes) {
    const branch: Buffer[] = [];
    let position = index;
    for (let level = 0; level < height; level++) {
      branch.push((levels[level] as Buffer[])[position ^ 1] as Buffer);
      position >>>= 1;
    }
    slots.set(chainId, { hash: leaves[index] as Buffer, index, branch });
  }
  const script = concatBytes([MERGED_MINING_MAGIC, reverseBytes(root), uint32LE(size), uint32LE(nonce)]);
  return { root, size, nonce, script, slots };
}

export interface AuxPowParts {
  /** The parent coinbase as it went into the parent block (as a share completes it). */
  coinbase: ParsedTransaction;
  /** The parent job's coinbase branch (stratum's merkle branch). */
  coinbaseBranch: readonly Uint8Array[];
  /** The 80-byte parent header the share solved. */
  parentHeader: Uint8Array;
  /** The aux chain's slot from `auxMerkleCommitment`. */
  slot: Pick<AuxSlot, 'index' | 'branch'>;
}

/** The AuxPoW for one aux chain from a solved parent share. */
export function buildAuxPow(parts: AuxPowParts): AuxPow {
  if (parts.parentHeader.length !== HEADER_SIZE) throw new RangeError('the parent header is 80 bytes');
  return {
    coinbase: parts.coinbase,
    blockHash: Buffer.alloc(32),
    coinbaseBranch: parts.coinbaseBranch.map((h) => Buffer.from(h)),
    coinbaseIndex: 0,
    chainBranch: parts.slot.branch.map((h) => Buffer.from(h)),
    chainIndex: parts.slot.index,
    parentHeader: Buffer.from(parts.parentHeader),
  };
}
