import { type ChainwebClient, kadenaBlockStatus } from '@lodestone/chain';
import type { FoundBlockRef, FoundBlockStatus } from '../chain.js';

/**
 * Kadena: a block pays its miner on its own chain at once, so it is mature `required` blocks deep on
 * that chain: the one its report names (migration 0035), else — a block reported before chains were — the one whose
 * node knows the header (kept once found). A block no chain knows once every chain is `required` past its height was
 * taken and then dropped by the node: orphaned.
 */
export function kadenaFoundBlockStatus(client: ChainwebClient) {
  const chainOf = new Map<string, number>();
  return async (block: FoundBlockRef): Promise<FoundBlockStatus> => {
    const hash = /^[0-9a-fA-F]{64}$/.test(block.hash)
      ? Buffer.from(block.hash, 'hex').toString('base64url')
      : block.hash;
    const depth = Math.max(1, block.catalogueConfirmations ?? KADENA_DEFAULT_DEPTH);
    let chainId = block.chain ?? chainOf.get(hash);
    if (chainId === undefined) {
      const cut = await client.cut();
      for (const chain of cut.keys()) {
        if ((await client.header(chain, hash)) !== undefined) {
          chainId = chain;
          break;
        }
      }
      if (chainId === undefined) {
        const decided = [...cut.values()].every((head) => head.height - block.height + 1 >= depth);
        return decided ? { kind: 'orphaned', height: block.height } : { kind: 'pending', confirmations: 0 };
      }
      chainOf.set(hash, chainId);
    }
    const status = await kadenaBlockStatus(client, { chainId, height: block.height, hash }, depth);
    switch (status.kind) {
      case 'confirmed':
        return { kind: 'matured', confirmations: status.confirmations };
      case 'pending':
        return { kind: 'pending', confirmations: status.confirmations };
      case 'orphaned':
        chainOf.delete(hash);
        return { kind: 'orphaned', height: block.height };
    }
  };
}

/** Depth a Kadena block needs when the catalogue says nothing (the catalogue's KDA figure). */
export const KADENA_DEFAULT_DEPTH = 10;
