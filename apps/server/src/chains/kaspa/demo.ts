import { demoTarget, type KaspaBlockSubmission, type KaspaJob, KaspaJobSource } from '@lodestone/chain';
import { KaspaDemoNode } from '@lodestone/chain/demo-nodes';
import { bitsFromTarget } from '@lodestone/pow';
import { type DemoChainNode, seconds } from '../../demo/demoChains.js';

/**
 * The demo Kaspa pay address: a devnet Schnorr key nobody holds (bytes 0, 7, 14, …), the same as the
 * chain package's Kaspa job source tests use.
 */
const DEMO_KASPA_ADDRESS = 'kaspadev:qqqqwrs4rs3j5vfc8ary64zmvf5hqam7skxf8x4p4zhmd0wye0fdjdvq62sxf';

/**
 * Kaspa's demo chain. Shares are valued as on mainnet in round orders of magnitude of 2025, written
 * from memory: ≈ 1 EH/s at 10 blocks a second → 10^17 hashes a block, difficulty 10^17 ÷ 2^32. The
 * node pays the emission of 440 KAS/s at the start of the deflationary phase (May 2022) halved each
 * year, ≈ 55 KAS/s in 2025, ÷ 10 blocks a second = 5.5 KAS a block.
 */
export const KASPA_DEMO: DemoChainNode<KaspaJob, KaspaBlockSubmission> = {
  algorithm: 'kheavyhash',
  reference: { difficulty: 100_000_000_000_000_000n / 2n ** 32n },
  // The node's compact bits round the target: the start target is what they say.
  startTarget: (expectedHashesPerBlock) => demoTarget(expectedHashesPerBlock).target,
  async open({ expectedHashesPerBlock, schedule, logger }) {
    const asert = schedule();
    const node = await KaspaDemoNode.start({
      prefix: 'kaspadev',
      bits: demoTarget(expectedHashesPerBlock).bits,
      retarget: (parent, at) =>
        bitsFromTarget(asert.next({ height: parent.blueScore, time: seconds(parent.timestampMs) }, 0, seconds(at))),
      subsidy: 550_000_000n,
    });
    const source = new KaspaJobSource({
      nodes: [node.url],
      payAddress: DEMO_KASPA_ADDRESS,
      extraData: '/lodestone demo/',
      ...(logger && { logger }),
    });
    return { source, close: () => node.close() };
  },
};
