/**
 * The stand-in CKB node's own block hashing, written apart from the pool's (which serializes with
 * @ckb-ccc/core and builds the merkle tree as an array): molecule encoding straight from the schema
 * (nervosnetwork/ckb util/gen-types/schemas/blockchain.mol) and the merkle root with the queue algorithm
 * of the `merkle_cbt` crate. Both sides are checked against the same real blocks, so a mistake in one
 * shows as a refused block rather than agreeing with itself.
 */
import { ckbHash } from '@lodestone/pow';
import type { CkbJsonBlock, CkbJsonCellOutput, CkbJsonScript, CkbJsonTransaction } from '../ckb/types.js';

const HASH_TYPE_BYTE: Record<CkbJsonScript['hash_type'], number> = { data: 0, type: 1, data1: 2, data2: 4 };

function hexBytes(hex: string): Buffer {
  return Buffer.from(hex.slice(2), 'hex');
}

function u32(n: number | bigint): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(Number(n));
  return b;
}

function u64(hex: string): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(hex));
  return b;
}

/** molecule fixvec: item count, then the items. */
function fixvec(items: readonly Buffer[]): Buffer {
  return Buffer.concat([u32(items.length), ...items]);
}

/** molecule dynvec and table share a layout: total size, one offset per item, then the items. */
function dynamic(items: readonly Buffer[]): Buffer {
  const headerSize = 4 * (items.length + 1);
  const total = headerSize + items.reduce((sum, i) => sum + i.length, 0);
  const offsets: Buffer[] = [];
  let offset = headerSize;
  for (const item of items) {
    offsets.push(u32(offset));
    offset += item.length;
  }
  return Buffer.concat([u32(total), ...offsets, ...items]);
}

/** molecule Bytes (fixvec<byte>): length, then the bytes. */
function bytes(hex: string): Buffer {
  const raw = hexBytes(hex);
  return Buffer.concat([u32(raw.length), raw]);
}

export function encodeScript(script: CkbJsonScript): Buffer {
  return dynamic([hexBytes(script.code_hash), Buffer.of(HASH_TYPE_BYTE[script.hash_type]), bytes(script.args)]);
}

function outPoint(txHash: string, index: string): Buffer {
  return Buffer.concat([hexBytes(txHash), u32(BigInt(index))]);
}

function cellOutput(output: CkbJsonCellOutput): Buffer {
  // ScriptOpt: absent is zero bytes, present is the Script itself.
  const type = output.type === null ? Buffer.alloc(0) : encodeScript(output.type);
  return dynamic([u64(output.capacity), encodeScript(output.lock), type]);
}

export function encodeRawTransaction(tx: CkbJsonTransaction): Buffer {
  return dynamic([
    u32(BigInt(tx.version)),
    fixvec(
      tx.cell_deps.map((d) =>
        Buffer.concat([outPoint(d.out_point.tx_hash, d.out_point.index), Buffer.of(d.dep_type === 'code' ? 0 : 1)]),
      ),
    ),
    fixvec(tx.header_deps.map(hexBytes)),
    fixvec(
      tx.inputs.map((i) => Buffer.concat([u64(i.since), outPoint(i.previous_output.tx_hash, i.previous_output.index)])),
    ),
    dynamic(tx.outputs.map(cellOutput)),
    dynamic(tx.outputs_data.map(bytes)),
  ]);
}

export function encodeTransaction(tx: CkbJsonTransaction): Buffer {
  return dynamic([encodeRawTransaction(tx), dynamic(tx.witnesses.map(bytes))]);
}

export function encodeCellbaseWitness(lock: CkbJsonScript, message: string): Buffer {
  return dynamic([encodeScript(lock), bytes(message)]);
}

/** The merkle root as the merkle_cbt crate computes it: pair leaves from the right, then merge in a queue. */
export function queueMerkleRoot(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return Buffer.alloc(32);
  const queue: Buffer[] = [];
  let i = leaves.length;
  while (i >= 2) {
    queue.push(merge(leaves[i - 2] as Buffer, leaves[i - 1] as Buffer));
    i -= 2;
  }
  if (i === 1) queue.unshift(leaves[0] as Buffer);
  while (queue.length > 1) {
    const right = queue.shift() as Buffer;
    const left = queue.shift() as Buffer;
    queue.push(merge(left, right));
  }
  return queue[0] as Buffer;
}

function merge(left: Buffer, right: Buffer): Buffer {
  return Buffer.from(ckbHash(Buffer.concat([left, right])));
}

export function hashHex(data: Uint8Array): string {
  return `0x${Buffer.from(ckbHash(data)).toString('hex')}`;
}

/** What the node recomputes of a submitted block. */
export interface BlockCommitments {
  txHashes: string[];
  transactionsRoot: string;
  proposalsHash: string;
  unclesHash: string;
  extraHash: string;
}

export function blockCommitments(block: CkbJsonBlock, uncleHeaderHashes: readonly string[]): BlockCommitments {
  const txHashes = block.transactions.map((tx) => ckbHash(encodeRawTransaction(tx)));
  const witnessHashes = block.transactions.map((tx) => ckbHash(encodeTransaction(tx)));
  const root = queueMerkleRoot([
    queueMerkleRoot(txHashes.map((h) => Buffer.from(h))),
    queueMerkleRoot(witnessHashes.map((h) => Buffer.from(h))),
  ]);
  const zero = `0x${'00'.repeat(32)}`;
  const proposalsHash = block.proposals.length === 0 ? zero : hashHex(Buffer.concat(block.proposals.map(hexBytes)));
  const unclesHash = uncleHeaderHashes.length === 0 ? zero : hashHex(Buffer.concat(uncleHeaderHashes.map(hexBytes)));
  const extraHash =
    block.extension === undefined
      ? unclesHash
      : hashHex(Buffer.concat([hexBytes(unclesHash), ckbHash(hexBytes(block.extension))]));
  return {
    txHashes: txHashes.map((h) => `0x${Buffer.from(h).toString('hex')}`),
    transactionsRoot: `0x${root.toString('hex')}`,
    proposalsHash,
    unclesHash,
    extraHash,
  };
}
