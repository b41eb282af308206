import type { ChainLogger } from '../logger.js';
import { type RpcCaller, type RpcCallOptions, RpcClient, type RpcClientOptions } from './client.js';
import { AllDaemonsFailedError, RpcError } from './errors.js';

/**
 * The daemons of one coin, used as one. A call goes to the daemon that answered last; when it is
 * unreachable, times out, or says it cannot serve (not connected, initial download, warming up), the
 * next one is tried, and the one that answers becomes the preferred daemon. A JSON-RPC error that is
 * the daemon's real answer (bad parameters, invalid block) is returned at once, not retried elsewhere.
 */
export class DaemonPool implements RpcCaller {
  readonly clients: readonly RpcClient[];
  private preferred = 0;
  private readonly logger: ChainLogger | undefined;

  constructor(daemons: readonly (string | RpcClient | RpcClientOptions)[], options: { logger?: ChainLogger } = {}) {
    if (daemons.length === 0) throw new RangeError('at least one daemon is needed');
    this.clients = daemons.map((d) =>
      d instanceof RpcClient ? d : new RpcClient(typeof d === 'string' ? { url: d } : d),
    );
    this.logger = options.logger;
  }

  /** The daemon calls go to first. */
  get current(): RpcClient {
    return this.clients[this.preferred] as RpcClient;
  }

  async call(method: string, params: readonly unknown[] = [], options: RpcCallOptions = {}): Promise<unknown> {
    const errors: RpcError[] = [];
    const start = this.preferred;
    for (let i = 0; i < this.clients.length; i++) {
      const index = (start + i) % this.clients.length;
      const client = this.clients[index] as RpcClient;
      try {
        const result = await client.call(method, params, options);
        if (index !== this.preferred) {
          this.logger?.warn(
            { daemon: client.name, previous: this.current.name, method },
            'coin daemon failover: switched daemon',
          );
          this.preferred = index;
        }
        return result;
      } catch (error) {
        if (!(error instanceof RpcError) || !error.daemonUnavailable) throw error;
        errors.push(error);
        if (options.signal?.aborted) throw options.signal.reason;
      }
    }
    throw new AllDaemonsFailedError(method, errors);
  }
}
