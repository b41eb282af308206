import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeDaemons, fakeDaemon, reply } from '../testing/fakeDaemon.js';
import { freePorts } from '../testing/regtest.js';
import { BitcoinRpc } from './bitcoinRpc.js';
import { RpcClient } from './client.js';
import { DaemonPool } from './daemonPool.js';
import { AllDaemonsFailedError, RpcError } from './errors.js';

afterEach(closeFakeDaemons);

async function rpcError(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

describe('RpcClient', () => {
  it('sends a call again when its pooled connection was closed under it, only when told every call may repeat', async () => {
    const calls: string[] = [];
    const closedThenAnswer: typeof fetch = async (_url, init) => {
      calls.push(String(init?.body));
      if (calls.length === 1) {
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
        });
      }
      const { id } = JSON.parse(String(init?.body)) as { id: number };
      return new Response(JSON.stringify({ jsonrpc: '2.0', id, result: '0x1' }), { status: 200 });
    };
    const repeating = new RpcClient({
      url: 'http://127.0.0.1:1/',
      jsonrpc: '2.0',
      fetch: closedThenAnswer,
      repeatOnClosedConnection: true,
    });
    expect(await repeating.call('get_tip_block_number')).toBe('0x1');
    expect(calls).toHaveLength(2);
    expect(calls[1]).toBe(calls[0]);

    calls.length = 0;
    const once = new RpcClient({ url: 'http://127.0.0.1:1/', fetch: closedThenAnswer });
    expect((await rpcError(once.call('sendmany'))).kind).toBe('unreachable');
    expect(calls).toHaveLength(1);
  });

  it('sends JSON-RPC with Basic auth from the URL and keeps the password out of its name', async () => {
    let seen: { method: string; params: unknown[]; auth?: string } | undefined;
    const daemon = await fakeDaemon((request, res) => {
      seen = request;
      reply(res, 200, { result: 431, error: null, id: request.id });
    });
    const client = new RpcClient({ url: daemon.url('pool:p%40ss@') });
    expect(await client.call('getblockcount')).toBe(431);
    expect(seen?.method).toBe('getblockcount');
    expect(seen?.params).toEqual([]);
    expect(seen?.auth).toBe(`Basic ${Buffer.from('pool:p@ss').toString('base64')}`);
    expect(client.name).toBe(daemon.url());
  });

  it('turns a JSON-RPC error (HTTP 500 body, as bitcoind sends it) into an RpcError with the code', async () => {
    const daemon = await fakeDaemon((request, res) =>
      reply(res, 500, { result: null, error: { code: -8, message: 'Block height out of range' }, id: request.id }),
    );
    const error = await rpcError(new RpcClient({ url: daemon.url() }).call('getblockhash', [99]));
    expect(error).toMatchObject({ kind: 'rpc', rpcCode: -8, method: 'getblockhash', status: 500 });
    expect(error.message).toContain('Block height out of range');
    expect(error.daemonUnavailable).toBe(false);
  });

  it('calls malformed replies malformed instead of crashing', async () => {
    const answers = ['this is not json', '[1,2]', '{"id":1}', '{"result":1,"error":null,"id":999}'];
    const daemon = await fakeDaemon((_request, res) => reply(res, 200, answers.shift() ?? ''));
    const client = new RpcClient({ url: daemon.url() });
    for (const pattern of [/not JSON/, /not a JSON-RPC object/, /neither result nor error/, /reply id/]) {
      const error = await rpcError(client.call('getblockcount'));
      expect(error.kind).toBe('malformed');
      expect(error.message).toMatch(pattern);
    }
  });

  it('reports HTTP failures without a JSON body, and refused credentials', async () => {
    const statuses = [502, 401];
    const daemon = await fakeDaemon((_request, res) => {
      const status = statuses.shift() ?? 500;
      res.writeHead(status, { 'content-type': 'text/html' });
      res.end(status === 401 ? '' : '<html>Bad Gateway</html>');
    });
    const client = new RpcClient({ url: daemon.url() });
    expect(await rpcError(client.call('getblockcount'))).toMatchObject({ kind: 'http', status: 502 });
    expect(await rpcError(client.call('getblockcount'))).toMatchObject({ kind: 'auth', status: 401 });
  });

  it('times out, and tells a refused connection apart', async () => {
    const daemon = await fakeDaemon(() => {
      // never answers
    });
    const slow = await rpcError(new RpcClient({ url: daemon.url(), timeoutMs: 100 }).call('getblocktemplate'));
    expect(slow.kind).toBe('timeout');
    const [port] = await freePorts(1);
    const refused = await rpcError(new RpcClient({ url: `http://127.0.0.1:${port}/` }).call('getblockcount'));
    expect(refused.kind).toBe('unreachable');
    expect(refused.message).toContain('ECONNREFUSED');
  });

  it("rethrows the caller's abort reason", async () => {
    const daemon = await fakeDaemon(() => {
      // never answers
    });
    const abort = new AbortController();
    const call = new RpcClient({ url: daemon.url() }).call('getblocktemplate', [], { signal: abort.signal });
    const reason = new Error('stopping');
    abort.abort(reason);
    await expect(call).rejects.toBe(reason);
  });

  it('refuses URLs it cannot use', () => {
    expect(() => new RpcClient({ url: 'ftp://x' })).toThrow(/http/);
    expect(() => new RpcClient({ url: 'not a url:secret' })).toThrow(/not a URL/);
  });
});

describe('DaemonPool failover', () => {
  it('moves on from a dead or warming-up daemon and remembers the one that answered', async () => {
    const [deadPort] = await freePorts(1);
    const warming = await fakeDaemon((request, res) =>
      reply(res, 500, { result: null, error: { code: -28, message: 'Loading block index…' }, id: request.id }),
    );
    const healthy = await fakeDaemon((request, res) => reply(res, 200, { result: 7, error: null, id: request.id }));
    const pool = new DaemonPool([`http://127.0.0.1:${deadPort}/`, warming.url(), healthy.url()]);
    expect(await pool.call('getblockcount')).toBe(7);
    expect(pool.current.name).toBe(healthy.url());
    expect(await pool.call('getblockcount')).toBe(7);
    expect(warming.hits()).toBe(1); // the second call went straight to the healthy daemon
    expect(healthy.hits()).toBe(2);
  });

  it('does not retry elsewhere when a daemon gives a real answer', async () => {
    const first = await fakeDaemon((request, res) =>
      reply(res, 500, { result: null, error: { code: -22, message: 'Block decode failed' }, id: request.id }),
    );
    const second = await fakeDaemon((request, res) => reply(res, 200, { result: null, error: null, id: request.id }));
    const pool = new DaemonPool([first.url(), second.url()]);
    expect(await rpcError(pool.call('submitblock', ['00']))).toMatchObject({ kind: 'rpc', rpcCode: -22 });
    expect(second.hits()).toBe(0);
  });

  it('says which daemons failed when none answers', async () => {
    const ports = await freePorts(2);
    const pool = new DaemonPool(ports.map((p) => `http://127.0.0.1:${p}/`));
    const error = await pool.call('getblockcount').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AllDaemonsFailedError);
    expect((error as AllDaemonsFailedError).errors).toHaveLength(2);
  });

  it('checks the shape of typed results', async () => {
    const daemon = await fakeDaemon((request, res) => reply(res, 200, { result: 'many', error: null, id: request.id }));
    const rpc = new BitcoinRpc(new RpcClient({ url: daemon.url() }));
    expect(await rpcError(rpc.getBlockCount())).toMatchObject({ kind: 'malformed', method: 'getblockcount' });
  });
});
