import { ckbBlockStatus, type DaemonPool } from '@lodestone/chain';
import type { FoundBlockRef, FoundBlockStatus } from '../chain.js';

/**
 * CKB: the block's reward is final eleven blocks later (get_block_economic_state); then it is mature
 * with that reward, the real one, rather than the template's estimate. Another block at its height in
 * the canonical chain: orphaned (an uncle earns nothing).
 */
export async function ckbFoundBlockStatus(pool: DaemonPool, block: FoundBlockRef): Promise<FoundBlockStatus> {
  const hash = block.hash.startsWith('0x') ? block.hash : `0x${block.hash}`;
  const status = await ckbBlockStatus(pool, { hash, height: block.height });
  switch (status.kind) {
    case 'pending':
      return { kind: 'pending', confirmations: status.confirmations };
    case 'confirmed':
      return { kind: 'matured', confirmations: status.confirmations, reward: status.reward.total };
    case 'orphaned':
      return { kind: 'orphaned', height: status.height };
  }
}
