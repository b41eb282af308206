/**
 * Block templates rebuilt from real CKB blocks (src/ckb/fixtures, README.md there). Each template is what
 * get_block_template would have given the miner of that block: its header fields (current_time = the
 * block's timestamp), its cellbase, transactions, proposals and uncles. A job made from it and the block's
 * real nonce gives the block's real hash, so stratum tests can mine real blocks through a dialect:
 * - `REAL_CKB_CHAIN`: blocks 1 to 9 of a chain on the Aggron testnet genesis (nervosnetwork/ckb
 *   util/rich-indexer test data): real roots, uncles and hashes, each block the parent of the next; their
 *   nonces are not Eaglesong solutions (that chain was not mined with Eaglesong);
 * - `REAL_CKB_POW_BLOCK`: mainnet block 76245 (nervosnetwork/rfcs RFC 0019), whose nonce is a real
 *   Eaglesong solution at its compact target 0x1a9c7b1a. The RFC's example lists a proposal its header's
 *   proposals_hash (zero) does not commit to, so the template leaves it out.
 */
import blocks from '../ckb/fixtures/aggron-blocks-1-9.json' with { type: 'json' };
import mainnet from '../ckb/fixtures/mainnet-block-76245.json' with { type: 'json' };
import { parseBlockTemplate } from '../ckb/parse.js';
import type { CkbJsonBlockTemplate } from '../ckb/types.js';
import { nonceToBytes, parseCkbUint, toCkbUint } from '../ckb/uint.js';

export interface RealCkbBlock {
  /** Block number. */
  number: number;
  /** The block hash, 0x-hex. */
  hash: string;
  parentHash: string;
  /** The header's u128 nonce as the 16 bytes a miner hashed (little-endian). */
  nonce16: Uint8Array;
  /** The template this block was mined from. */
  template(workId?: number): CkbJsonBlockTemplate;
}

/** Strips the RPC's `hash` field from a header or transaction view. */
function withoutHash<T extends { hash?: unknown }>(view: T): Omit<T, 'hash'> {
  const { hash: _hash, ...rest } = view;
  return rest;
}

interface BlockJson {
  header: { hash: string; number: string; parent_hash: string; nonce: string } & Record<string, string>;
  uncles: { header: { hash: string } & Record<string, string>; proposals: string[] }[];
  transactions: ({ hash: string } & Record<string, unknown>)[];
  proposals: string[];
}

function realBlock(block: BlockJson): RealCkbBlock {
  const { header } = block;
  const [cellbase, ...transactions] = block.transactions;
  if (!cellbase) throw new Error(`fixture block ${header.number} has no cellbase`);
  return {
    number: Number(header.number),
    hash: header.hash,
    parentHash: header.parent_hash,
    nonce16: nonceToBytes(parseCkbUint(header.nonce, 'nonce', 128)),
    template: (workId = Number(header.number)) =>
      parseBlockTemplate({
        version: header.version,
        compact_target: header.compact_target,
        current_time: header.timestamp,
        number: header.number,
        epoch: header.epoch,
        parent_hash: header.parent_hash,
        cycles_limit: '0x2540be400',
        bytes_limit: '0x91c08',
        uncles_count_limit: '0x2',
        uncles: block.uncles.map((u) => ({
          hash: u.header.hash,
          required: false,
          proposals: u.proposals,
          header: withoutHash(u.header),
        })),
        transactions: transactions.map((tx) => ({ hash: tx.hash, required: false, data: withoutHash(tx) })),
        proposals: block.proposals,
        cellbase: { hash: cellbase.hash, data: withoutHash(cellbase) },
        work_id: toCkbUint(BigInt(workId)),
        dao: header.dao,
      }),
  };
}

/** Aggron blocks 1 to 9, in chain order (each one's parent is the one before); not Eaglesong solutions. */
export const REAL_CKB_CHAIN: readonly RealCkbBlock[] = blocks.map(realBlock);

/** Mainnet block 76245: a real Eaglesong solution (and an uncle in its extra_hash). */
export const REAL_CKB_POW_BLOCK: RealCkbBlock = realBlock({ ...mainnet, proposals: [] });
