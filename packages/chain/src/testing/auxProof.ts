/**
 * The Dogecoin stand-in's own reading and checking of merged-mining proofs (CAuxPow). Written apart
 * from the pool's builder and checker (../auxpow/) on purpose: the stand-in judges what the pool
 * builds, so it must not share the pool's mistakes. Nothing here is imported from ../auxpow/.
 *
 * Facts, from dogecoin/dogecoin as stored in the reference index (the `fetch` of the whole repository
 * was refused as larger than the mirror allows, so files were read one by one at these commits):
 * - src/auxpow.h @ 18759dd81d25e8a0b5daa6c67e71159dd5f08b3a — the wire form: the parent coinbase as a
 *   CMerkleTx (transaction, hashBlock, vMerkleBranch, nIndex), then vChainMerkleBranch, nChainIndex and
 *   the parent's CPureBlockHeader (80 bytes).
 * - src/auxpow.cpp @ 129e318a88060e4a1b726264b88efdd5098885de — CAuxPow::check, its rules in order with
 *   their error() texts, getExpectedIndex and CheckMerkleBranch (index -1 gives the zero hash).
 * - src/test/auxpow_tests.cpp @ 07ee1780df748b6aad3e01092108cbe07f15e460 — a later check also refuses a
 *   parent coinbase without inputs ("Aux POW coinbase has no inputs", after the merkle-root rule);
 *   1.14's check would read vin[0] of an empty vector there, so the later rule is the one kept.
 * - src/dogecoin.cpp @ 11b10408d05e765dbb998addfeab89b0992d94b3 — CheckAuxPowProofOfWork: check(), then
 *   the parent header's PoW hash (scrypt, Litecoin's) against the aux block's own target.
 * - src/primitives/pureheader.h @ 24be0ef4fe62614f83f27cb9f4bf2bb4170d3704 — chain id = nVersion >> 16.
 * - src/core_read.cpp @ c76ff763ccc61b22642431642451d0341bd06c92 — DecodeAuxPow: hex, then the stream
 *   read; bytes left over after the proof are not looked at.
 */
import { scryptSync } from 'node:crypto';
import { sha256d } from '../bitcoin/hash.js';
import { ByteReader } from '../bitcoin/reader.js';
import { encodeVarInt } from '../bitcoin/serialize.js';

/** "\xfa\xbe" "mm": pchMergedMiningHeader, what precedes the chain merkle root in the parent coinbase. */
export const MERGED_MINING_MAGIC = Buffer.from([0xfa, 0xbe, 0x6d, 0x6d]);

/** Dogecoin's own refusal texts (CAuxPow::check's error() strings, CheckAuxPowProofOfWork's, the RPC's). */
export const AUX_REASONS = {
  decodeFailed: 'AuxPow decode failed',
  notGenerate: 'AuxPow is not a generate',
  parentHasOurChainId: 'Aux POW parent has our chain ID',
  chainBranchTooLong: 'Aux POW chain merkle branch too long',
  merkleRootIncorrect: 'Aux POW merkle root incorrect',
  noInputs: 'Aux POW coinbase has no inputs',
  rootMissing: 'Aux POW missing chain merkle root in parent coinbase',
  multipleHeaders: 'Multiple merged mining headers in coinbase',
  headerNotBeforeRoot: 'Merged mining header is not just before chain merkle root',
  legacyRootTooLate: 'Aux POW chain merkle root must start in the first 20 bytes of the parent coinbase',
  sizeAndNonceMissing: 'Aux POW missing chain merkle tree size and nonce in parent coinbase',
  sizeMismatch: 'Aux POW merkle branch size does not match parent coinbase',
  wrongIndex: 'Aux POW wrong index',
  // error("%s : AUX proof of work failed", __func__) as the log shows it.
  powFailed: 'CheckAuxPowProofOfWork : AUX proof of work failed',
} as const;

/** The parent chain's coinbase as the proof carries it. */
export interface AuxCoinbase {
  /** The bytes as sent (a witness serialization stays one). */
  raw: Buffer;
  /** GetHash(): sha256d of the serialization without witness, internal byte order. */
  txid: Buffer;
  inputCount: number;
  /** The first input's scriptSig; undefined when there is no input. */
  script: Buffer | undefined;
}

export interface AuxProof {
  coinbase: AuxCoinbase;
  /** CMerkleTx::hashBlock: carried, never checked. */
  hashBlock: Buffer;
  /** Links the coinbase to the parent header's merkle root. */
  coinbaseBranch: Buffer[];
  /** nIndex (int32): must be 0, the coinbase's place. */
  coinbaseIndex: number;
  /** Links the aux block hash to the root committed in the coinbase. */
  chainBranch: Buffer[];
  /** nChainIndex (int32): the aux block's slot in the chain merkle tree. */
  chainIndex: number;
  /** The parent's 80-byte header, on which the proof of work was done. */
  parentHeader: Buffer;
}

export interface AuxCheckOptions {
  /** The aux block's chain id (its nVersion >> 16); 0x62 for Dogecoin. */
  chainId: number;
  /** consensus.fStrictChainId: refuse a parent that carries our chain id. True unless told otherwise. */
  strictChainId?: boolean;
  /** The aux block's target (from its nBits): the parent's scrypt hash must not exceed it. */
  target: bigint;
}

export type AuxVerdict = { ok: true } | { ok: false; reason: string };

/** Reads a CAuxPow from the start of `bytes`; throws on anything the stream read would refuse. */
export function parseAuxProof(bytes: Uint8Array): { proof: AuxProof; size: number } {
  const reader = new ByteReader(bytes);
  const coinbase = readCoinbase(reader);
  const hashBlock = Buffer.from(reader.bytes(32, 'hashBlock'));
  const coinbaseBranch = readHashes(reader, 'vMerkleBranch');
  const coinbaseIndex = reader.int32('nIndex');
  const chainBranch = readHashes(reader, 'vChainMerkleBranch');
  const chainIndex = reader.int32('nChainIndex');
  const parentHeader = Buffer.from(reader.bytes(80, 'parent header'));
  return {
    proof: { coinbase, hashBlock, coinbaseBranch, coinbaseIndex, chainBranch, chainIndex, parentHeader },
    size: reader.position,
  };
}

/** The wire form of a proof (the coinbase's bytes as they were read). */
export function serializeAuxProof(proof: AuxProof): Buffer {
  const hashes = (list: readonly Buffer[]) => Buffer.concat([encodeVarInt(list.length), ...list]);
  const int32 = (n: number) => {
    const out = Buffer.alloc(4);
    out.writeInt32LE(n);
    return out;
  };
  return Buffer.concat([
    proof.coinbase.raw,
    proof.hashBlock,
    hashes(proof.coinbaseBranch),
    int32(proof.coinbaseIndex),
    hashes(proof.chainBranch),
    int32(proof.chainIndex),
    proof.parentHeader,
  ]);
}

/** Decodes and checks a proof for the aux block `auxBlockHash` (RPC hex), as dogecoind does on submission. */
export function verifyAuxProof(auxpow: Uint8Array, auxBlockHash: string, options: AuxCheckOptions): AuxVerdict {
  let proof: AuxProof;
  try {
    proof = parseAuxProof(auxpow).proof;
  } catch {
    return { ok: false, reason: AUX_REASONS.decodeFailed };
  }
  return checkAuxProof(proof, auxBlockHash, options);
}

/** CAuxPow::check's rules in Dogecoin's order, then the parent's proof of work. */
export function checkAuxProof(proof: AuxProof, auxBlockHash: string, options: AuxCheckOptions): AuxVerdict {
  const refuse = (reason: string): AuxVerdict => ({ ok: false, reason });
  const { chainId } = options;
  if (proof.coinbaseIndex !== 0) return refuse(AUX_REASONS.notGenerate);
  if ((options.strictChainId ?? true) && proof.parentHeader.readInt32LE(0) >> 16 === chainId) {
    return refuse(AUX_REASONS.parentHasOurChainId);
  }
  if (proof.chainBranch.length > 30) return refuse(AUX_REASONS.chainBranchTooLong);

  // The hash arrives as RPC hex (display order); the fold works on internal order, and the coinbase
  // carries the root in display order again ("correct endian" in Dogecoin's words).
  const auxHash = Buffer.from(auxBlockHash, 'hex').reverse();
  const rootInScript = foldMerkleBranch(auxHash, proof.chainBranch, proof.chainIndex).reverse();

  const parentRoot = proof.parentHeader.subarray(36, 68);
  if (!foldMerkleBranch(proof.coinbase.txid, proof.coinbaseBranch, proof.coinbaseIndex).equals(parentRoot)) {
    return refuse(AUX_REASONS.merkleRootIncorrect);
  }
  const script = proof.coinbase.script;
  if (script === undefined) return refuse(AUX_REASONS.noInputs);

  const head = script.indexOf(MERGED_MINING_MAGIC);
  const at = script.indexOf(rootInScript);
  if (at === -1) return refuse(AUX_REASONS.rootMissing);
  if (head !== -1) {
    // One commitment per coinbase: a second magic anywhere after the first is refused.
    if (script.indexOf(MERGED_MINING_MAGIC, head + 1) !== -1) return refuse(AUX_REASONS.multipleHeaders);
    if (head + MERGED_MINING_MAGIC.length !== at) return refuse(AUX_REASONS.headerNotBeforeRoot);
  } else if (at > 20) {
    // Proofs from before the magic existed: the root must come early, where nothing else could put one.
    return refuse(AUX_REASONS.legacyRootTooLate);
  }

  const after = at + rootInScript.length;
  if (script.length - after < 8) return refuse(AUX_REASONS.sizeAndNonceMissing);
  const height = proof.chainBranch.length;
  if (script.readUInt32LE(after) !== 2 ** height) return refuse(AUX_REASONS.sizeMismatch);
  const nonce = script.readUInt32LE(after + 4);
  if (proof.chainIndex !== expectedChainIndex(nonce, chainId, height)) return refuse(AUX_REASONS.wrongIndex);

  if (scryptPowValue(proof.parentHeader) > options.target) return refuse(AUX_REASONS.powFailed);
  return { ok: true };
}

/**
 * getExpectedIndex: the slot a chain must take in a tree of height `height` for a coinbase nonce, so
 * that one piece of work cannot claim two slots of the same chain. Unsigned 32-bit arithmetic
 * throughout (Math.imul keeps the low 32 bits of the product).
 */
export function expectedChainIndex(nonce: number, chainId: number, height: number): number {
  let rand = (Math.imul(nonce >>> 0, 1103515245) + 12345) >>> 0;
  rand = (rand + chainId) >>> 0;
  rand = (Math.imul(rand, 1103515245) + 12345) >>> 0;
  return rand % 2 ** height;
}

/** CheckMerkleBranch: folds `hash` up `branch`, the index's low bit saying which side it is on. */
export function foldMerkleBranch(hash: Uint8Array, branch: readonly Uint8Array[], index: number): Buffer {
  if (index === -1) return Buffer.alloc(32);
  let h: Buffer = Buffer.from(hash);
  let side = index;
  for (const node of branch) {
    h = sha256d(side & 1 ? Buffer.concat([node, h]) : Buffer.concat([h, node]));
    side >>= 1;
  }
  return h;
}

/** Litecoin's proof-of-work hash of an 80-byte header, read as a little-endian 256-bit number. */
export function scryptPowValue(header: Uint8Array): bigint {
  const hash = scryptSync(header, header, 32, { N: 1024, r: 1, p: 1 });
  return BigInt(`0x${Buffer.from(hash).reverse().toString('hex')}`);
}

/** arith_uint256::SetCompact: the target of `bits`, with the flags CheckProofOfWork refuses. */
export function compactTarget(bits: number): { target: bigint; negative: boolean; overflow: boolean } {
  const size = bits >>> 24;
  let word = bits & 0x007fffff;
  let target: bigint;
  if (size <= 3) {
    word >>>= 8 * (3 - size);
    target = BigInt(word);
  } else {
    target = BigInt(word) << BigInt(8 * (size - 3));
  }
  const negative = word !== 0 && (bits & 0x00800000) !== 0;
  const overflow = word !== 0 && (size > 34 || (word > 0xff && size > 33) || (word > 0xffff && size > 32));
  return { target, negative, overflow };
}

function readHashes(reader: ByteReader, what: string): Buffer[] {
  const count = reader.varInt(`${what} size`);
  if (count * 32 > reader.remaining) throw new RangeError(`${what} longer than the data`);
  return Array.from({ length: count }, () => Buffer.from(reader.bytes(32, what)));
}

/**
 * A transaction as Bitcoin Core 0.14 (Dogecoin 1.14's base) unserializes it with witness allowed: an
 * empty input vector is the segwit marker, followed by a flags byte; flag 1 means witness stacks after
 * the outputs; any other flag left over is refused.
 */
function readCoinbase(reader: ByteReader): AuxCoinbase {
  const start = reader.position;
  reader.int32('tx version');
  const versionEnd = reader.position;
  let vinStart = reader.position;
  let inputs = readInputs(reader);
  let voutStart = reader.position;
  let flags = 0;
  let outputsRead = false;
  if (inputs.length === 0) {
    flags = reader.uint8('tx flags');
    if (flags !== 0) {
      vinStart = reader.position;
      inputs = readInputs(reader);
      voutStart = reader.position;
      readOutputs(reader);
      outputsRead = true;
    }
  } else {
    readOutputs(reader);
    outputsRead = true;
  }
  const voutEnd = reader.position;
  if (flags & 1) {
    flags ^= 1;
    for (let i = 0; i < inputs.length; i++) {
      const items = reader.varInt('witness stack size');
      for (let j = 0; j < items; j++) reader.varBytes('witness item');
    }
  }
  if (flags !== 0) throw new RangeError('Unknown transaction optional data');
  const lockStart = reader.position;
  reader.uint32('lock time');
  const raw = Buffer.from(reader.slice(start, reader.position));

  // The txid is the hash of the form without witness: version, inputs, outputs, lock time.
  const at = (from: number, to: number) => reader.slice(from, to);
  const legacy = Buffer.concat([
    at(start, versionEnd),
    at(vinStart, voutStart),
    outputsRead ? at(voutStart, voutEnd) : Buffer.from([0]),
    at(lockStart, reader.position),
  ]);
  return { raw, txid: sha256d(legacy), inputCount: inputs.length, script: inputs[0] };
}

/** The input vector; returns each input's scriptSig. */
function readInputs(reader: ByteReader): Buffer[] {
  const count = reader.varInt('input count');
  if (count * 41 > reader.remaining) throw new RangeError('input count larger than the data');
  const scripts: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    reader.bytes(36, 'prevout');
    scripts.push(Buffer.from(reader.varBytes('scriptSig')));
    reader.uint32('sequence');
  }
  return scripts;
}

function readOutputs(reader: ByteReader): void {
  const count = reader.varInt('output count');
  if (count * 9 > reader.remaining) throw new RangeError('output count larger than the data');
  for (let i = 0; i < count; i++) {
    reader.uint64('value');
    reader.varBytes('scriptPubKey');
  }
}
