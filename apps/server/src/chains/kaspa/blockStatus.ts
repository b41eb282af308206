import { type KaspaRpc, kaspaBlockStatus } from '@lodestone/chain';
import type { FoundBlockRef, FoundBlockStatus } from '../chain.js';

/**
 * Kaspa: blue and merged by a chain block whose coinbase is mature (1000 DAA scores): mature with that
 * coinbase's output to the pool; merged red, merged without paying the pool, or unknown to the node:
 * orphaned. Kaspa counts no confirmations, so 0 is recorded until then.
 */
export async function kaspaFoundBlockStatus(
  rpc: KaspaRpc,
  payScript: string,
  block: FoundBlockRef,
): Promise<FoundBlockStatus> {
  const status = await kaspaBlockStatus(rpc, block.hash.replace(/^0x/, '').toLowerCase(), { payScript });
  switch (status.kind) {
    case 'pending':
      return { kind: 'pending', confirmations: 0 };
    case 'confirmed':
      return { kind: 'matured', confirmations: 0, reward: status.reward };
    case 'orphaned':
      return { kind: 'orphaned', height: block.height };
  }
}
