import { type Hex, isHex } from 'viem';
import { getHttpRpcClient, type HttpRpcClient } from 'viem/utils';
import { closedConnection } from '../../rpc/closedConnection.js';
import { WalletError, type WalletErrorKind } from '../wallet.js';

/**
 * JSON-RPC to an Ethereum node over HTTP (viem's HTTP client: one request, no retries, a timeout), with
 * every failure turned into a WalletError of the right kind and every quantity read as an exact bigint.
 */

/** A JSON-RPC error object as the node sent it. */
export interface NodeRefusal {
  code: number;
  message: string;
}

export type RpcReply = { ok: true; result: unknown } | { ok: false; refusal: NodeRefusal };

// JSON-RPC 2.0 "internal error", and EIP-1474's "resource unavailable" and "limit exceeded": the node
// could not handle the request now, which says nothing about the request itself.
const TRANSIENT_CODES = new Set([-32603, -32002, -32005]);

/**
 * The kind of a node's refusal. Nodes say "insufficient funds" in their own words: go-ethereum
 * core/error.go "insufficient funds for gas * price + value"; Hardhat "Sender doesn't have enough funds
 * to send tx" (seen here).
 */
export function refusalKind(refusal: NodeRefusal): WalletErrorKind {
  if (/insufficient funds|enough funds/i.test(refusal.message)) return 'insufficient-funds';
  if (TRANSIENT_CODES.has(refusal.code)) return 'unreachable';
  return 'rejected';
}

export class EvmRpc {
  private readonly client: HttpRpcClient;

  constructor(
    private readonly coin: string,
    url: string,
    private readonly timeoutMs: number,
  ) {
    this.client = getHttpRpcClient(url, { timeout: timeoutMs });
  }

  /**
   * One call; the node's JSON-RPC error comes back as a refusal. Throws `unreachable` when no usable
   * answer came: `mayHaveSent` says whether the request may have done something anyway.
   */
  async request(method: string, params: unknown[], mayHaveSent = false): Promise<RpcReply> {
    let reply: { result?: unknown; error?: unknown };
    try {
      reply = (await this.send(method, params)) as typeof reply;
    } catch (error) {
      throw new WalletError(
        'unreachable',
        `${method}: no answer from the node within ${this.timeoutMs} ms or the connection failed (${describe(error)})`,
        {
          coin: this.coin,
          mayHaveSent,
          cause: error,
        },
      );
    }
    if (reply !== null && typeof reply === 'object' && 'error' in reply && reply.error !== undefined) {
      const refusal = asRefusal(reply.error);
      if (!refusal)
        throw this.unknown(method, `an error the node sent in no JSON-RPC form: ${JSON.stringify(reply.error)}`);
      return { ok: false, refusal };
    }
    if (reply === null || typeof reply !== 'object' || !('result' in reply)) {
      throw this.unknown(method, `an answer with neither result nor error: ${JSON.stringify(reply)}`);
    }
    return { ok: true, result: reply.result };
  }

  /**
   * The request, sent a second time when the first found its pooled connection already closed by the
   * node (an HTTP server closes idle keep-alive connections, and a request can race that close: undici's
   * UND_ERR_SOCKET, ECONNRESET). Every call this wallet makes may be repeated: reads, and a raw
   * transaction whose hash the node already knows is the same transaction.
   */
  private async send(method: string, params: unknown[]): Promise<unknown> {
    try {
      return await this.client.request({ body: { method, params } });
    } catch (error) {
      if (!closedConnection(error)) throw error;
      return await this.client.request({ body: { method, params } });
    }
  }

  /** One call whose refusal is an error: transient ones `unreachable`, others by refusalKind. */
  async call(method: string, params: unknown[] = []): Promise<unknown> {
    const reply = await this.request(method, params);
    if (reply.ok) return reply.result;
    throw this.refused(method, reply.refusal);
  }

  refused(method: string, refusal: NodeRefusal, mayHaveSent = false): WalletError {
    const kind = refusalKind(refusal);
    return new WalletError(kind, `${method}: the node said "${refusal.message}" (code ${refusal.code})`, {
      coin: this.coin,
      rpcCode: refusal.code,
      mayHaveSent: kind === 'unreachable' ? mayHaveSent : false,
    });
  }

  /** A QUANTITY (hex, no leading zeros in the spec but some nodes send them) as a bigint. */
  async quantity(method: string, params: unknown[] = []): Promise<bigint> {
    return this.toQuantity(method, await this.call(method, params));
  }

  toQuantity(what: string, value: unknown): bigint {
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) {
      throw this.unknown(what, `${JSON.stringify(value)} where a hex quantity was expected`);
    }
    return BigInt(value);
  }

  /** A count the wallet uses as a nonce or block height: a quantity that fits a safe integer. */
  toCount(what: string, value: unknown): number {
    const quantity = this.toQuantity(what, value);
    if (quantity > BigInt(Number.MAX_SAFE_INTEGER)) throw this.unknown(what, `${quantity} is beyond any real count`);
    return Number(quantity);
  }

  toData(what: string, value: unknown): Hex {
    if (typeof value !== 'string' || !isHex(value, { strict: true }) || value.length % 2 !== 0) {
      throw this.unknown(what, `${JSON.stringify(value)} where hex data was expected`);
    }
    return value;
  }

  unknown(what: string, message: string): WalletError {
    return new WalletError('unknown', `${what}: the node answered ${message}`, { coin: this.coin });
  }
}

function asRefusal(error: unknown): NodeRefusal | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'number' || !Number.isInteger(code) || typeof message !== 'string') return undefined;
  return { code, message };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const short = (error as { shortMessage?: unknown }).shortMessage;
  return `${typeof short === 'string' ? short : error.message.split('\n')[0]}${cause}`;
}
