import net from 'node:net';
import tls from 'node:tls';
import { LineFramer } from '../protocol.js';
import { hex32, type NotifyJob, parseNotify } from './work.js';

/** A message from the server: an answer to one of our requests, or a notification. */
export interface ServerMessage {
  id: number | string | null;
  method?: string;
  params?: unknown[];
  result?: unknown;
  /** [code, message, data] or null. */
  error?: unknown;
}

export interface Reply {
  id: number | string | null;
  result: unknown;
  error: [number, string, unknown] | null;
}

export interface ClientOptions {
  host: string;
  port: number;
  /** Connect with TLS; the test certificates are self-signed, so verification is off unless given. */
  tls?: boolean | tls.ConnectionOptions;
  /** Default timeout of requests and waits. */
  timeoutMs?: number;
  /**
   * Keep received messages for `next` and `notifications` (default true, for tests). Long-running
   * users (the fleet, the benchmark) turn it off so memory stays flat.
   */
  inbox?: boolean;
  /** The local address to connect from (load tests spread sessions over 127.0.0.x). */
  localAddress?: string;
}

export interface ShareParams {
  worker: string;
  jobId: string;
  extranonce2: string;
  ntime: number | string;
  nonce: number | string;
  versionBits?: number | string;
}

function toError(value: unknown): Reply['error'] {
  if (!Array.isArray(value)) return null;
  const [code, message, data] = value;
  return [Number(code), String(message), data];
}

/**
 * Our stratum V1 client, for tests, the benchmark and the demo fleet. It keeps every message it
 * receives in an inbox that tests consume in order (`next`), and tracks the session state a miner
 * needs: extranonce1/extranonce2 size, difficulty, version mask and the latest job.
 */
export class StratumClient {
  extranonce1 = '';
  extranonce2Size = 0;
  difficulty: number | undefined;
  versionMask = 0;
  job: NotifyJob | undefined;
  /** Every notification received, in order. */
  readonly notifications: ServerMessage[] = [];

  private nextId = 1;
  private readonly pending = new Map<number, { resolve(reply: Reply): void; reject(error: Error): void }>();
  private readonly inbox: ServerMessage[] = [];
  private readonly waiters: { match(m: ServerMessage): boolean; resolve(m: ServerMessage): void }[] = [];
  private readonly notifyListeners = new Set<(message: ServerMessage, line: string) => void>();
  private readonly framer = new LineFramer(1024 * 1024);
  private isClosed = false;
  readonly closed: Promise<void>;

  private constructor(
    private readonly socket: net.Socket,
    private readonly timeoutMs: number,
    private readonly keepInbox: boolean,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      for (const item of this.framer.push(chunk)) if (item.kind === 'line') this.receive(item.line);
    });
    socket.on('error', () => {
      // The close event that follows settles everything waiting; the error itself has no listener.
    });
    this.closed = new Promise((resolve) => {
      socket.once('close', () => {
        this.isClosed = true;
        for (const { reject } of this.pending.values()) reject(new Error('connection closed'));
        this.pending.clear();
        resolve();
      });
    });
  }

  static connect(options: ClientOptions): Promise<StratumClient> {
    const timeoutMs = options.timeoutMs ?? 10_000;
    return new Promise((resolve, reject) => {
      const socket = options.tls
        ? tls.connect({
            host: options.host,
            port: options.port,
            rejectUnauthorized: false,
            ...(typeof options.tls === 'object' ? options.tls : {}),
          })
        : net.connect({
            host: options.host,
            port: options.port,
            ...(options.localAddress ? { localAddress: options.localAddress } : {}),
          });
      const event = options.tls ? 'secureConnect' : 'connect';
      socket.once(event, () => {
        socket.off('error', reject);
        resolve(new StratumClient(socket, timeoutMs, options.inbox ?? true));
      });
      socket.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return !this.isClosed;
  }

  /** Writes raw text (tests: malformed lines, several lines in one chunk, split lines). */
  send(text: string): void {
    this.socket.write(text);
  }

  request(method: string, params: unknown[]): Promise<Reply> {
    const id = this.nextId++;
    const reply = new Promise<Reply>((resolve, reject) => {
      if (this.isClosed) {
        reject(new Error('connection closed'));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method}: no answer in ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
    this.socket.write(`${JSON.stringify({ id, method, params })}\n`);
    return reply;
  }

  async subscribe(userAgent = 'lodestone-client/1.0'): Promise<Reply> {
    const reply = await this.request('mining.subscribe', [userAgent]);
    if (Array.isArray(reply.result)) {
      const [, extranonce1, size] = reply.result;
      if (typeof extranonce1 === 'string') this.extranonce1 = extranonce1;
      if (typeof size === 'number') this.extranonce2Size = size;
    }
    return reply;
  }

  async configure(mask = '1fffe000', minBitCount = 2): Promise<Reply> {
    const reply = await this.request('mining.configure', [
      ['version-rolling'],
      { 'version-rolling.mask': mask, 'version-rolling.min-bit-count': minBitCount },
    ]);
    const result = reply.result as Record<string, unknown> | null;
    if (result?.['version-rolling'] === true && typeof result['version-rolling.mask'] === 'string') {
      this.versionMask = Number.parseInt(result['version-rolling.mask'], 16);
    }
    return reply;
  }

  authorize(login: string, password = 'x'): Promise<Reply> {
    return this.request('mining.authorize', [login, password]);
  }

  submit(share: ShareParams): Promise<Reply> {
    const hex = (v: number | string) => (typeof v === 'number' ? hex32(v) : v);
    const params = [share.worker, share.jobId, share.extranonce2, hex(share.ntime), hex(share.nonce)];
    if (share.versionBits !== undefined) params.push(hex(share.versionBits));
    return this.request('mining.submit', params);
  }

  /** Resolves with the first received message (oldest first) that matches, consuming it. */
  next(match: (m: ServerMessage) => boolean = () => true, timeoutMs = this.timeoutMs): Promise<ServerMessage> {
    const index = this.inbox.findIndex(match);
    if (index !== -1) return Promise.resolve(this.inbox.splice(index, 1)[0] as ServerMessage);
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        resolve: (m: ServerMessage) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no matching message in ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** The next mining.notify (optionally one matching), as a job. */
  async nextJob(match: (job: NotifyJob) => boolean = () => true, timeoutMs = this.timeoutMs): Promise<NotifyJob> {
    const isJob = (m: ServerMessage) => {
      if (m.method !== 'mining.notify') return false;
      try {
        return match(parseNotify(m.params));
      } catch {
        return false;
      }
    };
    const message = await this.next(isJob, timeoutMs);
    return parseNotify(message.params);
  }

  /**
   * Called for every notification as it arrives (the fleet reacts to new jobs this way), with the line
   * as received: a miner dialect reads what JSON.parse would round (Kaspa's legacy job integers).
   */
  onNotification(listener: (message: ServerMessage, line: string) => void): () => void {
    this.notifyListeners.add(listener);
    return () => this.notifyListeners.delete(listener);
  }

  close(): Promise<void> {
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 1000).unref();
    return this.closed;
  }

  destroy(): void {
    this.socket.destroy();
  }

  private receive(line: string): void {
    let message: ServerMessage;
    try {
      message = JSON.parse(line) as ServerMessage;
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    if (typeof message.method === 'string') {
      this.track(message);
      if (this.keepInbox) this.notifications.push(message);
      for (const listener of this.notifyListeners) listener(message, line);
    } else if (typeof message.id === 'number' && this.pending.has(message.id)) {
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      waiter?.resolve({ id: message.id, result: message.result ?? null, error: toError(message.error) });
    }
    const index = this.waiters.findIndex((w) => w.match(message));
    if (index !== -1) this.waiters.splice(index, 1)[0]?.resolve(message);
    else if (this.keepInbox) this.inbox.push(message);
  }

  private track(message: ServerMessage): void {
    const params = message.params ?? [];
    if (message.method === 'mining.set_difficulty' && typeof params[0] === 'number') this.difficulty = params[0];
    else if (message.method === 'mining.notify') {
      try {
        this.job = parseNotify(params);
      } catch {
        // A malformed job is ignored; the miner keeps working on the previous one.
      }
    } else if (message.method === 'mining.set_extranonce') {
      if (typeof params[0] === 'string') this.extranonce1 = params[0];
      if (typeof params[1] === 'number') this.extranonce2Size = params[1];
    }
  }
}
