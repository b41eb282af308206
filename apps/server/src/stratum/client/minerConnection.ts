import type { MinerDialect, MinerSearch } from './minerDialect.js';
import { type ClientOptions, type Reply, StratumClient } from './stratumClient.js';

type Share = NonNullable<MinerSearch['share']>;

/** client.reconnect's parameters as cgminer reads them: host, port, seconds to wait; none: where it was. */
function reconnectTarget(params: readonly unknown[]): NonNullable<MinerConnection['reconnectTo']> {
  const [host, port, wait] = params;
  const portNumber = typeof port === 'string' ? Number(port) : port;
  return {
    ...(typeof host === 'string' && host !== '' ? { host } : {}),
    ...(typeof portNumber === 'number' && Number.isInteger(portNumber) && portNumber > 0 && portNumber < 65536
      ? { port: portNumber }
      : {}),
    waitSeconds: typeof wait === 'number' && wait > 0 ? Math.min(wait, 600) : 0,
  };
}

/**
 * A StratumClient driven by a MinerDialect, whatever the algorithm: subscribe with the dialect's
 * parameters, every notification handed to the dialect as it arrives, shares submitted as
 * `[login, jobId, ...params]`. What the demo fleet and the benchmark mine through.
 */
export class MinerConnection {
  private unreadable: { error: unknown } | undefined;
  /**
   * Set when the pool asked the miner to reconnect (client.reconnect): where, or `{}` for the address
   * it used. A miner finishes the share in flight, then leaves.
   */
  reconnectTo: { host?: string; port?: number; waitSeconds: number } | undefined;

  private constructor(
    readonly client: StratumClient,
    readonly miner: MinerDialect,
  ) {
    client.onNotification((message, line) => {
      if (this.unreadable || typeof message.method !== 'string') return;
      if (message.method === 'client.reconnect') {
        this.reconnectTo = reconnectTarget(Array.isArray(message.params) ? message.params : []);
        return;
      }
      try {
        // The raw line too: Kaspa's legacy job carries integers above 2^53 that JSON.parse rounds.
        const params = Array.isArray(message.params) ? message.params : [];
        miner.notification(message.method, params, line);
      } catch (error) {
        // A miner cannot work from a notification it cannot read: give up the connection, loudly.
        this.unreadable = { error };
        client.destroy();
      }
    });
  }

  static async open(options: ClientOptions, miner: MinerDialect): Promise<MinerConnection> {
    return new MinerConnection(await StratumClient.connect(options), miner);
  }

  /** The notification the dialect could not read (the connection was closed for it), if any. */
  get failure(): unknown {
    return this.unreadable?.error;
  }

  async subscribe(agent: string): Promise<void> {
    const reply = await this.client.request('mining.subscribe', this.miner.subscribeParams(agent));
    if (reply.error) throw new Error(`mining.subscribe refused: ${JSON.stringify(reply.error)}`);
    this.miner.subscribed(reply.result);
  }

  async authorize(login: string, password = 'x'): Promise<void> {
    const reply = await this.client.authorize(login, password);
    if (reply.result !== true) throw new Error(`mining.authorize refused: ${JSON.stringify(reply.error)}`);
  }

  /** Waits until the dialect has a job and a target. */
  async ready(timeoutMs: number): Promise<void> {
    const end = performance.now() + timeoutMs;
    while (!this.miner.ready) {
      if (this.unreadable) throw this.unreadable.error;
      if (!this.client.isOpen) throw new Error('connection closed before the first job');
      if (performance.now() > end) throw new Error(`no job and target in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  submit(login: string, share: Share): Promise<Reply> {
    return this.client.request('mining.submit', [login, share.jobId, ...share.params]);
  }

  destroy(): void {
    this.client.destroy();
  }
}
