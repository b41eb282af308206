import type { RpcCaller, RpcCallOptions } from '../rpc/client.js';
import { CkbRpc } from './rpc.js';
import { parseCkbHash } from './uint.js';

/** Blocks until a block's reward is final (nervosnetwork/ckb spec/src/consensus.rs: proposal window farthest 10, + 1). */
export const CKB_FINALIZATION_DELAY = 11;

/** The reward of a finalized block as get_block_economic_state gives it, shannons. */
export interface CkbBlockReward {
  primary: bigint;
  secondary: bigint;
  committed: bigint;
  proposal: bigint;
  /** primary + secondary + committed + proposal: what the cellbase of block `height + 11` pays the pool. */
  total: bigint;
  /** The canonical block at height + 11, whose cellbase pays this reward. */
  finalizedAt: string;
}

/**
 * Where a block the pool found stands, as a CKB node sees it:
 * - `pending`: in the canonical chain, `confirmations` deep (1 = the tip), its reward not final until the
 *   tip reaches `finalizesAt` — or the node's chain does not reach the height yet (`confirmations` 0);
 * - `confirmed`: in the canonical chain and its reward final: `reward` is the block's real value
 *   (spendable once the cellbase paying it is 4 epochs old);
 * - `orphaned`: another block holds its height in the canonical chain (`canonicalHash`). An uncle earns
 *   nothing. A reorganisation could bring it back, so callers re-check until it is deep enough to give up.
 */
export type CkbBlockStatus =
  | { kind: 'pending'; height: number; confirmations: number; finalizesAt: number }
  | { kind: 'confirmed'; height: number; confirmations: number; reward: CkbBlockReward }
  | { kind: 'orphaned'; height: number; canonicalHash: string };

/**
 * The status of block `hash` found at `height`: get_tip_block_number, get_header_by_number(height) and,
 * when the block is canonical, get_block_economic_state(hash), which stays null until the tip is
 * height + 11. Errors are thrown as they come (RpcError, AllDaemonsFailedError).
 */
export async function ckbBlockStatus(
  rpc: RpcCaller,
  block: { hash: string; height: number },
  options?: RpcCallOptions,
): Promise<CkbBlockStatus> {
  const hash = parseCkbHash(block.hash, 'hash');
  const { height } = block;
  if (!Number.isSafeInteger(height) || height < 1) throw new RangeError(`not a block height: ${height}`);
  const node = new CkbRpc(rpc);
  const tip = await node.getTipBlockNumber(options);
  const finalizesAt = height + CKB_FINALIZATION_DELAY;
  if (tip < height) return { kind: 'pending', height, confirmations: 0, finalizesAt };
  const header = await node.getHeaderByNumber(height, options);
  if (header === null) return { kind: 'pending', height, confirmations: 0, finalizesAt };
  if (header.hash !== hash) return { kind: 'orphaned', height, canonicalHash: header.hash };
  const confirmations = tip - height + 1;
  const state = await node.getBlockEconomicState(hash, options);
  if (state === null) return { kind: 'pending', height, confirmations, finalizesAt };
  const r = state.miner_reward;
  const [primary, secondary, committed, proposal] = [r.primary, r.secondary, r.committed, r.proposal].map(BigInt) as [
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  return {
    kind: 'confirmed',
    height,
    confirmations,
    reward: {
      primary,
      secondary,
      committed,
      proposal,
      total: primary + secondary + committed + proposal,
      finalizedAt: state.finalized_at,
    },
  };
}
