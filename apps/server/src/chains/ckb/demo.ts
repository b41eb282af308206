import { createHash } from 'node:crypto';
import {
  type CkbJob,
  CkbJobSource,
  type CkbJsonBlock,
  type CkbJsonScript,
  ckbCompactFromTarget,
} from '@lodestone/chain';
import { SECP256K1_BLAKE160_CODE_HASH, startCkbDemoNode } from '@lodestone/chain/demo-nodes';
import { type DemoChainNode, seconds } from '../../demo/demoChains.js';

/** The demo CKB node's issuance a block, shannons (see CKB_DEMO). */
const CKB_PRIMARY = 53_272_451_045n;
const CKB_SECONDARY = 398_013_957n;

/** The lock the demo CKB node pays: a key hash nobody holds, derived from a label. */
export const DEMO_CKB_LOCK: CkbJsonScript = {
  code_hash: SECP256K1_BLAKE160_CODE_HASH,
  hash_type: 'type',
  args: `0x${createHash('sha256').update('lodestone demo payout eaglesong').digest('hex').slice(0, 40)}`,
};

/**
 * CKB's demo chain. Shares are valued as on mainnet in round orders of magnitude of 2025, written from
 * memory (no market data was looked up), like the bitcoin family's DEMO_REFERENCE_DIFFICULTY: a few
 * hundred PH/s (≈ 300 PH/s) with a block about every 8 s → 2.4 × 10^18 hashes a block. A CKB cellbase
 * pays the block eleven back (zero on a young chain), so shares are valued at the reward the demo node
 * pays a block instead: the primary issuance after the November 2023 halving (half the stand-in's
 * default, which is the first era's 1 917 808 CKB an epoch over 1 800 blocks) plus the stand-in's
 * secondary share, ≈ 536.7 CKB.
 */
export const CKB_DEMO: DemoChainNode<CkbJob, CkbJsonBlock> = {
  algorithm: 'eaglesong',
  reference: { difficulty: 2_400_000_000_000_000_000n, coinbaseValue: CKB_PRIMARY + CKB_SECONDARY },
  async open({ networkTarget, schedule, logger }) {
    const asert = schedule();
    const node = await startCkbDemoNode({
      blockAssembler: { lock: DEMO_CKB_LOCK },
      compactTarget: ckbCompactFromTarget(networkTarget),
      retarget: (parent, at) =>
        ckbCompactFromTarget(asert.next({ height: parent.number, time: seconds(parent.timestampMs) }, 0, seconds(at))),
      primaryReward: CKB_PRIMARY,
      secondaryReward: CKB_SECONDARY,
    });
    const source = new CkbJobSource({ nodes: [node.url], payoutLock: DEMO_CKB_LOCK, ...(logger && { logger }) });
    return { source, close: () => node.close() };
  },
};
