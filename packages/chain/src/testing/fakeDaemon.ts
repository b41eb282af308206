import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** A stand-in coin daemon over HTTP for unit tests: each JSON-RPC request goes to a handler. */
export type FakeDaemonHandler = (
  request: { method: string; params: unknown[]; id: unknown; auth?: string },
  res: ServerResponse,
) => void;

const servers: Server[] = [];

/** A stand-in daemon on a local port, answering with `handler`. */
export async function fakeDaemon(
  handler: FakeDaemonHandler,
): Promise<{ url: (credentials?: string) => string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      hits++;
      let parsed: { method: string; params: unknown[]; id: unknown };
      try {
        parsed = JSON.parse(body) as typeof parsed;
      } catch {
        // A request cut short (a client that timed out, a test closing the server mid-send) gets the node's own
        // answer to an unreadable body, as bitcoind gives it, instead of an exception thrown into the test run.
        reply(res, 500, { result: null, error: { code: -32700, message: 'Parse error' }, id: null });
        return;
      }
      handler({ ...parsed, ...(req.headers.authorization && { auth: req.headers.authorization }) }, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: (credentials = '') => `http://${credentials}127.0.0.1:${address.port}/`,
    hits: () => hits,
  };
}

export function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Closes every fake daemon started so far (call it in afterEach). */
export async function closeFakeDaemons(): Promise<void> {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Answers a JSON-RPC request with a result. */
export function ok(res: ServerResponse, id: unknown, result: unknown): void {
  reply(res, 200, { result, error: null, id });
}
