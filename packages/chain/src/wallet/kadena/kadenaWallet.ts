import { randomBytes } from 'node:crypto';
import { validatePayoutAddress } from '../../addresses/validateAddress.js';
import { isChainwebVersionName } from '../../kadena/header.js';
import { quoteFractionalNumbers } from '../amounts.js';
import type { SignedTransaction, SigningWallet, TransactionState } from '../signingWallet.js';
import { WalletError, type WalletErrorKind, type WalletOutput } from '../wallet.js';
import { type CommandResult, PactApi, PactApiError } from './pactApi.js';
import { localCmd, type PactCommand, pactString, publicKeyOf, signCommand, transferCreateCmd } from './pactCommand.js';
import { pactDecimal, pactDecimalToUnits } from './pactDecimal.js';

/**
 * The pool's KDA hot wallet on one chain of chainweb: one `coin.transfer-create` Pact command per payout,
 * signed here with the pool's ed25519 key and sent to a chainweb node's Pact API (pactApi.ts). The pool's
 * account is `k:<public key>`; balances are per chain, so the wallet pays from the one chain the operator
 * funds (docs/coins/kadena.md, "Paying miners").
 *
 * Crash safety needs no nonce: the request key is the hash of the stored command, a node takes the same
 * command twice without effect ("Transaction already exists on chain" once mined: chainweb-node
 * src/Chainweb/Mempool/Mempool.hs InsertErrorDuplicate), and the command expires at creationTime + ttl,
 * after which it can never be mined and the payout may be signed anew.
 */
export interface KadenaWalletOptions {
  coin: 'KDA';
  /** The node's service API, e.g. http://node:1848. */
  baseUrl: string;
  /** The node's P2P API, asked whether an unmined command is in its mempool; without it such a command is `unknown`. */
  p2pUrl?: string;
  /** chainweb version: mainnet01, testnet04 or development (Pact's networkId and the URL's network segment). */
  networkId: string;
  /** The chain the pool pays from (0–19), where its account holds the funds. */
  chainId: number;
  /** The pool's ed25519 private key: 32 bytes of hex. */
  privateKey: string;
  /** Block depth after which a payout is final. */
  confirmations: number;
  /** Gas units a payout may use (default 2 500; a transfer-create uses several hundred). */
  gasLimit?: number;
  /** KDA per unit of gas, as a decimal (default "0.00000001", chainweb-node's minimum gas price). */
  gasPrice?: string;
  /** How long a signed payout may still be mined (default 7 200 s; chainweb allows up to 2 days). */
  ttlSeconds?: number;
  /** Per-call timeout (default 10 000 ms). */
  timeoutMs?: number;
  /** Epoch ms clock (tests). */
  now?: () => number;
}

const DEFAULT_GAS_LIMIT = 2_500;
const DEFAULT_GAS_PRICE = '0.00000001';
const DEFAULT_TTL_SECONDS = 7_200;
/** chainweb-node's largest TTL (src/Chainweb/Pact4/Validations.hs defaultMaxTTL: 2 days). */
const MAX_TTL_SECONDS = 172_800;
/**
 * Written into creationTime behind our clock: the node refuses a command created more than 10 s in its
 * future (Mempool/InMem.hs txTTLCheck), and a pool clock a little ahead would make every payout fail.
 */
const CREATION_SKEW_SECONDS = 30;
/**
 * How long after expiresAt an unseen command is called dead. A block checks the TTL against its parent's
 * creation time (Pact5/ExecBlock.hs checkTimes), so a block made just after expiry on a parent made just
 * before may still include it; blocks come every 30 s, so minutes cover that and a short reorganisation.
 */
const EXPIRY_MARGIN_MS = 5 * 60_000;

/** `k:` accounts only: see validateAddress / checkKadena. */
export class KadenaWallet implements SigningWallet {
  readonly kind = 'signing' as const;
  readonly coin = 'KDA';
  readonly feeCoin = 'KDA';
  readonly address: string;
  /**
   * One transfer-create per command. Several could share one command (each TRANSFER is its own managed
   * capability, keyed by sender and receiver: coin.pact TRANSFER @managed amount), but a Pact command is
   * atomic: one receiver's failure (e.g. "account guards do not match" on an old k: account) would revert
   * every payout in it and still burn the gas. One per payout keeps each payout's fate its own.
   */
  readonly maxOutputs = 1;
  /** coin.pact enforce-unit: an amount needs at most 12 decimals and must be > 0, so 10^-12 KDA is the least. */
  readonly minOutput = 1n;
  readonly confirmations: number;
  private readonly api: PactApi;
  private readonly publicKey: string;
  private readonly gasLimit: number;
  private readonly gasPrice: bigint;
  private readonly ttlSeconds: number;
  private readonly now: () => number;

  constructor(private readonly options: KadenaWalletOptions) {
    if (!isChainwebVersionName(options.networkId)) {
      throw new TypeError(`networkId must be mainnet01, testnet04 or development: ${options.networkId}`);
    }
    if (!Number.isInteger(options.chainId) || options.chainId < 0 || options.chainId > 19) {
      throw new TypeError(`chainId must be a chain of chainweb (0–19): ${options.chainId}`);
    }
    if (!Number.isInteger(options.confirmations) || options.confirmations < 1) {
      throw new TypeError('confirmations must be a positive integer');
    }
    this.publicKey = publicKeyOf(options.privateKey);
    this.address = `k:${this.publicKey}`;
    this.confirmations = options.confirmations;
    this.gasLimit = options.gasLimit ?? DEFAULT_GAS_LIMIT;
    if (!Number.isSafeInteger(this.gasLimit) || this.gasLimit <= 0)
      throw new TypeError('gasLimit must be a positive integer');
    this.gasPrice = pactDecimalToUnits(options.gasPrice ?? DEFAULT_GAS_PRICE);
    if (this.gasPrice <= 0n) throw new TypeError('gasPrice must be positive');
    this.ttlSeconds = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
    if (!Number.isInteger(this.ttlSeconds) || this.ttlSeconds < 60 || this.ttlSeconds > MAX_TTL_SECONDS) {
      throw new TypeError(`ttlSeconds must be an integer from 60 to ${MAX_TTL_SECONDS}`);
    }
    this.now = options.now ?? Date.now;
    this.api = new PactApi({
      baseUrl: options.baseUrl,
      ...(options.p2pUrl !== undefined && { p2pUrl: options.p2pUrl }),
      networkId: options.networkId,
      chainId: options.chainId,
      timeoutMs: options.timeoutMs ?? 10_000,
    });
  }

  /** The pool account's balance on the paying chain (`coin.get-balance` through /local); 0 before it exists there. */
  async balance(): Promise<bigint> {
    const code = `(coin.get-balance ${pactString(this.address)})`;
    const result = await this.call('balance', () => this.api.local(signCommand(localCmd(this.meta(), code), [])));
    if (result.result.status === 'failure') {
      // coin.pact get-balance reads the account's row: a missing row means no account yet on this chain.
      if (/No value found in table|row not found/.test(result.result.message ?? '')) return 0n;
      throw this.error('unknown', `get-balance failed: ${result.result.message}`);
    }
    try {
      return pactValueToUnits(result.result.data);
    } catch (error) {
      throw this.error(
        'unknown',
        `get-balance answered ${JSON.stringify(result.result.data)}: ${(error as Error).message}`,
      );
    }
  }

  async feeBalance(): Promise<bigint> {
    return this.balance();
  }

  /** The most `outputs` payouts cost: each its own command, which can burn at most gasLimit × gasPrice. */
  async feeEstimate(outputs: number): Promise<bigint> {
    return BigInt(outputs) * this.maxFee();
  }

  /**
   * Only `k:<64 lower-case hex>` accounts. transfer-create must be given the receiver's guard, and the only
   * accounts whose guard follows from their name are `k:` accounts (the guard is the key after `k:`; the
   * coin contract enforces exactly that guard when it creates one: coin.pact enforce-reserved). Any other
   * name may belong to someone else on this chain, or be created by anyone with any guard. The pool's own
   * account is refused too (coin.pact transfer-create: "sender cannot be the receiver of a transfer").
   */
  async validateAddress(address: string): Promise<boolean> {
    return validatePayoutAddress('kadena', address).ok && address !== this.address;
  }

  async sign(outputs: readonly WalletOutput[], inFlight: readonly SignedTransaction[]): Promise<SignedTransaction> {
    if (outputs.length !== 1)
      throw this.error('rejected', `a Kadena payout pays exactly one account, not ${outputs.length}`);
    const output = outputs[0] as WalletOutput;
    if (output.amount < this.minOutput)
      throw this.error('rejected', `amount ${output.amount} is below the least KDA unit`);
    const check = validatePayoutAddress('kadena', output.address);
    if (!check.ok) throw this.error('invalid-address', `${output.address}: ${check.reason}`);
    if (output.address === this.address) throw this.error('invalid-address', 'the pool cannot pay its own account');

    const fee = this.maxFee();
    const [balance, reserved] = await Promise.all([this.balance(), this.reservedBy(inFlight)]);
    const spendable = balance - reserved;
    if (spendable < output.amount + fee) {
      throw this.error(
        'insufficient-funds',
        `chain ${this.options.chainId} holds ${pactDecimal(balance)} KDA` +
          (reserved > 0n ? ` (${pactDecimal(reserved)} promised to unmined payouts)` : '') +
          `; paying ${pactDecimal(output.amount)} needs ${pactDecimal(output.amount + fee)} with gas`,
      );
    }
    const meta = this.meta();
    const cmd = transferCreateCmd({
      ...meta,
      senderPublicKey: this.publicKey,
      receiver: output.address,
      amount: output.amount,
    });
    const command = signCommand(cmd, [this.options.privateKey]);
    return {
      txid: command.hash,
      raw: JSON.stringify(command),
      fee,
      spends: [],
      expiresAt: new Date((meta.creationTime + meta.ttlSeconds) * 1000),
    };
  }

  async broadcast(tx: SignedTransaction): Promise<void> {
    const command = this.stored(tx);
    let requestKey: string;
    try {
      requestKey = await this.api.send(command);
    } catch (error) {
      // Mempool.hs InsertErrorDuplicate: the chain already holds this very command.
      if (
        error instanceof PactApiError &&
        error.kind === 'refused' &&
        /Transaction already exists on chain/.test(error.message)
      ) {
        return;
      }
      throw this.fromApi(error, 'send');
    }
    if (requestKey !== tx.txid)
      throw this.error('unknown', `the node answered request key ${requestKey} for ${tx.txid}`);
  }

  async state(tx: SignedTransaction): Promise<TransactionState> {
    const command = this.stored(tx);
    const results = await this.call('poll', () => this.api.poll([tx.txid]));
    const result = results.get(tx.txid);
    if (result !== undefined) return this.minedState(command, result);
    if (tx.expiresAt !== undefined && this.now() >= tx.expiresAt.getTime() + EXPIRY_MARGIN_MS) {
      return { state: 'dead', reason: `expired at ${tx.expiresAt.toISOString()} without being mined` };
    }
    const pending = await this.call('mempool/member', () => this.api.inMempool(tx.txid));
    return pending === true ? { state: 'pending' } : { state: 'unknown' };
  }

  private async minedState(command: PactCommand, result: CommandResult): Promise<TransactionState> {
    // A result without a block: chainweb's badlist (Pact/RestAPI/Server.hs hashIsOnBadList), a command that
    // failed validation in a block and will never be mined.
    if (result.blockHeight === undefined) {
      return { state: 'dead', reason: result.result.message ?? 'refused by the node without a block' };
    }
    const height = await this.call('cut', () => this.api.chainHeight());
    const confirmations = Math.max(1, height - result.blockHeight + 1);
    const fee = result.gas === undefined ? undefined : BigInt(result.gas) * gasPriceOf(command);
    const feePart = fee === undefined ? {} : { fee };
    if (result.result.status === 'success') return { state: 'mined', confirmations, ...feePart };
    return { state: 'reverted', confirmations, reason: result.result.message ?? 'Pact failure', ...feePart };
  }

  /** What in-flight payouts not yet on the chain will still take from the balance: their amount and gas. */
  private async reservedBy(inFlight: readonly SignedTransaction[]): Promise<bigint> {
    if (inFlight.length === 0) return 0n;
    const mined = await this.call('poll', () => this.api.poll(inFlight.map((tx) => tx.txid)));
    let reserved = 0n;
    for (const tx of inFlight) {
      if (mined.has(tx.txid)) continue;
      if (tx.expiresAt !== undefined && this.now() >= tx.expiresAt.getTime() + EXPIRY_MARGIN_MS) continue;
      try {
        reserved += amountOf(this.stored(tx)) + tx.fee;
      } catch (error) {
        throw this.error('unknown', `in-flight ${tx.txid} is not a payout of this wallet`, error);
      }
    }
    return reserved;
  }

  private meta() {
    const nowSeconds = Math.floor(this.now() / 1000);
    return {
      networkId: this.options.networkId,
      chainId: String(this.options.chainId),
      sender: this.address,
      gasLimit: this.gasLimit,
      gasPrice: this.gasPrice,
      creationTime: nowSeconds - CREATION_SKEW_SECONDS,
      ttlSeconds: this.ttlSeconds,
      nonce: `lodestone ${new Date(this.now()).toISOString()} ${randomBytes(8).toString('hex')}`,
    };
  }

  private maxFee(): bigint {
    return BigInt(this.gasLimit) * this.gasPrice;
  }

  private stored(tx: SignedTransaction): PactCommand {
    try {
      const command = JSON.parse(tx.raw) as PactCommand;
      if (typeof command.cmd !== 'string' || command.hash !== tx.txid || !Array.isArray(command.sigs))
        throw new Error('shape');
      return command;
    } catch {
      throw this.error('rejected', `stored transaction ${tx.txid} is not this wallet's Pact command`);
    }
  }

  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw this.fromApi(error, what);
    }
  }

  private fromApi(error: unknown, what: string): WalletError {
    if (error instanceof WalletError) return error;
    if (error instanceof PactApiError) {
      const kind: WalletErrorKind =
        error.kind === 'unreachable' ? 'unreachable' : error.kind === 'refused' ? 'rejected' : 'unknown';
      return this.error(kind, `${what}: ${error.message}`, error);
    }
    return this.error('unknown', `${what}: ${(error as Error).message}`, error);
  }

  private error(kind: WalletErrorKind, message: string, cause?: unknown): WalletError {
    return new WalletError(kind, message, { coin: 'KDA', cause });
  }
}

/** A Pact decimal in a reply: a number's exact text (fractions arrive quoted), an integer, or `{"decimal": "…"}`. */
function pactValueToUnits(value: unknown): bigint {
  if (typeof value === 'string') return pactDecimalToUnits(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return pactDecimalToUnits(String(value));
  const decimal = (value as { decimal?: unknown } | null)?.decimal;
  if (typeof decimal === 'string') return pactDecimalToUnits(decimal);
  throw new RangeError('not a Pact decimal');
}

/** The gas price (units) written in a command this wallet built. */
function gasPriceOf(command: PactCommand): bigint {
  const payload = JSON.parse(quoteFractionalNumbers(command.cmd)) as { meta?: { gasPrice?: unknown } };
  return pactValueToUnits(payload.meta?.gasPrice);
}

/** The amount of a transfer-create this wallet built (the last argument of its code). */
function amountOf(command: PactCommand): bigint {
  const payload = JSON.parse(command.cmd) as { payload?: { exec?: { code?: unknown } } };
  const code = payload.payload?.exec?.code;
  const m =
    typeof code === 'string'
      ? /^\(coin\.transfer-create "[^"]+" "[^"]+" \(read-keyset "ks"\) (\d+\.\d+)\)$/.exec(code)
      : null;
  if (!m) throw new RangeError('not a transfer-create of this wallet');
  return pactDecimalToUnits(m[1] as string);
}
