import { isHex } from '../bitcoin/bytes.js';
import { RpcClient } from '../rpc/client.js';
import { RPC_METHOD_NOT_FOUND, RpcError } from '../rpc/errors.js';
import { Shape } from '../rpc/shape.js';
import { exactDecimalFetch, jsonDecimal, rpcAmountToUnits } from './amounts.js';
import { type SentTransaction, type Wallet, WalletError, type WalletOutput, type WalletTransaction } from './wallet.js';

export interface BitcoinWalletOptions {
  /** Ticker, e.g. `LTC`. */
  coin: string;
  /** Digits after the point of one coin (8 for bitcoin, litecoin, dash). */
  decimals?: number;
  /** `http://user:password@host:port/`, with `wallet/NAME` after the slash when the daemon has several wallets. */
  rpcUrl: string;
  /** Per-call timeout; DEFAULT_WALLET_TIMEOUT_MS unless set. */
  timeoutMs?: number;
  /** How many of the newest listtransactions entries findByComment looks through (default 1000). */
  searchDepth?: number;
  /**
   * With a `since`, findByComment looks back to that time however many entries it takes, up to this
   * many (default 1,000,000); beyond, it gives up with an error rather than answer "not found".
   */
  maxSearchDepth?: number;
  /** Injected for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

/**
 * Wallet calls take longer than chain calls (coin selection and signing over a large wallet), and a
 * send that times out leaves its outcome unknown, so they get more time than RpcClient's default.
 */
export const DEFAULT_WALLET_TIMEOUT_MS = 30_000;
export const DEFAULT_SEARCH_DEPTH = 1000;
export const DEFAULT_MAX_SEARCH_DEPTH = 1_000_000;
const PAGE_SIZE = 100;
/** A wallet entry's time is the daemon's clock; it may run behind ours by this much. */
const CLOCK_SLACK_SECONDS = 3600;

// Bitcoin Core's wallet RPC error codes (src/rpc/protocol.h) that sendmany returns before it creates
// any transaction: only after one of these is it certain that nothing was sent.
const RPC_TYPE_ERROR = -3;
const RPC_INVALID_ADDRESS_OR_KEY = -5;
const RPC_WALLET_INSUFFICIENT_FUNDS = -6;
const RPC_INVALID_PARAMETER = -8;
const RPC_WALLET_UNLOCK_NEEDED = -13;
const RPC_WALLET_NOT_FOUND = -18;
const RPC_WALLET_NOT_SPECIFIED = -19;
const NOTHING_SENT_CODES = new Set([
  RPC_TYPE_ERROR,
  RPC_INVALID_ADDRESS_OR_KEY,
  RPC_WALLET_INSUFFICIENT_FUNDS,
  RPC_INVALID_PARAMETER,
  RPC_WALLET_UNLOCK_NEEDED,
  RPC_WALLET_NOT_FOUND,
  RPC_WALLET_NOT_SPECIFIED,
  RPC_METHOD_NOT_FOUND,
]);

/**
 * A bitcoin-family wallet (bitcoind, litecoind, dashd, ...) over JSON-RPC. Amounts cross the wire as
 * exact decimal text both ways (see amounts.ts): sendmany's body carries number literals built from the
 * bigints, and amounts in replies are read from the daemon's own digits, never through a double.
 */
export class BitcoinWallet implements Wallet {
  readonly coin: string;
  readonly demo = false;
  readonly decimals: number;
  readonly searchDepth: number;
  readonly maxSearchDepth: number;
  /** The daemon URL without credentials, safe to log. */
  readonly daemon: string;
  private readonly client: RpcClient;
  /** Set once the daemon says it has no getbalances (older than Bitcoin Core 0.19). */
  private noGetBalances = false;

  constructor(options: BitcoinWalletOptions) {
    this.coin = options.coin;
    this.decimals = options.decimals ?? 8;
    if (!Number.isInteger(this.decimals) || this.decimals < 0 || this.decimals > 18) {
      throw new RangeError(`${options.coin} wallet: decimals must be an integer from 0 to 18`);
    }
    this.searchDepth = options.searchDepth ?? DEFAULT_SEARCH_DEPTH;
    if (!Number.isSafeInteger(this.searchDepth) || this.searchDepth < 1) {
      throw new RangeError(`${options.coin} wallet: searchDepth must be a positive integer`);
    }
    this.maxSearchDepth = options.maxSearchDepth ?? DEFAULT_MAX_SEARCH_DEPTH;
    if (!Number.isSafeInteger(this.maxSearchDepth) || this.maxSearchDepth < 1) {
      throw new RangeError(`${options.coin} wallet: maxSearchDepth must be a positive integer`);
    }
    this.client = new RpcClient({
      url: options.rpcUrl,
      timeoutMs: options.timeoutMs ?? DEFAULT_WALLET_TIMEOUT_MS,
      fetch: exactDecimalFetch(options.fetch),
    });
    this.daemon = this.client.name;
  }

  async balance(): Promise<bigint> {
    if (!this.noGetBalances) {
      try {
        const s = this.shape('getbalances');
        const r = s.object(await this.client.call('getbalances'), 'result');
        return this.amount(s, s.object(r.mine, 'mine').trusted, 'mine.trusted');
      } catch (error) {
        if (!(error instanceof RpcError && error.rpcCode === RPC_METHOD_NOT_FOUND)) throw this.walletError(error);
        this.noGetBalances = true;
      }
    }
    try {
      // "*" with minconf 1: confirmed funds of the whole wallet, as getbalances' trusted is for newer daemons.
      return this.amount(this.shape('getbalance'), await this.client.call('getbalance', ['*', 1]), 'result');
    } catch (error) {
      throw this.walletError(error);
    }
  }

  async sendMany(outputs: readonly WalletOutput[], comment: string): Promise<SentTransaction> {
    const amounts = this.checkOutputs(outputs, comment);
    let txid: string;
    try {
      // minconf is ignored by recent daemons, and means "spend confirmed coins only" to older ones.
      const result = await this.client.call('sendmany', ['', amounts, 1, comment]);
      txid = this.shape('sendmany').hex(result, 'result', 32);
    } catch (error) {
      throw this.walletError(error, { sending: true });
    }
    let sent: WalletTransaction | undefined;
    try {
      sent = await this.readTransaction(txid);
    } catch (error) {
      const e = this.walletError(error);
      const reason = error instanceof Error ? error.message : String(error);
      throw new WalletError(e.kind, `sent ${txid} but could not read it back: ${reason}`, {
        coin: this.coin,
        mayHaveSent: true,
        txid,
        ...(e.rpcCode !== undefined && { rpcCode: e.rpcCode }),
        cause: error,
      });
    }
    if (sent === undefined) {
      throw new WalletError('unknown', `sendmany returned ${txid}, which the wallet then did not know`, {
        coin: this.coin,
        mayHaveSent: true,
        txid,
      });
    }
    return { txid, fee: sent.fee ?? 0n };
  }

  /**
   * Without `since`, the newest `searchDepth` entries are searched. With it, entries back to that
   * time (less an hour for the daemon's clock), however many: a payout's reconciliation must not take
   * "not in the newest thousand" for "never sent" when block rewards or other sends have piled up
   * since (that would pay it twice). Past `maxSearchDepth` entries it throws instead of answering.
   */
  async findByComment(comment: string, since?: Date): Promise<WalletTransaction | undefined> {
    // The daemon stores no empty comment, so nothing can match one.
    if (comment === '') return undefined;
    const txids = new Set<string>();
    const depth = since ? this.maxSearchDepth : this.searchDepth;
    const oldest = since ? Math.floor(since.getTime() / 1000) - CLOCK_SLACK_SECONDS : undefined;
    let covered = false;
    try {
      const s = this.shape('listtransactions');
      // Pages go from the newest entries back. A transaction arriving meanwhile shifts the window,
      // which can show an entry twice (the set absorbs it) but never skips one.
      for (let skip = 0; skip < depth && !covered; skip += PAGE_SIZE) {
        const count = Math.min(PAGE_SIZE, depth - skip);
        const page = s.array(await this.client.call('listtransactions', ['*', count, skip]), 'result');
        for (const item of page) {
          const entry = s.object(item, 'entry');
          if (entry.category === 'send' && entry.comment === comment) txids.add(s.hex(entry.txid, 'txid', 32));
          if (oldest !== undefined && typeof entry.time === 'number' && entry.time < oldest) covered = true;
        }
        if (page.length < count) covered = true;
      }
    } catch (error) {
      throw this.walletError(error);
    }
    if (since && !covered && txids.size === 0) {
      throw new WalletError(
        'unknown',
        `${this.maxSearchDepth} wallet entries searched without reaching ${since.toISOString()}: the payout ${comment} may have been sent`,
        { coin: this.coin },
      );
    }
    if (txids.size > 1) {
      // One payout, one transaction: two carrying the same key is a double payment for a person to look at.
      throw new WalletError('unknown', `${txids.size} transactions carry the comment ${comment}: ${[...txids]}`, {
        coin: this.coin,
      });
    }
    const [txid] = txids;
    return txid === undefined ? undefined : this.transaction(txid);
  }

  async transaction(txid: string): Promise<WalletTransaction | undefined> {
    if (!isHex(txid, 32)) return undefined;
    try {
      return await this.readTransaction(txid.toLowerCase());
    } catch (error) {
      throw this.walletError(error);
    }
  }

  async validateAddress(address: string): Promise<boolean> {
    try {
      const s = this.shape('validateaddress');
      return s.boolean(s.object(await this.client.call('validateaddress', [address]), 'result').isvalid, 'isvalid');
    } catch (error) {
      throw this.walletError(error);
    }
  }

  /** gettransaction, or undefined when the wallet does not know the txid; RpcError otherwise. */
  private async readTransaction(txid: string): Promise<WalletTransaction | undefined> {
    let result: unknown;
    try {
      result = await this.client.call('gettransaction', [txid]);
    } catch (error) {
      if (error instanceof RpcError && error.rpcCode === RPC_INVALID_ADDRESS_OR_KEY) return undefined;
      throw error;
    }
    const s = this.shape('gettransaction');
    const r = s.object(result, 'result');
    // The top-level amount is net of outputs to the wallet's own addresses; the send details list
    // every output paid, so they give the total sent whoever the recipient is.
    let sent = 0n;
    for (const item of s.array(r.details ?? [], 'details')) {
      const detail = s.object(item, 'detail');
      if (detail.category === 'send') sent -= this.amount(s, detail.amount, 'details.amount');
    }
    const transaction: WalletTransaction = {
      txid: s.hex(r.txid, 'txid', 32),
      confirmations: s.integer(r.confirmations, 'confirmations'),
      amount: sent,
    };
    const comment = s.optionalString(r.comment, 'comment');
    if (comment !== undefined) transaction.comment = comment;
    // The daemon reports the fee as a negative amount, and only for transactions the wallet paid for.
    if (r.fee !== undefined) transaction.fee = -this.amount(s, r.fee, 'fee');
    return transaction;
  }

  /** The sendmany amounts object, after the checks the daemon would otherwise fail less clearly. */
  private checkOutputs(outputs: readonly WalletOutput[], comment: string): Record<string, unknown> {
    const refuse = (message: string): never => {
      throw new WalletError('rejected', `sendmany refused before sending: ${message}`, { coin: this.coin });
    };
    if (outputs.length === 0) refuse('no outputs');
    // findByComment is how a payout is reconciled after a crash; an empty comment is not stored.
    if (comment === '') refuse('an empty comment could never be found again');
    const amounts: Record<string, unknown> = {};
    for (const { address, amount } of outputs) {
      if (amount <= 0n) refuse(`amount ${amount} for ${address} is not positive`);
      // A JSON object cannot pay one address twice; the caller must add the amounts up.
      if (Object.hasOwn(amounts, address)) refuse(`${address} appears twice`);
      amounts[address] = jsonDecimal(amount, this.decimals);
    }
    return amounts;
  }

  private amount(s: Shape, value: unknown, field: string): bigint {
    try {
      return rpcAmountToUnits(value, this.decimals);
    } catch (error) {
      return s.fail(`${field}: ${(error as Error).message}`);
    }
  }

  private shape(method: string): Shape {
    return new Shape(method, this.daemon);
  }

  private walletError(error: unknown, context: { sending?: boolean } = {}): WalletError {
    if (error instanceof WalletError) return error;
    const coin = this.coin;
    if (!(error instanceof RpcError)) {
      return new WalletError('unknown', String(error), { coin, mayHaveSent: context.sending === true, cause: error });
    }
    const base = { coin, cause: error, ...(error.rpcCode !== undefined && { rpcCode: error.rpcCode }) };
    switch (error.kind) {
      case 'rpc': {
        const mayHaveSent = context.sending === true && !NOTHING_SENT_CODES.has(error.rpcCode as number);
        const details = { ...base, mayHaveSent };
        if (error.rpcCode === RPC_INVALID_ADDRESS_OR_KEY) {
          return new WalletError('invalid-address', error.message, details);
        }
        // Daemons use -6 for every failure to build the transaction (dust output, too large, fee
        // over the limit); only the message tells a lack of funds apart from those.
        if (error.rpcCode === RPC_WALLET_INSUFFICIENT_FUNDS && /insufficient/i.test(error.message)) {
          return new WalletError('insufficient-funds', error.message, details);
        }
        return new WalletError('rejected', error.message, details);
      }
      case 'auth':
        return new WalletError('rejected', error.message, { ...base, mayHaveSent: false });
      case 'unreachable':
      case 'timeout':
      case 'http':
        // The request may have reached the wallet before the connection failed or the time ran out.
        return new WalletError('unreachable', error.message, { ...base, mayHaveSent: context.sending === true });
      default:
        return new WalletError('unknown', error.message, { ...base, mayHaveSent: context.sending === true });
    }
  }
}
