import { RpcError } from '../rpc/errors.js';
import type { KaspaRpc } from './kaspaRpc.js';
import type { KaspaBlock } from './wire.js';

/**
 * Where a block the pool found stands, for the reward:
 * - `pending`: not yet merged by a chain block, or merged but its reward not yet mature (`color` and
 *   `mergedBy` once it is merged; `matureAtDaaScore` when the reward can be spent);
 * - `confirmed`: merged blue by chain block `mergedBy`, whose coinbase pays `reward` sompi to the pool's
 *   script, and `coinbaseMaturity` DAA scores have passed since;
 * - `orphaned`: merged red (`red`: the reward goes to the merging block's miner), unknown to the node
 *   (`not-found`), or merged blue without a coinbase output to the pool (`no-reward`).
 */
export type KaspaBlockStatus =
  | { kind: 'pending'; color?: 'blue' | 'red'; mergedBy?: string; matureAtDaaScore?: bigint }
  | { kind: 'confirmed'; reward: bigint; mergedBy: string }
  | { kind: 'orphaned'; reason: 'red' | 'not-found' | 'no-reward'; mergedBy?: string };

export interface KaspaBlockStatusOptions {
  /** The pool's pay script (version ‖ script hex, as `payToAddressScript` gives it). */
  payScript: string;
  /**
   * DAA scores after the merging block before its coinbase is spendable: 1000 on 10-BPS mainnet
   * (rusty-kaspa consensus/core/src/config/constants.rs COINBASE_MATURITY_SECONDS = 100 × 10 BPS).
   */
  coinbaseMaturity?: bigint;
  /** How many descendants are searched for the merging chain block (default 200). */
  searchLimit?: number;
}

export const KASPA_COINBASE_MATURITY = 1000n;

/**
 * Classifies a found block the way MiningCore's Kaspa payout handler does
 * (blackmennewstyle/miningcore src/Miningcore/Blockchain/Kaspa/KaspaPayoutHandler.cs
 * `ClassifyBlocksAsync` @9f3e675): a block getBlock cannot find is orphaned; otherwise the blocks after
 * it are read for the one that merges it — in a child (or, here, a later descendant, since a block can
 * be merged by a chain block that is not its child) whose `mergeSetRedsHashes` holds it, it is red; in a
 * chain block whose `mergeSetBluesHashes` holds it, it is paid by that block's coinbase output at the
 * same index (kaspad writes one output per blue merged block, in mergeset order:
 * consensus/src/processes/coinbase.rs). Unlike MiningCore (120 block confirmations), the reward is
 * called confirmed when the merging block's coinbase is mature: virtual DAA score ≥ its DAA score +
 * `coinbaseMaturity`, and that block is still on the selected chain.
 */
export async function kaspaBlockStatus(
  rpc: KaspaRpc,
  hash: string,
  options: KaspaBlockStatusOptions,
): Promise<KaspaBlockStatus> {
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new RangeError(`not a Kaspa block hash: ${JSON.stringify(hash)}`);
  const found = await getBlockOrUndefined(rpc, hash, false);
  if (found === undefined) return { kind: 'orphaned', reason: 'not-found' };

  const merger = await findMerger(rpc, found, options.searchLimit ?? 200);
  if (merger === undefined) return { kind: 'pending' };
  const { block, color } = merger;
  const matureAt = block.header.daaScore + (options.coinbaseMaturity ?? KASPA_COINBASE_MATURITY);
  const dag = await rpc.getBlockDagInfo();
  const mature = dag.virtualDaaScore >= matureAt;
  // A block merged by a chain block that left the selected chain is merged again by another: wait.
  if (!mature || block.verboseData?.isChainBlock !== true) {
    return { kind: 'pending', color, mergedBy: block.hash, matureAtDaaScore: matureAt };
  }
  if (color === 'red') return { kind: 'orphaned', reason: 'red', mergedBy: block.hash };
  const index = block.verboseData.mergeSetBluesHashes.indexOf(hash);
  const coinbase = block.transactions.find((tx) => tx.inputCount === 0);
  const output = coinbase?.outputs[index];
  if (output === undefined || output.scriptPublicKey !== options.payScript) {
    return { kind: 'orphaned', reason: 'no-reward', mergedBy: block.hash };
  }
  return { kind: 'confirmed', reward: output.value, mergedBy: block.hash };
}

/** The first block after `found` (breadth first) that merges it red, or blue as a chain block. */
async function findMerger(
  rpc: KaspaRpc,
  found: KaspaBlock,
  limit: number,
): Promise<{ block: KaspaBlock; color: 'blue' | 'red' } | undefined> {
  const queue = [...(found.verboseData?.childrenHashes ?? [])];
  const seen = new Set(queue);
  for (let read = 0; read < limit && queue.length > 0; read++) {
    const hash = queue.shift() as string;
    const block = await getBlockOrUndefined(rpc, hash, true);
    const verbose = block?.verboseData;
    if (block === undefined || verbose === undefined) continue;
    if (verbose.mergeSetRedsHashes.includes(found.hash)) return { block, color: 'red' };
    if (verbose.isChainBlock && verbose.mergeSetBluesHashes.includes(found.hash)) return { block, color: 'blue' };
    for (const child of verbose.childrenHashes) {
      if (!seen.has(child)) {
        seen.add(child);
        queue.push(child);
      }
    }
  }
  return undefined;
}

/** getBlock, or undefined when kaspad answers that it does not know the block. */
async function getBlockOrUndefined(rpc: KaspaRpc, hash: string, includeTransactions: boolean) {
  try {
    return await rpc.getBlock(hash, includeTransactions);
  } catch (error) {
    // kaspad: "cannot find header <hash>" / "cannot find full block <hash>" (ConsensusError).
    if (error instanceof RpcError && error.kind === 'rpc' && /cannot find/.test(error.message)) return undefined;
    throw error;
  }
}
