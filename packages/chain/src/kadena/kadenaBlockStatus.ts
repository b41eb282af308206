import type { ChainwebClient } from './chainwebClient.js';
import { ChainwebError } from './chainwebClient.js';
import { base64UrlToHash, KADENA_HEADER_LENGTH, kadenaBlockHash } from './header.js';

/**
 * Where a Kadena block the pool found stands on its chain, as a chainweb node sees it. The coinbase is
 * credited to the miner account on the block's own chain as soon as the block is on the chain — there
 * is no maturity — so confirmation is depth on that chain:
 * - `confirmed`: on the chain (the node's cut's branch), `confirmations` deep (1 = the chain's head), at
 *   least the required depth;
 * - `pending`: on the chain but not deep enough (`confirmations` ≥ 1), or not on it while the chain is
 *   not yet `required` blocks past its height (`confirmations` 0: a competing block may still lose, or
 *   the chain has not reached it yet);
 * - `orphaned`: the chain is `required` blocks past the height with another block there — `known`
 *   says whether the node has the block at all (a solution the node took and then dropped is unknown).
 */
export type KadenaBlockStatus =
  | { kind: 'confirmed'; confirmations: number }
  | { kind: 'pending'; confirmations: number }
  | { kind: 'orphaned'; known: boolean; replacedBy: string };

export interface KadenaBlockRef {
  chainId: number;
  height: number;
  /** base64url block hash (SubmitBlockResult.hash of the Kadena job source). */
  hash: string;
}

/**
 * The status of a block: the node's cut gives the chain's head; the header at the block's height on the
 * branch ending there (POST chain/{c}/header/branch) is the block of the chain at that height. Its hash
 * is recomputed here from the header, so a node's answer that is not a real header is an error.
 */
export async function kadenaBlockStatus(
  client: ChainwebClient,
  block: KadenaBlockRef,
  required: number,
): Promise<KadenaBlockStatus> {
  base64UrlToHash(block.hash);
  if (!Number.isSafeInteger(required) || required < 1) throw new RangeError(`confirmations ${required} is not ≥ 1`);
  const head = (await client.cut()).get(block.chainId);
  if (head === undefined) {
    throw new ChainwebError('malformed', `the cut has no chain ${block.chainId}`, {
      node: client.name,
      call: 'GET cut',
    });
  }
  const depth = head.height - block.height + 1;
  if (depth < 1) return { kind: 'pending', confirmations: 0 };
  const [onChain] = await client.branchHeaders(block.chainId, head.hash, block.height, block.height);
  if (onChain === undefined) {
    throw new ChainwebError('malformed', `no header at height ${block.height} below the head`, {
      node: client.name,
      call: `POST chain/${block.chainId}/header/branch`,
    });
  }
  const stated = onChain.subarray(KADENA_HEADER_LENGTH - 32);
  const computed = kadenaBlockHash(onChain.subarray(0, KADENA_HEADER_LENGTH - 32));
  if (!computed.equals(stated)) {
    throw new ChainwebError('malformed', 'a header whose hash is not its Merkle root', {
      node: client.name,
      call: `POST chain/${block.chainId}/header/branch`,
    });
  }
  const chainHash = computed.toString('base64url');
  if (chainHash === block.hash.replace(/=$/, '')) {
    return { kind: depth >= required ? 'confirmed' : 'pending', confirmations: depth };
  }
  if (depth < required) return { kind: 'pending', confirmations: 0 };
  const known = (await client.header(block.chainId, block.hash)) !== undefined;
  return { kind: 'orphaned', known, replacedBy: chainHash };
}
