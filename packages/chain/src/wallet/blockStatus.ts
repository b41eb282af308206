import { isHex } from '../bitcoin/bytes.js';
import type { RpcCaller, RpcCallOptions } from '../rpc/client.js';
import { RpcError } from '../rpc/errors.js';
import { Shape } from '../rpc/shape.js';

/**
 * Where a block the pool found stands, as the daemon sees it:
 * - `in-main-chain`: on the daemon's best chain, `confirmations` deep (1 = it is the tip);
 * - `orphaned`: the daemon knows it but it is off the best chain (a competing block won, or it was
 *   invalidated) — its coinbase will never be spendable unless the chain reorganises back;
 * - `not-found`: the daemon has never seen it (not yet propagated to this daemon, or a wrong hash).
 */
export type BlockStatus =
  | { kind: 'in-main-chain'; confirmations: number; height: number }
  | { kind: 'orphaned'; height: number }
  | { kind: 'not-found' };

const RPC_INVALID_ADDRESS_OR_KEY = -5;

/**
 * The status of block `hash` (64 hex digits, RPC byte order). Uses getblockheader rather than getblock:
 * the same confirmations (−1 off the best chain) and height, without the block's transaction list.
 * Errors other than "block not found" are thrown as they come (RpcError, AllDaemonsFailedError).
 */
export async function blockStatus(rpc: RpcCaller, hash: string, options?: RpcCallOptions): Promise<BlockStatus> {
  if (!isHex(hash, 32)) throw new RangeError(`not a block hash: ${JSON.stringify(hash)}`);
  let result: unknown;
  try {
    result = await rpc.call('getblockheader', [hash.toLowerCase(), true], options);
  } catch (error) {
    if (error instanceof RpcError && error.kind === 'rpc' && error.rpcCode === RPC_INVALID_ADDRESS_OR_KEY) {
      return { kind: 'not-found' };
    }
    throw error;
  }
  const s = new Shape('getblockheader');
  const r = s.object(result, 'result');
  const height = s.integer(r.height, 'height', 0);
  const confirmations = s.integer(r.confirmations, 'confirmations', -1);
  if (confirmations === 0) s.fail('confirmations is 0, which no daemon reports for a known block');
  return confirmations === -1 ? { kind: 'orphaned', height } : { kind: 'in-main-chain', confirmations, height };
}
