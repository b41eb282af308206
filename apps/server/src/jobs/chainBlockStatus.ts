import {
  type BlockStatus,
  blockStatus,
  ChainwebClient,
  type ChainwebVersionName,
  ckbBlockStatus,
  DaemonPool,
  KaspaRpc,
  kadenaBlockStatus,
  kaspaBlockStatus,
  payToAddressScript,
  RpcClient,
} from '@lodestone/chain';
import type { Config } from '../config/config.js';
import type { Log } from './types.js';

/**
 * Where a found block stands, by its chain's rules:
 * - `in-main-chain`, `orphaned`, `not-found`: the bitcoin family's daemon answer (BlockStatus); the job
 *   applies coinbase maturity by confirmation count;
 * - `pending`: on its chain (or not yet decided), not mature by the chain's own rule (CKB: reward not
 *   final; Kaspa: not merged, or its merging block's coinbase not mature; Kadena: not deep enough);
 * - `matured`: mature by the chain's rule, with the reward the chain paid when it says (CKB's
 *   get_block_economic_state, the Kaspa coinbase output); `confirmations` when the chain counts them.
 */
export type FoundBlockStatus =
  | BlockStatus
  | { kind: 'pending'; confirmations: number }
  | { kind: 'matured'; confirmations: number; reward?: bigint };

/** The found block as the job asks about it. */
export interface FoundBlockRef {
  hash: string;
  height: number;
  /** The catalogue's confirmation count for the coin (Kadena: the depth a block needs on its chain). */
  catalogueConfirmations: number | undefined;
}

/** Asks a coin's nodes where a found block stands. */
export type BlockStatusOf = (coin: string, block: FoundBlockRef) => Promise<FoundBlockStatus>;

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

/**
 * Kadena: a block pays its miner on its own chain at once, so it is mature `required` blocks deep on
 * that chain. Found blocks carry no chain id: the chain is the one whose node knows the header (kept
 * once found). A block no chain knows once every chain is `required` past its height was taken and
 * then dropped by the node: orphaned.
 */
export function kadenaFoundBlockStatus(client: ChainwebClient) {
  const chainOf = new Map<string, number>();
  return async (block: FoundBlockRef): Promise<FoundBlockStatus> => {
    const hash = /^[0-9a-fA-F]{64}$/.test(block.hash)
      ? Buffer.from(block.hash, 'hex').toString('base64url')
      : block.hash;
    const depth = Math.max(1, block.catalogueConfirmations ?? KADENA_DEFAULT_DEPTH);
    let chainId = chainOf.get(hash);
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

/**
 * The status of found blocks through each configured coin's nodes (one client per coin, made on first
 * use and kept; `close()` closes the Kaspa WebSockets).
 */
export function nodeBlockStatus(coins: Config['coins'], log?: Log): BlockStatusOf & { close(): Promise<void> } {
  const askers = new Map<string, (block: FoundBlockRef) => Promise<FoundBlockStatus>>();
  const closers: (() => Promise<void>)[] = [];
  const asker = (ticker: string) => {
    const known = askers.get(ticker);
    if (known) return known;
    const coin = coins.find((c) => c.ticker === ticker);
    if (!coin) return undefined;
    let ask: (block: FoundBlockRef) => Promise<FoundBlockStatus>;
    switch (coin.algorithm) {
      case 'eaglesong': {
        const clients = coin.nodes.map((url) => new RpcClient({ url, jsonrpc: '2.0' }));
        const pool = new DaemonPool(clients, log ? { logger: log } : {});
        ask = (block) => ckbFoundBlockStatus(pool, block);
        break;
      }
      case 'kheavyhash': {
        const rpc = new KaspaRpc(coin.nodes, log ? { logger: log } : {});
        closers.push(() => rpc.close());
        const payScript = payToAddressScript(coin.pay_address);
        ask = (block) => kaspaFoundBlockStatus(rpc, payScript, block);
        break;
      }
      case 'blake2s': {
        // Every configured node follows the same chains; the first one answers for them.
        const version = coin.chainweb_version as ChainwebVersionName;
        ask = kadenaFoundBlockStatus(new ChainwebClient({ url: coin.nodes[0] as string, version }));
        break;
      }
      default: {
        const pool = new DaemonPool(coin.daemons, log ? { logger: log } : {});
        ask = (block) => blockStatus(pool, block.hash);
      }
    }
    askers.set(ticker, ask);
    return ask;
  };
  const statusOf = (ticker: string, block: FoundBlockRef) => {
    const ask = asker(ticker);
    return ask ? ask(block) : Promise.reject(new Error(`${ticker} is not a mined coin`));
  };
  return Object.assign(statusOf, {
    async close() {
      await Promise.all(closers.splice(0).map((close) => close()));
      askers.clear();
    },
  });
}

/** Depth a Kadena block needs when the catalogue says nothing (the catalogue's KDA figure). */
export const KADENA_DEFAULT_DEPTH = 10;
