/**
 * A client for one chainweb-node's mining API and the header calls block status needs (chainweb-node
 * src/Chainweb/Miner/RestAPI.hs and RestAPI/Server.hs, BlockHeaderDB/RestAPI.hs, CutDB/RestAPI.hs,
 * RestAPI/NodeInfo.hs), over node:http — the work and updates calls are GETs with a body, which fetch
 * refuses to send.
 *
 *   GET  /info                                              node version name and chains (JSON)
 *   GET  /chainweb/0.0/{v}/mining/work[?chain=c]            JSON miner body → 322 bytes
 *   POST /chainweb/0.0/{v}/mining/solved                    286 bytes → 204/200, or 400/404 text
 *   GET  /chainweb/0.0/{v}/mining/updates                   4-byte chain id body → text/event-stream
 *   GET  /chainweb/0.0/{v}/cut                              the node's cut (JSON)
 *   GET  /chainweb/0.0/{v}/chain/{c}/header/{hash}          one header (octet-stream: 318 bytes)
 *   POST /chainweb/0.0/{v}/chain/{c}/header/branch          headers on the branch below `upper` (JSON page)
 *
 * Errors are plain text (Chainweb/RestAPI/Utils.hs `setErrText`): 403 "Unauthorized Miner: <account>"
 * when the miner is not in the node's coordination config, 503 "Too many work requests" past the
 * coordination limit, 400 "Invalid solved work: …" / "Decoding error: …" and 404 "No associated Payload"
 * from solved.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { redact } from '../rpc/client.js';
import { base64UrlToHash, type ChainwebVersionName, isChainwebVersionName, KADENA_HEADER_LENGTH } from './header.js';
import { type KadenaWork, parseKadenaWork } from './kadenaJob.js';

/**
 * Why a call to a chainweb node failed:
 * - `unreachable`: no answer (refused, reset, DNS);
 * - `timeout`: no complete answer in time;
 * - `unauthorized-miner`: 403 — the pool's miner (account, keys, predicate) is not in the node's
 *   `chainweb.mining.coordination.miners`, or mining coordination is off;
 * - `rate-limited`: 503 or 429 — too many work requests or update streams; retry later;
 * - `refused`: 400 from solved — the node rejected the solution (its reason in the message);
 * - `not-found`: 404 — solved work whose payload the node no longer knows, an unknown header;
 * - `http`: any other status;
 * - `malformed`: an answer without the shape chainweb gives.
 */
export type ChainwebErrorKind =
  | 'unreachable'
  | 'timeout'
  | 'unauthorized-miner'
  | 'rate-limited'
  | 'refused'
  | 'not-found'
  | 'http'
  | 'malformed';

export class ChainwebError extends Error {
  override readonly name = 'ChainwebError';
  constructor(
    readonly kind: ChainwebErrorKind,
    message: string,
    readonly details: { node: string; call: string; status?: number; body?: string; cause?: unknown },
  ) {
    super(`${details.node} ${details.call}: ${message}`, { cause: details.cause });
  }

  /** True when another node, or the same one later, may well succeed. */
  get nodeUnavailable(): boolean {
    return this.kind === 'unreachable' || this.kind === 'timeout' || this.kind === 'rate-limited' || this.isServerError;
  }

  private get isServerError(): boolean {
    return this.kind === 'http' && (this.details.status ?? 0) >= 500;
  }
}

/** The pool's miner as the node knows it; the account is the coinbase payee of every block. */
export interface KadenaMiner {
  /** e.g. `k:<64-hex public key>`. */
  account: string;
  publicKeys: readonly string[];
  /** Pact keyset predicate; `keys-all` unless set. */
  predicate?: string;
}

/** The JSON miner body of a work request (Chainweb/Miner/Pact.hs `Miner` encoding). */
export function minerBody(miner: KadenaMiner): string {
  return JSON.stringify({
    account: miner.account,
    predicate: miner.predicate ?? 'keys-all',
    'public-keys': [...miner.publicKeys],
  });
}

export interface NodeInfo {
  nodeVersion: ChainwebVersionName;
  nodeChains: number[];
  nodePackageVersion: string | undefined;
}

/** One chain's entry of a cut: its head. */
export interface CutEntry {
  height: number;
  hash: string;
}

export type UpdateEvent = 'New Cut' | 'Refreshed Block';

export interface ChainwebClientOptions {
  /** `http(s)://host:port` of the node's service API (1848 by default on chainweb-node). */
  url: string;
  /** Per-call timeout (ms, default 10 000). */
  timeoutMs?: number;
  /** The version path segment; read from /info by `info()` when not given. */
  version?: ChainwebVersionName;
}

interface Reply {
  status: number;
  contentType: string;
  body: Buffer;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export class ChainwebClient {
  /** The node URL without credentials, safe to log. */
  readonly name: string;
  private readonly base: URL;
  /** A path prefix of the node URL (behind a proxy), without its final slash. */
  private readonly basePath: string;
  private readonly timeoutMs: number;
  private versionName: ChainwebVersionName | undefined;

  constructor(options: ChainwebClientOptions) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new TypeError(`chainweb node URL is not a URL: ${redact(options.url)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`chainweb node URL must be http(s): ${redact(options.url)}`);
    }
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.base = url;
    this.name = redact(url.toString()).replace(/\/$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.versionName = options.version;
  }

  /** The chainweb version, when known (from options or the last /info). */
  get knownVersion(): ChainwebVersionName | undefined {
    return this.versionName;
  }

  /** The chainweb version (from options or the last /info). */
  get version(): ChainwebVersionName {
    if (this.versionName === undefined) throw new Error(`${this.name}: chainweb version unknown before info()`);
    return this.versionName;
  }

  /** GET /info: the node's chainweb version and current chains; remembers the version. */
  async info(): Promise<NodeInfo> {
    const call = 'GET /info';
    const reply = await this.send('GET', '/info', call);
    this.expectOk(reply, call);
    const json = this.json(reply, call) as Record<string, unknown>;
    const version = json.nodeVersion;
    if (typeof version !== 'string') this.malformed(call, 'nodeVersion is not a string');
    if (!isChainwebVersionName(version)) this.malformed(call, `chainweb version ${version} is not one this pool knows`);
    if (this.versionName !== undefined && this.versionName !== version) {
      this.malformed(call, `the node runs ${version}, not the configured ${this.versionName}`);
    }
    const chains = json.nodeChains;
    if (!Array.isArray(chains) || chains.length === 0) this.malformed(call, 'nodeChains is not a list of chains');
    const nodeChains = chains.map((c) => {
      const id = typeof c === 'string' && /^\d{1,3}$/.test(c) ? Number(c) : typeof c === 'number' ? c : Number.NaN;
      if (!Number.isInteger(id) || id < 0) this.malformed(call, `chain ${JSON.stringify(c)} is not a chain id`);
      return id;
    });
    this.versionName = version;
    const packageVersion = typeof json.nodePackageVersion === 'string' ? json.nodePackageVersion : undefined;
    return { nodeVersion: version, nodeChains: nodeChains.sort((a, b) => a - b), nodePackageVersion: packageVersion };
  }

  /**
   * GET mining/work: new work for `miner`, on `chainId` when the node can extend that chain — otherwise
   * the node picks another chain (Coordinator.hs `newWork`), so the reply's chain id is what counts.
   */
  async work(miner: KadenaMiner, chainId?: number): Promise<KadenaWork> {
    const query = chainId === undefined ? '' : `?chain=${chainId}`;
    const call = `GET mining/work${query}`;
    const reply = await this.send('GET', `${this.apiPath('mining/work')}${query}`, call, {
      body: Buffer.from(minerBody(miner)),
      contentType: 'application/json',
    });
    if (reply.status === 403) {
      throw new ChainwebError(
        'unauthorized-miner',
        `${text(reply)} — the node does not coordinate mining for account ${miner.account}: list it (with the same ` +
          'public keys and predicate) under chainweb.mining.coordination.miners and enable coordination',
        { node: this.name, call, status: 403, body: text(reply) },
      );
    }
    this.expectOk(reply, call);
    try {
      return parseKadenaWork(reply.body);
    } catch (error) {
      this.malformed(call, (error as Error).message);
    }
  }

  /** POST mining/solved with the 286 solved bytes. Resolves when the node took it; throws its refusal. */
  async solved(work: Uint8Array): Promise<void> {
    const call = 'POST mining/solved';
    const reply = await this.send('POST', this.apiPath('mining/solved'), call, {
      body: Buffer.from(work),
      contentType: 'application/octet-stream',
    });
    if (reply.status === 400) {
      throw new ChainwebError('refused', text(reply), { node: this.name, call, status: 400, body: text(reply) });
    }
    this.expectOk(reply, call);
  }

  /**
   * GET mining/updates for one chain: yields each event until the node closes the stream (it does after
   * its updateStreamTimeout, 240 s ± 10 % by default) or `signal` aborts. "New Cut": the chain's work is
   * outdated; "Refreshed Block": newer work (more transactions) exists, the old is still valid.
   */
  async *updates(chainId: number, signal?: AbortSignal): AsyncGenerator<UpdateEvent> {
    const call = `GET mining/updates (chain ${chainId})`;
    const body = Buffer.alloc(4);
    body.writeUInt32LE(chainId);
    const response = await this.open('GET', this.apiPath('mining/updates'), call, {
      body,
      contentType: 'application/octet-stream',
      accept: 'text/event-stream',
      ...(signal && { signal }),
    });
    if (response.statusCode !== 200) {
      const reply = await readReply(response);
      this.expectOk(reply, call);
    }
    let event: string | undefined;
    let buffered = '';
    try {
      for await (const chunk of response) {
        buffered += (chunk as Buffer).toString('utf8');
        let newline = buffered.indexOf('\n');
        while (newline !== -1) {
          const line = buffered.slice(0, newline).replace(/\r$/, '');
          buffered = buffered.slice(newline + 1);
          newline = buffered.indexOf('\n');
          if (line === '') {
            if (event === 'New Cut' || event === 'Refreshed Block') yield event;
            event = undefined;
          } else if (line.startsWith('event:')) {
            event = line.slice(6).replace(/^ /, '');
          }
        }
      }
    } catch (error) {
      if (signal?.aborted) return;
      throw new ChainwebError('unreachable', `update stream broke: ${(error as Error).message}`, {
        node: this.name,
        call,
        cause: error,
      });
    } finally {
      response.destroy();
    }
  }

  /** GET cut: the head (height, hash) of every chain. */
  async cut(): Promise<Map<number, CutEntry>> {
    const call = 'GET cut';
    const reply = await this.send('GET', this.apiPath('cut'), call);
    this.expectOk(reply, call);
    const json = this.json(reply, call) as { hashes?: unknown };
    if (typeof json.hashes !== 'object' || json.hashes === null) this.malformed(call, 'hashes is not an object');
    const heads = new Map<number, CutEntry>();
    for (const [chain, value] of Object.entries(json.hashes as Record<string, unknown>)) {
      const entry = value as { height?: unknown; hash?: unknown };
      if (!/^\d+$/.test(chain) || !Number.isSafeInteger(entry?.height) || typeof entry?.hash !== 'string') {
        this.malformed(call, `chain ${chain}: not {height, hash}`);
      }
      heads.set(Number(chain), { height: entry.height as number, hash: entry.hash });
    }
    return heads;
  }

  /** GET chain/{c}/header/{hash}: the 318-byte header, or undefined when the node does not know it. */
  async header(chainId: number, hash: string): Promise<Buffer | undefined> {
    base64UrlToHash(hash);
    const call = `GET chain/${chainId}/header/${hash}`;
    const reply = await this.send('GET', this.apiPath(`chain/${chainId}/header/${hash}`), call, {
      accept: 'application/octet-stream',
    });
    if (reply.status === 404) return undefined;
    this.expectOk(reply, call);
    if (reply.body.length !== KADENA_HEADER_LENGTH) {
      this.malformed(call, `a header is ${KADENA_HEADER_LENGTH} bytes, got ${reply.body.length}`);
    }
    return reply.body;
  }

  /**
   * POST chain/{c}/header/branch: the headers between minheight and maxheight on the branch that ends at
   * `upper` (e.g. the cut's head): exactly the blocks of the chain as this node sees it. 318 bytes each.
   */
  async branchHeaders(chainId: number, upper: string, minHeight: number, maxHeight: number): Promise<Buffer[]> {
    const call = `POST chain/${chainId}/header/branch`;
    const path = `${this.apiPath(`chain/${chainId}/header/branch`)}?minheight=${minHeight}&maxheight=${maxHeight}`;
    const reply = await this.send('POST', path, call, {
      body: Buffer.from(JSON.stringify({ lower: [], upper: [upper] })),
      contentType: 'application/json',
    });
    this.expectOk(reply, call);
    const page = this.json(reply, call) as { items?: unknown };
    if (!Array.isArray(page.items)) this.malformed(call, 'items is not a list');
    return page.items.map((item) => {
      const bytes = typeof item === 'string' ? Buffer.from(item, 'base64url') : undefined;
      if (bytes?.length !== KADENA_HEADER_LENGTH) this.malformed(call, 'an item is not a base64url header');
      return bytes;
    });
  }

  private apiPath(suffix: string): string {
    return `/chainweb/0.0/${this.version}/${suffix}`;
  }

  private expectOk(reply: Reply, call: string): void {
    if (reply.status >= 200 && reply.status < 300) return;
    const details = { node: this.name, call, status: reply.status, body: text(reply) };
    if (reply.status === 503 || reply.status === 429) {
      throw new ChainwebError('rate-limited', `${reply.status} ${text(reply)}`, details);
    }
    if (reply.status === 403) throw new ChainwebError('unauthorized-miner', `403 ${text(reply)}`, details);
    if (reply.status === 404) throw new ChainwebError('not-found', `404 ${text(reply)}`, details);
    throw new ChainwebError('http', `HTTP ${reply.status} ${text(reply)}`, details);
  }

  private json(reply: Reply, call: string): unknown {
    try {
      return JSON.parse(reply.body.toString('utf8'));
    } catch {
      this.malformed(call, 'the answer is not JSON');
    }
  }

  private malformed(call: string, message: string): never {
    throw new ChainwebError('malformed', message, { node: this.name, call });
  }

  private async send(
    method: 'GET' | 'POST',
    path: string,
    call: string,
    options: { body?: Buffer; contentType?: string; accept?: string } = {},
  ): Promise<Reply> {
    const response = await this.open(method, path, call, options);
    try {
      return await readReply(response);
    } catch (error) {
      throw this.transportError(error, call);
    }
  }

  /** Sends a request and resolves with the response once its headers came (within the timeout). */
  private open(
    method: 'GET' | 'POST',
    path: string,
    call: string,
    options: { body?: Buffer; contentType?: string; accept?: string; signal?: AbortSignal },
  ): Promise<IncomingMessage> {
    const url = new URL(`${this.basePath}${path}`, this.base);
    const headers: Record<string, string> = {};
    if (options.body) {
      headers['content-type'] = options.contentType ?? 'application/octet-stream';
      headers['content-length'] = String(options.body.length);
    }
    if (options.accept) headers.accept = options.accept;
    if (url.username !== '' || url.password !== '') {
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(url, { method, headers, ...(options.signal && { signal: options.signal }) });
      const timer = setTimeout(() => {
        req.destroy(new ChainwebError('timeout', `no answer within ${this.timeoutMs} ms`, { node: this.name, call }));
      }, this.timeoutMs);
      req.on('response', (response) => {
        clearTimeout(timer);
        resolve(response);
      });
      req.on('error', (error) => {
        clearTimeout(timer);
        reject(options.signal?.aborted ? options.signal.reason : this.transportError(error, call));
      });
      req.end(options.body);
    });
  }

  private transportError(error: unknown, call: string): ChainwebError {
    if (error instanceof ChainwebError) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new ChainwebError('unreachable', message, { node: this.name, call, cause: error });
  }
}

async function readReply(response: IncomingMessage): Promise<Reply> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      response.destroy();
      throw new Error(`answer larger than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return {
    status: response.statusCode ?? 0,
    contentType: response.headers['content-type'] ?? '',
    body: Buffer.concat(chunks),
  };
}

function text(reply: Reply): string {
  return reply.body.toString('utf8').slice(0, 500).trim();
}
