import { closedConnection } from './closedConnection.js';
import { RpcError } from './errors.js';

export interface RpcCallOptions {
  /** Overrides the client's default timeout for this call (long polls wait minutes). */
  timeoutMs?: number;
  /** Aborts the call; the abort reason is rethrown as is. */
  signal?: AbortSignal;
}

/** Anything that can make a JSON-RPC call: one daemon, or several with failover. */
export interface RpcCaller {
  call(method: string, params?: readonly unknown[], options?: RpcCallOptions): Promise<unknown>;
}

export interface RpcClientOptions {
  /** `http://user:password@host:port/` — credentials become HTTP Basic auth. A wallet path may follow. */
  url: string;
  /** Default per-call timeout; 10 s unless set. */
  timeoutMs?: number;
  /** Injected for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** The JSON-RPC version sent: `1.0` for bitcoin-family daemons (default), `2.0` for CKB. */
  jsonrpc?: '1.0' | '2.0';
  /**
   * Send a call once more when its pooled connection was closed under it (closedConnection.ts). Only
   * for a client whose every call may run twice — never a node wallet's sendmany.
   */
  repeatOnClosedConnection?: boolean;
}

export const DEFAULT_RPC_TIMEOUT_MS = 10_000;

/** A JSON-RPC client for one coin daemon over HTTP POST (1.0 for the bitcoin family, 2.0 for CKB). */
export class RpcClient implements RpcCaller {
  /** The URL without credentials, safe to log. */
  readonly name: string;
  private readonly endpoint: string;
  private readonly authorization: string | undefined;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly jsonrpc: '1.0' | '2.0';
  private readonly repeatOnClosedConnection: boolean;
  private nextId = 1;

  constructor(options: RpcClientOptions) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new TypeError(`daemon URL is not a URL: ${redact(options.url)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`daemon URL must be http(s): ${redact(options.url)}`);
    }
    if (url.username !== '' || url.password !== '') {
      const user = decodeURIComponent(url.username);
      const password = decodeURIComponent(url.password);
      this.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    this.endpoint = url.toString();
    this.name = this.endpoint;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? fetch;
    this.jsonrpc = options.jsonrpc ?? '1.0';
    this.repeatOnClosedConnection = options.repeatOnClosedConnection ?? false;
  }

  async call(method: string, params: readonly unknown[] = [], options: RpcCallOptions = {}): Promise<unknown> {
    const id = this.nextId++;
    const where = { method, daemon: this.name };
    const timeout = AbortSignal.timeout(options.timeoutMs ?? this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.authorization) headers.authorization = this.authorization;

    let status: number;
    let text: string;
    try {
      const post = () =>
        this.fetchImpl(this.endpoint, {
          method: 'POST',
          headers,
          body: JSON.stringify({ jsonrpc: this.jsonrpc, id, method, params }),
          signal,
        });
      const response = await post().catch((error: unknown) => {
        if (this.repeatOnClosedConnection && !signal.aborted && closedConnection(error)) return post();
        throw error;
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.aborted) {
        throw new RpcError('timeout', `no answer within ${options.timeoutMs ?? this.timeoutMs} ms`, {
          ...where,
          cause: error,
        });
      }
      throw new RpcError('unreachable', describeNetworkError(error), { ...where, cause: error });
    }

    if (status === 401 || status === 403) {
      throw new RpcError('auth', `HTTP ${status}: check rpcuser/rpcpassword and rpcallowip`, { ...where, status });
    }
    let reply: unknown;
    try {
      reply = JSON.parse(text);
    } catch (error) {
      if (status < 200 || status >= 300) {
        throw new RpcError('http', `HTTP ${status}: ${snippet(text)}`, { ...where, status, cause: error });
      }
      throw new RpcError('malformed', `reply is not JSON: ${snippet(text)}`, { ...where, status, cause: error });
    }
    if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) {
      throw new RpcError('malformed', `reply is not a JSON-RPC object: ${snippet(text)}`, { ...where, status });
    }
    const { error, result } = reply as { error?: unknown; result?: unknown; id?: unknown };
    if (error !== undefined && error !== null) {
      const { code, message } = error as { code?: unknown; message?: unknown };
      if (typeof error === 'object' && typeof code === 'number' && typeof message === 'string') {
        throw new RpcError('rpc', `${message} (code ${code})`, { ...where, status, rpcCode: code });
      }
      throw new RpcError('malformed', `unreadable error object: ${snippet(JSON.stringify(error))}`, {
        ...where,
        status,
      });
    }
    if (!('result' in reply)) {
      throw new RpcError('malformed', `reply has neither result nor error: ${snippet(text)}`, { ...where, status });
    }
    if ((reply as { id?: unknown }).id !== id) {
      throw new RpcError('malformed', `reply id ${JSON.stringify((reply as { id?: unknown }).id)} ≠ ${id}`, {
        ...where,
        status,
      });
    }
    if (status < 200 || status >= 300) {
      throw new RpcError('http', `HTTP ${status} with a result: ${snippet(text)}`, { ...where, status });
    }
    return result;
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (cause && typeof cause.code === 'string') return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat || '(empty)';
}

/** A URL with its password replaced, for error messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]*):([^@/]*)@/, '//$1:***@');
}
