import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a server the tests cannot stop themselves (the machine's PostgreSQL), so a
 * test can take it away as a restart or an outage looks to its clients: `down()` ends every open
 * connection and refuses new ones; `up()` accepts again on the same port.
 */
export class TcpProxy {
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  #port = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Listens on a port the system picks (127.0.0.1) and relays to `target`. */
  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetHost, targetPort);
    await proxy.up();
    return proxy;
  }

  get port(): number {
    return this.#port;
  }

  get isUp(): boolean {
    return this.#server !== undefined;
  }

  /** Accepts connections again, on the same port as before. */
  async up(): Promise<void> {
    if (this.#server) return;
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address && typeof address === 'object') this.#port = address.port;
    this.#server = server;
  }

  /** Ends every connection at once and refuses new ones until `up()`. */
  async down(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
