/**
 * The hashes a CKB header commits to (nervosnetwork/ckb util/types/src/core/views.rs,
 * util/types/src/extension.rs, util/gen-types/src/extension/calc_hash.rs):
 * - `transactions_root` = CBMT([CBMT(tx hashes), CBMT(witness hashes)]) over [cellbase, …transactions];
 *   tx hash = ckbhash(molecule RawTransaction), witness hash = ckbhash(molecule Transaction);
 * - `proposals_hash` = zero with no proposals, else ckbhash(the 10-byte ids one after another);
 * - uncles hash = zero with no uncles, else ckbhash(the uncle header hashes one after another);
 * - `extra_hash` = the uncles hash without an extension, else ckbhash(uncles hash ‖ ckbhash(extension bytes)).
 * ckbhash is Blake2b-256 personalised "ckb-default-hash". Transactions are serialized with @ckb-ccc/core.
 */
import { ccc } from '@ckb-ccc/core';
import { cccA } from '@ckb-ccc/core/advanced';
import { ckbHash } from '@lodestone/pow';
import type { CkbJsonTransaction } from './types.js';
import { ckbHexToBytes } from './uint.js';

export const ZERO_HASH = new Uint8Array(32);

/**
 * Root of a complete binary merkle tree (RFC 0006, the `merkle_cbt` crate CKB uses): n leaves fill
 * nodes n−1 … 2n−2 of an array, node i = ckbhash(node 2i+1 ‖ node 2i+2), the root is node 0. No leaves
 * give the zero hash; one leaf is its own root.
 */
export function cbmtRoot(leaves: readonly Uint8Array[]): Uint8Array {
  const n = leaves.length;
  if (n === 0) return ZERO_HASH;
  const nodes: Uint8Array[] = new Array(2 * n - 1);
  leaves.forEach((leaf, i) => {
    if (leaf.length !== 32) throw new RangeError(`merkle leaf ${i} is ${leaf.length} bytes, not 32`);
    nodes[n - 1 + i] = leaf;
  });
  for (let i = n - 2; i >= 0; i--) nodes[i] = merge(nodes[2 * i + 1] as Uint8Array, nodes[2 * i + 2] as Uint8Array);
  return nodes[0] as Uint8Array;
}

function merge(left: Uint8Array, right: Uint8Array): Uint8Array {
  const both = new Uint8Array(64);
  both.set(left);
  both.set(right, 32);
  return ckbHash(both);
}

/** A transaction's hash and witness hash, computed from its JSON by molecule serialization. */
export interface TransactionHashes {
  /** 0x-hex, as the RPC shows it. */
  readonly hash: string;
  readonly witnessHash: string;
}

/** Hash and witness hash of an RPC-JSON transaction (throws on a malformed one). */
export function transactionHashes(tx: CkbJsonTransaction): TransactionHashes {
  // The transformer maps the RPC's snake_case JSON to CCC's Transaction; CCC serializes it as molecule.
  const transaction = ccc.Transaction.from(cccA.JsonRpcTransformers.transactionTo(tx as cccA.JsonRpcTransaction));
  return { hash: transaction.hash(), witnessHash: ccc.hashCkb(transaction.toBytes()) };
}

/** transactions_root from the hashes of [cellbase, …transactions] in block order. */
export function transactionsRoot(hashes: readonly TransactionHashes[]): Uint8Array {
  const raw = cbmtRoot(hashes.map((h) => ckbHexToBytes(h.hash)));
  const witnesses = cbmtRoot(hashes.map((h) => ckbHexToBytes(h.witnessHash)));
  return cbmtRoot([raw, witnesses]);
}

/** proposals_hash of 10-byte proposal short ids (0x-hex). */
export function proposalsHash(proposals: readonly string[]): Uint8Array {
  if (proposals.length === 0) return ZERO_HASH;
  return ckbHash(concat(proposals.map((p) => ckbHexToBytes(p))));
}

/** The uncles hash of uncle header hashes (0x-hex). */
export function unclesHash(uncleHashes: readonly string[]): Uint8Array {
  if (uncleHashes.length === 0) return ZERO_HASH;
  return ckbHash(concat(uncleHashes.map((h) => ckbHexToBytes(h))));
}

/** extra_hash: the uncles hash alone, or with the extension's hash when the block has an extension. */
export function extraHash(uncles: Uint8Array, extension: string | undefined): Uint8Array {
  if (extension === undefined) return uncles;
  return ckbHash(concat([uncles, ckbHash(ckbHexToBytes(extension))]));
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
