import { AllDaemonsFailedError, RpcError } from './errors.js';

/**
 * The nodes of one chain, used as one. A call goes to the node that answered last; when it is
 * unreachable, times out, or says it cannot serve (not connected, initial download, warming up), the
 * next one is tried, and the one that answers becomes the preferred node. An error that is the node's
 * real answer (bad parameters, invalid block) is returned at once, not retried elsewhere.
 */
export class Failover<C extends { readonly name: string }> {
  private preferred = 0;

  /** `switched`: told when a call was answered by another node than the preferred one, before it becomes preferred. */
  constructor(
    readonly clients: readonly C[],
    private readonly switched: (client: C, previous: C, method: string) => void,
  ) {}

  /** The node calls go to first. */
  get current(): C {
    return this.clients[this.preferred] as C;
  }

  /** `send` to each node in turn from the preferred one; an aborted `signal` stops the round after a failure. */
  async call<T>(method: string, send: (client: C) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const errors: RpcError[] = [];
    const start = this.preferred;
    for (let i = 0; i < this.clients.length; i++) {
      const index = (start + i) % this.clients.length;
      const client = this.clients[index] as C;
      try {
        const result = await send(client);
        if (index !== this.preferred) {
          this.switched(client, this.current, method);
          this.preferred = index;
        }
        return result;
      } catch (error) {
        if (!(error instanceof RpcError) || !error.daemonUnavailable) throw error;
        errors.push(error);
        if (signal?.aborted) throw signal.reason;
      }
    }
    throw new AllDaemonsFailedError(method, errors);
  }
}
