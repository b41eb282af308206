import { createHash } from 'node:crypto';
import {
  AuxChainSource,
  type ChainLogger,
  type DemoValuation,
  demoTarget,
  MergedMining,
  NETWORKS,
  type OpenedMerged,
  p2pkhAddress,
  targetForNetworkDifficulty,
} from '@lodestone/chain';
import { startAuxDemoNode } from '@lodestone/chain/demo-nodes';

/**
 * The aux chains the demo's SCRYPT chain is merge-mined with: a demo Dogecoin (chain id 98, Dogecoin
 * Core's) and a demo Bellscoin (chain id 16, Bells Core's), each a stand-in aux daemon in process,
 * mined through the same AuxChainSource and MergedMining a pool on real daemons uses.
 *
 * Their blocks are found at the demo's start target (about as often as the demo's Litecoin blocks
 * while the fleet mines; the stand-ins do not retarget). Shares are valued as the other demo chains'
 * (docs/money.md, "Demo economics"): at a real difficulty and block value of 2025's order, written
 * from memory, not market data — Dogecoin ≈ 20 M (about the Litecoin hashrate that merge-mines it,
 * with 60 s blocks) and 10,000 DOGE a block; Bellscoin likewise ≈ 20 M, with 15 BELLS, about the mean
 * of its random block reward at heights 259,200–518,399 (Bells Core's GetBlockSubsidy).
 */
const DEMO_AUX_CHAINS = [
  { coin: 'DOGE', chainId: 98, subsidy: 1_000_000_000_000n, referenceDifficulty: 20_000_000n },
  { coin: 'BELLS', chainId: 16, subsidy: 1_500_000_000n, referenceDifficulty: 20_000_000n },
] as const;

/** The demo payout address of an aux coin: a regtest key hash nobody holds, derived from a label. */
function demoAuxAddress(coin: string): string {
  const hash = createHash('sha256').update(`lodestone demo payout ${coin}`).digest().subarray(0, 20);
  return p2pkhAddress(hash, NETWORKS['bitcoin-regtest']);
}

/** Opens the demo aux chains for the SCRYPT demo source (its `merged` option). */
export function demoMergedMining(
  expectedHashesPerBlock: bigint,
  valuation: DemoValuation,
  logger?: ChainLogger,
): () => Promise<OpenedMerged> {
  return async () => {
    const { bits } = demoTarget(expectedHashesPerBlock);
    const started = await Promise.all(
      DEMO_AUX_CHAINS.map(async (chain) => ({
        chain,
        node: await startAuxDemoNode({ coin: chain.coin, chainId: chain.chainId, bits, subsidy: chain.subsidy }),
      })),
    );
    const nodes = started.map((s) => s.node);
    const chains = started.map(
      ({ chain, node }) =>
        new AuxChainSource({
          coin: chain.coin,
          chainId: chain.chainId,
          daemons: [node.url()],
          payoutAddress: demoAuxAddress(chain.coin),
          ...(valuation === 'reference' && {
            valuationTarget: targetForNetworkDifficulty(chain.referenceDifficulty),
          }),
          ...(logger && { logger }),
        }),
    );
    return {
      merged: new MergedMining(chains, logger),
      close: async () => {
        await Promise.all(nodes.map((node) => node.close()));
      },
    };
  };
}
