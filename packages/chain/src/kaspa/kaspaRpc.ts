import type { ChainLogger } from '../logger.js';
import { Failover } from '../rpc/failover.js';
import {
  type KaspaBlock,
  type KaspaBlockTemplate,
  type KaspaDagInfo,
  type KaspaServerInfo,
  type KaspaSubmitReport,
  readBlock,
  readBlockTemplate,
  readDagInfo,
  readServerInfo,
  readSubmitReport,
} from './wire.js';
import { KaspaRpcClient, type KaspaRpcClientOptions } from './wrpcClient.js';

export type KaspaNode = string | KaspaRpcClient | KaspaRpcClientOptions;

/** submitBlock validates the whole block: allow it more time than an ordinary call. */
const SUBMIT_TIMEOUT_MS = 30_000;

/**
 * The kaspad nodes of the pool, used as one (see Failover), with typed calls.
 */
export class KaspaRpc {
  private readonly nodes: Failover<KaspaRpcClient>;

  constructor(nodes: readonly KaspaNode[], options: { logger?: ChainLogger } = {}) {
    if (nodes.length === 0) throw new RangeError('at least one kaspad node is needed');
    const clients = nodes.map((node) => {
      if (node instanceof KaspaRpcClient) return node;
      const settings = typeof node === 'string' ? { url: node } : node;
      return new KaspaRpcClient({ ...(options.logger && { logger: options.logger }), ...settings });
    });
    this.nodes = new Failover(clients, (client, previous, method) =>
      options.logger?.warn({ kaspad: client.name, previous: previous.name, method }, 'kaspad failover: switched node'),
    );
  }

  get clients(): readonly KaspaRpcClient[] {
    return this.nodes.clients;
  }

  /** The node calls go to first. */
  get current(): KaspaRpcClient {
    return this.nodes.current;
  }

  call(method: string, params: unknown = {}, options: { timeoutMs?: number } = {}): Promise<unknown> {
    return this.nodes.call(method, (client) => client.call(method, params, options));
  }

  /** A template paying `payAddress`; `extraData` is appended to kaspad's version in the coinbase payload. */
  async getBlockTemplate(payAddress: string, extraData: Uint8Array = new Uint8Array()): Promise<KaspaBlockTemplate> {
    const result = await this.call('getBlockTemplate', { payAddress, extraData: [...extraData] });
    return readBlockTemplate(result, this.current.name);
  }

  /** Submits `block` (the template's block object with the nonce set) to one node. */
  async submitBlockTo(client: KaspaRpcClient, block: unknown): Promise<KaspaSubmitReport> {
    const result = await client.call(
      'submitBlock',
      { block, allowNonDAABlocks: false },
      { timeoutMs: SUBMIT_TIMEOUT_MS },
    );
    return readSubmitReport(result, client.name);
  }

  async getBlock(hash: string, includeTransactions: boolean): Promise<KaspaBlock> {
    return readBlock(await this.call('getBlock', { hash, includeTransactions }), this.current.name);
  }

  async getBlockDagInfo(): Promise<KaspaDagInfo> {
    return readDagInfo(await this.call('getBlockDagInfo', {}), this.current.name);
  }

  async getServerInfo(): Promise<KaspaServerInfo> {
    return readServerInfo(await this.call('getServerInfo', {}), this.current.name);
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.close()));
  }
}
