import { type KadenaJob, KadenaJobSource } from '@lodestone/chain';
import { CHAINWEB_DEMO_MINER, startChainwebDemoNode } from '@lodestone/chain/demo-nodes';
import { type DemoChainNode, seconds } from '../../demo/demoChains.js';

/**
 * Kadena's demo chain: a braid of chains, each retargeting on its own. Shares are valued as on mainnet
 * in round orders of magnitude of 2025, written from memory: ≈ 200 PH/s over 20 chains, a block per
 * chain every 30 s → 3 × 10^17 hashes a block; the reward is the node's own (the miner reward table at
 * the demo chain's height, ≈ 1.08 KDA).
 */
export const KADENA_DEMO: DemoChainNode<KadenaJob, Uint8Array> = {
  algorithm: 'blake2s',
  reference: { difficulty: 300_000_000_000_000_000n },
  async open({ networkTarget, schedule, logger }) {
    const asert = schedule();
    const node = await startChainwebDemoNode({
      target: networkTarget,
      miners: [CHAINWEB_DEMO_MINER],
      retarget: (chain, parent, at) =>
        asert.next({ height: parent.height, time: seconds(parent.timeMs) }, chain, seconds(at)),
    });
    const source = new KadenaJobSource({ nodes: [node.url], miner: CHAINWEB_DEMO_MINER, ...(logger && { logger }) });
    return { source, close: () => node.close() };
  },
};
