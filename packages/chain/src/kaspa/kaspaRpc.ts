import type { ChainLogger } from '../logger.js';
import { AllDaemonsFailedError, RpcError } from '../rpc/errors.js';
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
 * The kaspad nodes of the pool, used as one, with typed calls. A call goes to the node that answered
 * last; when it cannot be reached or times out, the next one is tried and becomes the preferred node.
 * An error kaspad itself answers (bad address, unknown block) is returned at once.
 */
export class KaspaRpc {
  readonly clients: readonly KaspaRpcClient[];
  private preferred = 0;
  private readonly logger: ChainLogger | undefined;

  constructor(nodes: readonly KaspaNode[], options: { logger?: ChainLogger } = {}) {
    if (nodes.length === 0) throw new RangeError('at least one kaspad node is needed');
    this.logger = options.logger;
    this.clients = nodes.map((node) => {
      if (node instanceof KaspaRpcClient) return node;
      const settings = typeof node === 'string' ? { url: node } : node;
      return new KaspaRpcClient({ ...(options.logger && { logger: options.logger }), ...settings });
    });
  }

  /** The node calls go to first. */
  get current(): KaspaRpcClient {
    return this.clients[this.preferred] as KaspaRpcClient;
  }

  async call(method: string, params: unknown = {}, options: { timeoutMs?: number } = {}): Promise<unknown> {
    const errors: RpcError[] = [];
    for (let i = 0; i < this.clients.length; i++) {
      const index = (this.preferred + i) % this.clients.length;
      const client = this.clients[index] as KaspaRpcClient;
      try {
        const result = await client.call(method, params, options);
        if (index !== this.preferred) {
          this.logger?.warn(
            { kaspad: client.name, previous: this.current.name, method },
            'kaspad failover: switched node',
          );
          this.preferred = index;
        }
        return result;
      } catch (error) {
        if (!(error instanceof RpcError) || !error.daemonUnavailable) throw error;
        errors.push(error);
      }
    }
    throw new AllDaemonsFailedError(method, errors);
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
