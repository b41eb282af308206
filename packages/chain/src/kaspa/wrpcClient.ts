import WebSocket from 'ws';
import type { ChainLogger } from '../logger.js';
import { RpcError } from '../rpc/errors.js';
import { parseJsonExact, stringifyJsonExact } from './json.js';

/**
 * A client of kaspad's wRPC JSON encoding (`--rpclisten-json`, port 18110 on mainnet) over one
 * WebSocket. The framing is workflow-rpc's serde_json protocol (workflow-rs/workflow-rs
 * rpc/src/messages.rs, rpc/src/server/protocol/serde_json.rs), with kaspad's method names (the
 * camelCase `RpcApiOps`, rusty-kaspa rpc/core/src/api/ops.rs):
 *
 * - request `{"id": <u64>, "method": "getBlockTemplate", "params": {...}}`;
 * - response `{"id", "method", "params": {...}}`, or `{"id", "method", "error": {"code", "message", "data"}}`;
 * - notification (no id) `{"method": "newBlockTemplateNotification", "params": {"NewBlockTemplate": {}}}`,
 *   after `{"method": "subscribe", "params": {"NewBlockTemplate": {}}}` (notify/src/scope.rs `Scope`).
 *
 * Requests are matched to responses by id, each with a timeout. A dropped connection fails the calls
 * in flight, is re-opened with a growing delay, and the subscriptions are made again; listeners of
 * `onReconnect` hear of it (a job source fetches a fresh template then).
 */
export interface KaspaRpcClientOptions {
  /** `ws://host:18110` (wss:// works too). */
  url: string;
  /** Default per-call timeout; 10 s unless set. */
  timeoutMs?: number;
  /** First delay before re-opening a dropped connection (ms, default 500; doubles up to 10 s). */
  reconnectDelayMs?: number;
  logger?: ChainLogger;
}

export const DEFAULT_KASPA_TIMEOUT_MS = 10_000;
const MAX_RECONNECT_DELAY_MS = 10_000;

interface Pending {
  method: string;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

type NotificationListener = (params: unknown) => void;

export class KaspaRpcClient {
  /** The URL without credentials, safe to log. */
  readonly name: string;
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly reconnectDelayMs: number;
  private readonly logger: ChainLogger | undefined;
  private socket: WebSocket | undefined;
  private opening: Promise<WebSocket> | undefined;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<NotificationListener>>();
  private readonly reconnectListeners = new Set<() => void>();
  /** Scopes subscribed to, made again after a reconnect. */
  private readonly scopes = new Set<string>();
  private nextId = 1;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failedReconnects = 0;

  constructor(options: KaspaRpcClientOptions) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new TypeError(`kaspad URL is not a URL: ${options.url}`);
    }
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
      throw new TypeError(`kaspad wRPC URL must be ws:// or wss:// (the --rpclisten-json port): ${url.origin}`);
    }
    this.url = url.toString();
    url.username = '';
    url.password = '';
    this.name = url.toString();
    this.timeoutMs = options.timeoutMs ?? DEFAULT_KASPA_TIMEOUT_MS;
    this.reconnectDelayMs = options.reconnectDelayMs ?? 500;
    this.logger = options.logger;
  }

  /** True while the WebSocket is open. */
  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Calls a method; resolves with the response's `params`, rejects with an RpcError. */
  async call(method: string, params: unknown = {}, options: { timeoutMs?: number } = {}): Promise<unknown> {
    const socket = await this.open(method);
    const id = this.nextId++;
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(this.error('timeout', method, `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      socket.send(stringifyJsonExact({ id, method, params }), (error) => {
        if (!error) return;
        clearTimeout(timer);
        this.pending.delete(id);
        reject(this.error('unreachable', method, `send failed: ${error.message}`, error));
      });
    });
  }

  /** Subscribes to a notification scope (e.g. `NewBlockTemplate`); made again after every reconnect. */
  async subscribe(scope: string): Promise<void> {
    this.scopes.add(scope);
    await this.call('subscribe', { [scope]: {} });
  }

  /** Listens to a notification by method name (e.g. `newBlockTemplateNotification`). */
  onNotification(method: string, listener: NotificationListener): () => void {
    let set = this.listeners.get(method);
    if (!set) {
      set = new Set();
      this.listeners.set(method, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Called after a dropped connection was opened again and its subscriptions made again. */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /** Closes the connection for good; calls in flight fail. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const socket = this.socket;
    this.socket = undefined;
    this.failPending('connection closed by the pool');
    if (socket && socket.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close();
      });
    }
  }

  private error(
    kind: 'timeout' | 'unreachable' | 'malformed' | 'rpc',
    method: string,
    message: string,
    cause?: unknown,
  ) {
    return new RpcError(kind, message, { method, daemon: this.name, ...(cause !== undefined && { cause }) });
  }

  /** The open socket, opening it first when needed. */
  private open(method: string): Promise<WebSocket> {
    if (this.closed) return Promise.reject(this.error('unreachable', method, 'client closed'));
    if (this.socket?.readyState === WebSocket.OPEN) return Promise.resolve(this.socket);
    if (!this.opening) {
      this.opening = this.connect().finally(() => {
        this.opening = undefined;
      });
    }
    return this.opening.catch((error: unknown) => {
      throw this.error('unreachable', method, describe(error), error);
    });
  }

  private connect(): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url, { handshakeTimeout: this.timeoutMs, maxPayload: 64 * 1024 * 1024 });
      const onError = (error: Error) => {
        socket.removeAllListeners();
        socket.on('error', () => undefined);
        socket.terminate();
        reject(error);
      };
      socket.once('error', onError);
      socket.once('open', () => {
        socket.off('error', onError);
        this.socket = socket;
        this.failedReconnects = 0;
        socket.on('message', (data, isBinary) => this.receive(data, isBinary));
        socket.on('error', (error) => this.logger?.warn({ kaspad: this.name, err: error }, 'kaspad WebSocket error'));
        socket.once('close', () => this.dropped(socket));
        resolve(socket);
      });
    });
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    if (isBinary) {
      this.logger?.warn(
        { kaspad: this.name },
        'kaspad sent a binary frame: is this the Borsh port (--rpclisten-borsh)?',
      );
      return;
    }
    const text = data.toString();
    let message: unknown;
    try {
      message = parseJsonExact(text);
    } catch {
      this.logger?.warn({ kaspad: this.name, text: snippet(text) }, 'kaspad sent a frame that is not JSON');
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.logger?.warn({ kaspad: this.name, text: snippet(text) }, 'kaspad sent a frame that is not an object');
      return;
    }
    const { id, method, params, error } = message as Record<string, unknown>;
    if (id === undefined || id === null) {
      if (typeof method !== 'string') return;
      for (const listener of this.listeners.get(method) ?? []) {
        try {
          listener(params);
        } catch (failure) {
          this.logger?.error({ kaspad: this.name, method, err: failure }, 'a kaspad notification listener failed');
        }
      }
      return;
    }
    const call = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!call) {
      this.logger?.warn({ kaspad: this.name, id: String(id) }, 'kaspad answered a request the pool did not make');
      return;
    }
    this.pending.delete(id as number);
    clearTimeout(call.timer);
    if (error !== undefined && error !== null) {
      const { message: reason } = (typeof error === 'object' ? error : {}) as { message?: unknown };
      if (typeof reason === 'string') call.reject(this.error('rpc', call.method, reason));
      else call.reject(this.error('malformed', call.method, `unreadable error: ${snippet(text)}`));
    } else if (params === undefined) {
      call.reject(this.error('malformed', call.method, `response has neither params nor error: ${snippet(text)}`));
    } else {
      call.resolve(params);
    }
  }

  private failPending(reason: string): void {
    for (const [id, call] of this.pending) {
      clearTimeout(call.timer);
      call.reject(this.error('unreachable', call.method, reason));
      this.pending.delete(id);
    }
  }

  private dropped(socket: WebSocket): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    this.failPending('connection lost');
    if (this.closed) return;
    this.logger?.warn({ kaspad: this.name }, 'kaspad connection lost; reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const delay = Math.min(this.reconnectDelayMs * 2 ** this.failedReconnects, MAX_RECONNECT_DELAY_MS);
    this.reconnectTimer = setTimeout(() => void this.reconnect(), delay);
    this.reconnectTimer.unref();
  }

  private async reconnect(): Promise<void> {
    if (this.closed) return;
    try {
      await this.open('reconnect');
      for (const scope of this.scopes) await this.call('subscribe', { [scope]: {} });
      this.logger?.info({ kaspad: this.name }, 'kaspad connection restored');
      for (const listener of this.reconnectListeners) listener();
    } catch (error) {
      if (this.closed) return;
      this.failedReconnects++;
      if (this.failedReconnects === 1 || this.failedReconnects % 10 === 0) {
        this.logger?.warn(
          { kaspad: this.name, err: error, attempts: this.failedReconnects },
          'kaspad reconnect failed',
        );
      }
      // Open but not subscribed: drop it, so that the next attempt subscribes again.
      if (this.connected) this.socket?.terminate();
      else this.scheduleReconnect();
    }
  }
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code} (${message})` : message;
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat || '(empty)';
}
