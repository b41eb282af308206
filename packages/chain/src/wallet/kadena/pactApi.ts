import { redact } from '../../rpc/client.js';
import { closedConnection } from '../../rpc/closedConnection.js';
import { quoteFractionalNumbers } from '../amounts.js';
import type { PactCommand } from './pactCommand.js';

/**
 * The calls the Kadena wallet makes on a chainweb node (kadena-io/chainweb-node @5e46fa79):
 *
 *   POST {base}/chainweb/0.0/{network}/chain/{c}/pact/api/v1/send   {"cmds":[cmd]} → {"requestKeys":[rk]}
 *   POST …/pact/api/v1/poll                                          {"requestKeys":[rk]} → {rk: CommandResult}
 *   POST …/pact/api/v1/local                                         cmd → CommandResult        (Pact/RestAPI.hs)
 *   GET  {base}/chainweb/0.0/{network}/cut                           {"hashes":{c:{height,hash}}} (CutDB/RestAPI.hs)
 *   POST {p2p}/chainweb/0.0/{network}/chain/{c}/mempool/member       ["rk"] → [bool]   (Mempool/RestAPI.hs, P2P API)
 *
 * Refusals are HTTP 400 with plain text (Pact/RestAPI/Server.hs `setErrText`). Replies are read with every
 * fractional number turned into a string first, so Pact decimals reach the wallet as their exact text.
 */

/** Why a node call failed: no answer, an HTTP refusal (its text), or an answer of the wrong shape. */
export class PactApiError extends Error {
  override readonly name = 'PactApiError';
  constructor(
    readonly kind: 'unreachable' | 'refused' | 'malformed',
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface PactResult {
  status: 'success' | 'failure';
  /** success: the value; numbers with a fraction are strings of their exact text. */
  data?: unknown;
  /** failure: Pact's message. */
  message?: string;
}

export interface CommandResult {
  reqKey: string;
  result: PactResult;
  gas: number | undefined;
  /** Block of the chain that holds it (absent for a /local answer and a badlisted command). */
  blockHeight: number | undefined;
}

interface Endpoint {
  origin: string;
  basePath: string;
  authorization: string | undefined;
  name: string;
}

function endpoint(url: string): Endpoint {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`chainweb node URL is not a URL: ${redact(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(`chainweb node URL must be http(s): ${redact(url)}`);
  }
  // fetch refuses URLs with credentials: they travel as a Basic authorization header instead.
  const authorization =
    parsed.username !== '' || parsed.password !== ''
      ? `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}`
      : undefined;
  return {
    origin: parsed.origin,
    basePath: parsed.pathname.replace(/\/+$/, ''),
    authorization,
    name: redact(url).replace(/\/$/, ''),
  };
}

export interface PactApiOptions {
  /** The node's service API (port 1848 by default). */
  baseUrl: string;
  /** The node's P2P API, for mempool/member; without it a command not yet mined cannot be told apart from a lost one. */
  p2pUrl?: string;
  networkId: string;
  chainId: number;
  timeoutMs: number;
}

export class PactApi {
  readonly name: string;
  private readonly service: Endpoint;
  private readonly p2p: Endpoint | undefined;

  constructor(private readonly options: PactApiOptions) {
    this.service = endpoint(options.baseUrl);
    this.p2p = options.p2pUrl === undefined ? undefined : endpoint(options.p2pUrl);
    this.name = this.service.name;
  }

  /** POST /send; resolves with the request key the node gives back. */
  async send(command: PactCommand): Promise<string> {
    const reply = await this.post(this.service, this.pactPath('send'), JSON.stringify({ cmds: [command] }));
    const keys = (reply as { requestKeys?: unknown }).requestKeys;
    if (!Array.isArray(keys) || typeof keys[0] !== 'string') this.malformed('send', 'no requestKeys');
    return keys[0] as string;
  }

  /** POST /poll for some request keys; keys the chain does not hold are absent. */
  async poll(requestKeys: readonly string[]): Promise<Map<string, CommandResult>> {
    const reply = await this.post(this.service, this.pactPath('poll'), JSON.stringify({ requestKeys }));
    if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) this.malformed('poll', 'not an object');
    const results = new Map<string, CommandResult>();
    for (const [key, value] of Object.entries(reply as Record<string, unknown>)) {
      results.set(key, this.commandResult(value, 'poll'));
    }
    return results;
  }

  /** POST /local: runs a command without recording it. */
  async local(command: PactCommand): Promise<CommandResult> {
    const reply = await this.post(this.service, this.pactPath('local'), JSON.stringify(command));
    return this.commandResult(reply, 'local');
  }

  /** GET /cut: the height of this wallet's chain at the node's current cut. */
  async chainHeight(): Promise<number> {
    const path = `${this.service.basePath}/chainweb/0.0/${this.options.networkId}/cut`;
    const reply = (await this.request(this.service, 'GET', path, undefined)) as { hashes?: Record<string, unknown> };
    const entry = reply?.hashes?.[String(this.options.chainId)] as { height?: unknown } | undefined;
    if (!Number.isSafeInteger(entry?.height)) this.malformed('cut', `no height for chain ${this.options.chainId}`);
    return entry?.height as number;
  }

  /** Whether the node's mempool holds the command; undefined when no P2P URL is configured. */
  async inMempool(requestKey: string): Promise<boolean | undefined> {
    if (this.p2p === undefined) return undefined;
    const path = `${this.p2p.basePath}/chainweb/0.0/${this.options.networkId}/chain/${this.options.chainId}/mempool/member`;
    const reply = await this.post(this.p2p, path, JSON.stringify([requestKey]));
    if (!Array.isArray(reply) || typeof reply[0] !== 'boolean') this.malformed('mempool/member', 'not [bool]');
    return (reply as boolean[])[0] as boolean;
  }

  private pactPath(call: 'send' | 'poll' | 'local'): string {
    return `${this.service.basePath}/chainweb/0.0/${this.options.networkId}/chain/${this.options.chainId}/pact/api/v1/${call}`;
  }

  private commandResult(value: unknown, call: string): CommandResult {
    const v = value as Record<string, unknown> | null;
    const result = v?.result as Record<string, unknown> | undefined;
    if (typeof v?.reqKey !== 'string' || (result?.status !== 'success' && result?.status !== 'failure')) {
      this.malformed(call, 'not a CommandResult');
    }
    const meta = v.metaData as { blockHeight?: unknown } | null | undefined;
    const error = result.error as { message?: unknown } | undefined;
    return {
      reqKey: v.reqKey,
      result: {
        status: result.status,
        data: result.data,
        message:
          typeof error?.message === 'string'
            ? error.message
            : result.status === 'failure'
              ? JSON.stringify(result.error)
              : undefined,
      },
      gas: typeof v.gas === 'number' ? v.gas : undefined,
      blockHeight: Number.isSafeInteger(meta?.blockHeight) ? (meta?.blockHeight as number) : undefined,
    };
  }

  private post(at: Endpoint, path: string, body: string): Promise<unknown> {
    return this.request(at, 'POST', path, body);
  }

  private async request(
    at: Endpoint,
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
  ): Promise<unknown> {
    const call = `${method} ${path}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (at.authorization) headers.authorization = at.authorization;
    let response: Response;
    let text: string;
    try {
      const signal = AbortSignal.timeout(this.options.timeoutMs);
      const request = () => fetch(`${at.origin}${path}`, { method, headers, body, signal });
      // Every Pact call may run twice (reads, and /send of a command whose request key is fixed), so a
      // pooled connection the node closed under it is retried once (rpc/closedConnection.ts).
      response = await request().catch((error: unknown) => {
        if (!signal.aborted && closedConnection(error)) return request();
        throw error;
      });
      text = await response.text();
    } catch (error) {
      throw new PactApiError('unreachable', `${at.name} ${call}: ${(error as Error).message}`);
    }
    // 404: this node serves no such chain or network (a configuration fault), never a verdict on the command.
    if (response.status >= 500 || response.status === 429 || response.status === 404) {
      throw new PactApiError(
        'unreachable',
        `${at.name} ${call}: HTTP ${response.status} ${text.slice(0, 300)}`,
        response.status,
      );
    }
    if (response.status >= 400) {
      throw new PactApiError('refused', text.trim().slice(0, 2000) || `HTTP ${response.status}`, response.status);
    }
    try {
      return JSON.parse(quoteFractionalNumbers(text));
    } catch {
      throw new PactApiError('malformed', `${at.name} ${call}: the answer is not JSON: ${text.slice(0, 200)}`);
    }
  }

  private malformed(call: string, message: string): never {
    throw new PactApiError('malformed', `${this.name} ${call}: ${message}`);
  }
}
