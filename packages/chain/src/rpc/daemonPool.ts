import type { ChainLogger } from '../logger.js';
import { type RpcCaller, type RpcCallOptions, RpcClient, type RpcClientOptions } from './client.js';
import { Failover } from './failover.js';

/** The daemons of one coin, used as one (see Failover). */
export class DaemonPool implements RpcCaller {
  private readonly nodes: Failover<RpcClient>;

  constructor(daemons: readonly (string | RpcClient | RpcClientOptions)[], options: { logger?: ChainLogger } = {}) {
    if (daemons.length === 0) throw new RangeError('at least one daemon is needed');
    const clients = daemons.map((d) =>
      d instanceof RpcClient ? d : new RpcClient(typeof d === 'string' ? { url: d } : d),
    );
    this.nodes = new Failover(clients, (client, previous, method) =>
      options.logger?.warn(
        { daemon: client.name, previous: previous.name, method },
        'coin daemon failover: switched daemon',
      ),
    );
  }

  get clients(): readonly RpcClient[] {
    return this.nodes.clients;
  }

  /** The daemon calls go to first. */
  get current(): RpcClient {
    return this.nodes.current;
  }

  call(method: string, params: readonly unknown[] = [], options: RpcCallOptions = {}): Promise<unknown> {
    return this.nodes.call(method, (client) => client.call(method, params, options), options.signal);
  }
}
