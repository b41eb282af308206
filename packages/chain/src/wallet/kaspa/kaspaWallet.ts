import { schnorr } from '@noble/curves/secp256k1.js';
import { decodeKaspaAddress, encodeKaspaAddress } from '../../addresses/kaspa.js';
import { payToAddressScript } from '../../kaspa/coinbase.js';
import { parseJsonExact, stringifyJsonExact } from '../../kaspa/json.js';
import { KaspaRpcClient } from '../../kaspa/wrpcClient.js';
import { RpcError } from '../../rpc/errors.js';
import type { SignedTransaction, SigningWallet, TransactionState } from '../signingWallet.js';
import { WalletError, type WalletOutput } from '../wallet.js';
import { type Feerate, feeFor, feerateFromJson, maxFeerate, minFeerate } from './feerate.js';
import {
  MAXIMUM_STANDARD_TRANSACTION_MASS,
  type Masses,
  type MassInput,
  type MassOutput,
  masses,
  minimumRelayFee,
  overStandardLimit,
  P2PK_SCRIPT_LENGTH,
  P2PK_SIGNATURE_SCRIPT_LENGTH,
  STORAGE_MASS_PARAMETER,
} from './mass.js';
import {
  type ScriptPublicKey,
  SIG_HASH_ALL,
  type SpentOutput,
  scriptFromJson,
  scriptToJson,
  signatureHashAll,
  type Transaction,
  transactionId,
  transactionToJson,
} from './transaction.js';

export interface KaspaWalletOptions {
  coin?: 'KAS';
  /** kaspad's wRPC JSON endpoint (`--rpclisten-json`), ws:// or wss://; the node needs `--utxoindex`. */
  url: string;
  /** The pool's key: 32 bytes of hex. Its Schnorr (x-only) public key is the pool's pay-to-pubkey address. */
  privateKey: string;
  /** Address prefix of the network: `kaspa` (mainnet), `kaspatest`, `kaspasim`, `kaspadev`. */
  prefix: 'kaspa' | 'kaspatest' | 'kaspasim' | 'kaspadev';
  /** Virtual DAA score depth after which a payout is final (10 per second at 10 BPS). */
  confirmations: number;
  /** Per-call timeout (ms); 10 s unless set. */
  timeoutMs?: number;
  /**
   * Smallest payout output and smallest change kept, sompi (default 1 KAS); at least 0.2 KAS, or not a
   * single output would fit KIP-9's storage mass limit beside its change. maxOutputs follows from it.
   */
  minOutput?: bigint;
  /**
   * DAA score depth before a coinbase output may be spent (consensus/core/src/config/bps.rs
   * `coinbase_maturity` = 100 s × BPS: 1000 at mainnet's 10 BPS).
   */
  coinbaseMaturity?: bigint;
  /** Ceiling on the node's feerate estimate, sompi per gram (default 10,000: 100 × the relay floor). */
  maxFeerateSompiPerGram?: bigint;
}

const DEFAULT_MIN_OUTPUT = 100_000_000n;
const DEFAULT_COINBASE_MATURITY = 1000n;
const DEFAULT_MAX_FEERATE = 10_000n;
/** The relay floor as a feerate: 100,000 sompi per 1000 grams. */
const RELAY_FLOOR_FEERATE: Feerate = { numerator: 100n, denominator: 1n };
/** Inputs whose compute mass maxOutputs keeps room for. */
const RESERVED_INPUTS = 10n;
/** Compute mass of one output: 18 + script bytes, plus (2 + script bytes) × 10; the largest standard script is 35 bytes. */
const WORST_OUTPUT_COMPUTE_MASS = 18n + 35n + (2n + 35n) * 10n;
const P2PK_OUTPUT_COMPUTE_MASS = 18n + 34n + (2n + 34n) * 10n;
/** One P2PK input: outpoint 36 + length 8 + signature script 66 + sequence 8 bytes, and one sig-op (1000). */
const P2PK_INPUT_COMPUTE_MASS = 118n + 1000n;
const BLANK_TRANSACTION_MASS = 94n;
/** Version-0 inputs of the pool: sequence 0 (no relative lock), one OP_CHECKSIG. */
const SEQUENCE = 0n;
const SIG_OP_COUNT = 1;

interface Utxo {
  txid: string;
  index: number;
  amount: bigint;
  scriptPublicKey: ScriptPublicKey;
  blockDaaScore: bigint;
  isCoinbase: boolean;
}

/**
 * The pool's Kaspa hot wallet: one Schnorr key, its pay-to-pubkey address, transactions built, signed
 * and hashed here (./transaction.ts) and sent to kaspad over wRPC JSON.
 *
 * kaspad has no transaction index: a sent transaction is found again by walking the virtual chain from
 * the sink at signing (`followFrom`) with getVirtualChainFromBlock, which lists each chain block's
 * accepted transaction ids. Depth is counted in DAA score, as kaspanet/rusty-kaspa's wallet counts
 * maturity (wallet/core/src/storage/transaction/record.rs `maturity`: mature once the virtual DAA score
 * reaches the accepting block's score plus the period), so confirmations = virtual DAA score − the
 * accepting chain block's DAA score.
 */
export class KaspaWallet implements SigningWallet {
  readonly kind = 'signing' as const;
  readonly coin: string;
  readonly feeCoin: string;
  readonly address: string;
  readonly maxOutputs: number;
  readonly minOutput: bigint;
  readonly confirmations: number;
  private readonly prefix: string;
  private readonly privateKey: Uint8Array;
  private readonly script: ScriptPublicKey;
  private readonly scriptJson: string;
  private readonly coinbaseMaturity: bigint;
  private readonly maxFeerate: Feerate;
  private readonly client: KaspaRpcClient;

  constructor(options: KaspaWalletOptions) {
    this.coin = options.coin ?? 'KAS';
    this.feeCoin = this.coin;
    if (!/^[0-9a-fA-F]{64}$/.test(options.privateKey)) throw new TypeError('Kaspa private key must be 32 bytes of hex');
    this.privateKey = Uint8Array.from(Buffer.from(options.privateKey, 'hex'));
    let publicKey: Uint8Array;
    try {
      publicKey = schnorr.getPublicKey(this.privateKey);
    } catch {
      throw new TypeError('Kaspa private key is not a valid secp256k1 secret key');
    }
    if (!['kaspa', 'kaspatest', 'kaspasim', 'kaspadev'].includes(options.prefix)) {
      throw new TypeError(`unknown Kaspa address prefix ${options.prefix}`);
    }
    this.prefix = options.prefix;
    this.address = encodeKaspaAddress(options.prefix, 0, publicKey);
    // Pay-to-pubkey: OP_DATA_32 <x-only key> OP_CHECKSIG (crypto/txscript/src/standard.rs `pay_to_pub_key`).
    this.script = { version: 0, script: Uint8Array.from([0x20, ...publicKey, 0xac]) };
    this.scriptJson = scriptToJson(this.script);
    if (!Number.isSafeInteger(options.confirmations) || options.confirmations < 1) {
      throw new RangeError('confirmations must be a positive integer');
    }
    this.confirmations = options.confirmations;
    this.minOutput = options.minOutput ?? DEFAULT_MIN_OUTPUT;
    this.coinbaseMaturity = options.coinbaseMaturity ?? DEFAULT_COINBASE_MATURITY;
    this.maxFeerate = { numerator: options.maxFeerateSompiPerGram ?? DEFAULT_MAX_FEERATE, denominator: 1n };
    this.maxOutputs = maxOutputsFor(this.minOutput);
    this.client = new KaspaRpcClient({ url: options.url, ...(options.timeoutMs && { timeoutMs: options.timeoutMs }) });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  async validateAddress(address: string): Promise<boolean> {
    try {
      // Every standard class may be paid: Schnorr and ECDSA pay-to-pubkey and pay-to-script-hash.
      return decodeKaspaAddress(address).prefix === this.prefix;
    } catch {
      return false;
    }
  }

  async balance(): Promise<bigint> {
    const utxos = await this.spendableUtxos();
    return utxos.reduce((sum, u) => sum + u.amount, 0n);
  }

  feeBalance(): Promise<bigint> {
    return this.balance();
  }

  /**
   * The fee of a transaction paying `outputs` outputs of minOutput each with a change of minOutput
   * (the most storage mass such a payout can have) from two inputs, at the node's feerate now.
   */
  async feeEstimate(outputs: number): Promise<bigint> {
    const rate = await this.feerate();
    const inputs: MassInput[] = [0, 1].map(() => ({
      signatureScriptLength: P2PK_SIGNATURE_SCRIPT_LENGTH,
      sigOpCount: SIG_OP_COUNT,
      amount: STORAGE_MASS_PARAMETER,
      spentScriptLength: P2PK_SCRIPT_LENGTH,
    }));
    const outs: MassOutput[] = Array.from({ length: Math.max(outputs, 0) + 1 }, () => ({
      value: this.minOutput,
      scriptLength: P2PK_SCRIPT_LENGTH,
    }));
    return feeOf(rate, masses(inputs, outs));
  }

  async sign(outputs: readonly WalletOutput[], inFlight: readonly SignedTransaction[]): Promise<SignedTransaction> {
    const payouts = this.checkOutputs(outputs);
    // The sink before the UTXOs: the transaction can only be accepted by a chain block after it.
    const followFrom = await this.sink();
    const rate = await this.feerate();
    const taken = new Set(inFlight.flatMap((tx) => tx.spends));
    const available = (await this.spendableUtxos())
      .filter((u) => !taken.has(`${u.txid}:${u.index}`))
      .sort((a, b) => (a.amount === b.amount ? 0 : a.amount > b.amount ? -1 : 1));
    const plan = this.plan(payouts, available, rate);
    const tx: Transaction = {
      inputs: plan.inputs.map((u) => ({
        txid: u.txid,
        index: u.index,
        sequence: SEQUENCE,
        sigOpCount: SIG_OP_COUNT,
        signatureScript: new Uint8Array(),
      })),
      outputs: [...payouts, ...(plan.change > 0n ? [{ value: plan.change, scriptPublicKey: this.script }] : [])],
      lockTime: 0n,
      storageMass: plan.masses.storage,
    };
    plan.inputs.forEach((utxo, i) => {
      const spent: SpentOutput = { amount: utxo.amount, scriptPublicKey: utxo.scriptPublicKey };
      const signature = schnorr.sign(signatureHashAll(tx, i, spent), this.privateKey);
      // OP_DATA_65 <64-byte signature ‖ sighash type>: what OP_CHECKSIG pops (crypto/txscript opcodes OpCheckSig).
      (tx.inputs[i] as Transaction['inputs'][number]).signatureScript = Uint8Array.from([
        0x41,
        ...signature,
        SIG_HASH_ALL,
      ]);
    });
    return {
      txid: transactionId(tx),
      raw: stringifyJsonExact(transactionToJson(tx)),
      fee: plan.fee,
      spends: plan.inputs.map((u) => `${u.txid}:${u.index}`),
      followFrom,
    };
  }

  async broadcast(tx: SignedTransaction): Promise<void> {
    let transaction: unknown;
    try {
      transaction = parseJsonExact(tx.raw);
    } catch (error) {
      throw new WalletError('rejected', `stored transaction ${tx.txid} is not JSON`, { coin: this.coin, cause: error });
    }
    let answer: unknown;
    try {
      answer = await this.client.call('submitTransaction', { transaction, allowOrphan: false });
    } catch (error) {
      if (!(error instanceof RpcError) || error.kind !== 'rpc') throw this.failure(error, 'submitTransaction', true);
      const reason = error.message;
      // mining/errors/src/mempool.rs: RejectDuplicate and RejectAlreadyAccepted mean the node has it.
      if (/is already in the mempool|was already accepted by the consensus/.test(reason)) return;
      // Accepted long enough ago that the node forgot it: its inputs are gone, so it reads as an orphan.
      if (/is an orphan where orphan is disallowed/.test(reason)) {
        const state = await this.state(tx);
        if (state.state === 'mined') return;
      }
      throw new WalletError('rejected', `kaspad refused ${tx.txid}: ${reason}`, { coin: this.coin, cause: error });
    }
    const id = (answer as { transactionId?: unknown } | undefined)?.transactionId;
    if (id !== tx.txid) {
      throw new WalletError('unknown', `kaspad accepted the transaction as ${String(id)}, not ${tx.txid}`, {
        coin: this.coin,
        mayHaveSent: true,
      });
    }
  }

  async state(tx: SignedTransaction): Promise<TransactionState> {
    const accepted = await this.findAccepted(tx);
    if (accepted) return accepted;
    try {
      await this.client.call('getMempoolEntry', {
        transactionId: tx.txid,
        includeOrphanPool: false,
        filterTransactionPool: false,
      });
      return { state: 'pending' };
    } catch (error) {
      // rpc/core/src/error.rs TransactionNotFound: "Transaction <id> not found".
      if (!(error instanceof RpcError && error.kind === 'rpc' && /not found/i.test(error.message))) {
        throw this.failure(error, 'getMempoolEntry');
      }
    }
    const unspent = new Set((await this.utxos()).map((u) => `${u.txid}:${u.index}`));
    const gone = tx.spends.filter((outpoint) => !unspent.has(outpoint));
    if (gone.length > 0) {
      // Accepted between the two reads spends its own inputs too: look once more before calling it dead.
      const late = await this.findAccepted(tx);
      if (late) return late;
      return { state: 'dead', reason: `input ${gone.join(', ')} was spent by another transaction` };
    }
    return { state: 'unknown' };
  }

  // -------------------------------------------------------------------------------------------------

  /** Outputs as the transaction pays them; refuses what kaspad would refuse or KIP-9 makes too heavy. */
  private checkOutputs(outputs: readonly WalletOutput[]) {
    if (outputs.length === 0)
      throw new WalletError('rejected', 'a payout needs at least one output', { coin: this.coin });
    if (outputs.length > this.maxOutputs) {
      throw new WalletError('rejected', `${outputs.length} outputs, at most ${this.maxOutputs} per transaction`, {
        coin: this.coin,
      });
    }
    return outputs.map(({ address, amount }) => {
      let script: ScriptPublicKey;
      try {
        if (decodeKaspaAddress(address).prefix !== this.prefix) throw new TypeError(`not a ${this.prefix}: address`);
        script = scriptFromJson(payToAddressScript(address));
      } catch (error) {
        throw new WalletError('invalid-address', `${address} is not a valid ${this.prefix}: address`, {
          coin: this.coin,
          cause: error,
        });
      }
      if (amount < this.minOutput) {
        throw new WalletError(
          'rejected',
          `output of ${amount} sompi to ${address} is below the minimum of ${this.minOutput} sompi (KIP-9 storage mass)`,
          { coin: this.coin },
        );
      }
      return { value: amount, scriptPublicKey: script };
    });
  }

  /**
   * Inputs, change and fee: the largest UTXOs first, one more at a time, until they pay the outputs,
   * the fee and a change of at least minOutput (a smaller change is kept only when the storage mass
   * still fits), within the standard mass limit.
   */
  private plan(payouts: readonly { value: bigint; scriptPublicKey: ScriptPublicKey }[], utxos: Utxo[], rate: Feerate) {
    const paid = payouts.reduce((sum, o) => sum + o.value, 0n);
    const payoutMass: MassOutput[] = payouts.map((o) => ({
      value: o.value,
      scriptLength: o.scriptPublicKey.script.length,
    }));
    let best: { inputs: Utxo[]; change: bigint; fee: bigint; masses: Masses } | undefined;
    let inputLimit: number | undefined;
    for (let k = 1; k <= utxos.length; k++) {
      const inputs = utxos.slice(0, k);
      const massInputs: MassInput[] = inputs.map((u) => ({
        signatureScriptLength: P2PK_SIGNATURE_SCRIPT_LENGTH,
        sigOpCount: SIG_OP_COUNT,
        amount: u.amount,
        spentScriptLength: u.scriptPublicKey.script.length,
      }));
      const total = inputs.reduce((sum, u) => sum + u.amount, 0n);
      const withChange = settleFee(rate, total - paid, (change) =>
        masses(
          massInputs,
          change > 0n ? [...payoutMass, { value: change, scriptLength: P2PK_SCRIPT_LENGTH }] : payoutMass,
        ),
      );
      if (withChange.masses.compute > MAXIMUM_STANDARD_TRANSACTION_MASS) {
        inputLimit = k - 1;
        break;
      }
      const candidate = { inputs, ...withChange };
      if (candidate.change >= this.minOutput && !overStandardLimit(candidate.masses)) return candidate;
      // A small UTXO can cost more fee than it brings: fall back on the set that leaves the most.
      if (!best || candidate.change > best.change) best = candidate;
    }
    if (best && best.change >= 0n) {
      const over = overStandardLimit(best.masses);
      if (!over) return best;
      if (best.change >= this.minOutput) {
        throw new WalletError('rejected', `the transaction would not be standard: ${over}`, { coin: this.coin });
      }
      throw new WalletError(
        'insufficient-funds',
        `the wallet's spendable ${sum(best.inputs)} sompi pay ${paid} and a fee of ${best.fee} but leave a change of ` +
          `${best.change} sompi, too small to keep (${over}); fund ${this.address} further`,
        { coin: this.coin },
      );
    }
    const have = utxos.reduce((s, u) => s + u.amount, 0n);
    const fee = best?.fee ?? 0n;
    throw new WalletError(
      'insufficient-funds',
      `spendable ${have} sompi at ${this.address} (in ${utxos.length} outputs not in flight) do not cover ` +
        `${paid} sompi and the fee${fee > 0n ? ` of ${fee}` : ''}` +
        (inputLimit === undefined
          ? ''
          : `; the compute mass limit allows only ${inputLimit} inputs here, holding ${sum(utxos.slice(0, inputLimit))}: ` +
            'consolidate the wallet with a payment to itself'),
      { coin: this.coin },
    );
  }

  /** The node's normal-priority feerate (the first normal bucket: inclusion within about a minute), floored and capped. */
  private async feerate(): Promise<Feerate> {
    const answer = await this.call('getFeeEstimate', {});
    const estimate = (answer as { estimate?: { normalBuckets?: unknown; priorityBucket?: unknown } }).estimate;
    const bucket = Array.isArray(estimate?.normalBuckets) ? estimate.normalBuckets[0] : estimate?.priorityBucket;
    let rate: Feerate;
    try {
      rate = feerateFromJson((bucket as { feerate?: unknown } | undefined)?.feerate);
    } catch (error) {
      throw new WalletError('unknown', `getFeeEstimate answered without a usable feerate`, {
        coin: this.coin,
        cause: error,
      });
    }
    return minFeerate(maxFeerate(rate, RELAY_FLOOR_FEERATE), this.maxFeerate);
  }

  private async sink(): Promise<string> {
    const answer = (await this.call('getSink', {})) as { sink?: unknown };
    return this.hash(answer.sink, 'getSink sink');
  }

  /** The pool address's UTXOs, as kaspad's UTXO index holds them (the virtual UTXO set, without the mempool). */
  private async utxos(): Promise<Utxo[]> {
    const answer = (await this.call('getUtxosByAddresses', { addresses: [this.address] })) as { entries?: unknown };
    if (!Array.isArray(answer.entries)) throw this.malformed('getUtxosByAddresses', 'entries is not an array');
    return answer.entries.map((entry) => {
      const { outpoint, utxoEntry } = (entry ?? {}) as {
        outpoint?: Record<string, unknown>;
        utxoEntry?: Record<string, unknown>;
      };
      const spk = utxoEntry?.scriptPublicKey;
      if (spk !== this.scriptJson)
        throw this.malformed('getUtxosByAddresses', `an entry of another script: ${String(spk)}`);
      return {
        txid: this.hash(outpoint?.transactionId, 'outpoint transactionId'),
        index: Number(this.u64(outpoint?.index, 'outpoint index')),
        amount: this.u64(utxoEntry?.amount, 'amount'),
        scriptPublicKey: this.script,
        blockDaaScore: this.u64(utxoEntry?.blockDaaScore, 'blockDaaScore'),
        isCoinbase: utxoEntry?.isCoinbase === true,
      };
    });
  }

  /** UTXOs consensus lets the wallet spend now: every coinbase output past its maturity. */
  private async spendableUtxos(): Promise<Utxo[]> {
    const utxos = await this.utxos();
    if (!utxos.some((u) => u.isCoinbase)) return utxos;
    const virtualDaaScore = await this.virtualDaaScore();
    // tx_validation_in_utxo_context.rs `check_transaction_coinbase_maturity`: immature while score + maturity > virtual.
    return utxos.filter((u) => !u.isCoinbase || u.blockDaaScore + this.coinbaseMaturity <= virtualDaaScore);
  }

  private async virtualDaaScore(): Promise<bigint> {
    const info = (await this.call('getServerInfo', {})) as { virtualDaaScore?: unknown };
    return this.u64(info.virtualDaaScore, 'virtualDaaScore');
  }

  /** The transaction's acceptance on the virtual chain after `followFrom`, with its DAA depth. */
  private async findAccepted(tx: SignedTransaction): Promise<TransactionState | undefined> {
    if (tx.followFrom === undefined) {
      throw new WalletError('unknown', `transaction ${tx.txid} has no followFrom to look for it from`, {
        coin: this.coin,
      });
    }
    let start = tx.followFrom;
    // kaspad answers in batches of added chain blocks (rpc/service/src/service.rs, 10 × the mergeset limit).
    for (let page = 0; page < 1000; page++) {
      const answer = (await this.call('getVirtualChainFromBlock', {
        startHash: start,
        includeAcceptedTransactionIds: true,
      })) as { addedChainBlockHashes?: unknown; acceptedTransactionIds?: unknown };
      if (!Array.isArray(answer.addedChainBlockHashes) || !Array.isArray(answer.acceptedTransactionIds)) {
        throw this.malformed('getVirtualChainFromBlock', 'no addedChainBlockHashes / acceptedTransactionIds');
      }
      for (const block of answer.acceptedTransactionIds as {
        acceptingBlockHash?: unknown;
        acceptedTransactionIds?: unknown;
      }[]) {
        if (!Array.isArray(block?.acceptedTransactionIds))
          throw this.malformed('getVirtualChainFromBlock', 'bad accepted ids');
        if (!block.acceptedTransactionIds.includes(tx.txid)) continue;
        const accepting = this.hash(block.acceptingBlockHash, 'acceptingBlockHash');
        const found = (await this.call('getBlock', { hash: accepting, includeTransactions: false })) as {
          block?: { header?: { daaScore?: unknown } };
        };
        const blockScore = this.u64(found.block?.header?.daaScore, 'block daaScore');
        const virtual = await this.virtualDaaScore();
        const depth = virtual > blockScore ? virtual - blockScore : 0n;
        return { state: 'mined', confirmations: Number(depth), fee: tx.fee };
      }
      const added = answer.addedChainBlockHashes as unknown[];
      if (added.length === 0) return undefined;
      const next = this.hash(added[added.length - 1], 'addedChainBlockHashes');
      if (next === (await this.sink())) return undefined;
      start = next;
    }
    return undefined;
  }

  private async call(method: string, params: unknown): Promise<unknown> {
    try {
      const answer = await this.client.call(method, params);
      if (typeof answer !== 'object' || answer === null) throw this.malformed(method, 'the answer is not an object');
      return answer;
    } catch (error) {
      throw this.failure(error, method);
    }
  }

  private failure(error: unknown, method: string, mayHaveSent = false): WalletError {
    if (error instanceof WalletError) return error;
    if (error instanceof RpcError && (error.kind === 'unreachable' || error.kind === 'timeout')) {
      return new WalletError('unreachable', `kaspad ${method}: ${error.message}`, {
        coin: this.coin,
        mayHaveSent,
        cause: error,
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new WalletError('unknown', `kaspad ${method}: ${message}`, { coin: this.coin, mayHaveSent, cause: error });
  }

  private malformed(method: string, what: string): WalletError {
    return new WalletError('unknown', `kaspad ${method} answered something unexpected: ${what}`, { coin: this.coin });
  }

  private hash(value: unknown, what: string): string {
    if (typeof value !== 'string' || !/^[0-9a-f]{64}$/.test(value))
      throw this.malformed(what, `${String(value)} is not a hash`);
    return value;
  }

  private u64(value: unknown, what: string): bigint {
    if (typeof value === 'bigint' && value >= 0n) return value;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
    throw this.malformed(what, `${String(value)} is not a u64`);
  }
}

/**
 * How many payout outputs one transaction may carry when each is at least `minOutput` and the change
 * is kept at least `minOutput` too, so that every such transaction is standard:
 *
 * - storage mass (KIP-9): an output of o sompi adds at most C/o = 10^12/o grams (the inputs only take
 *   mass away), so n outputs and the change of at least m add at most (n + 1)·C/m ≤ 100,000, which
 *   gives n ≤ 100,000 / (C/m) − 1. At m = 1 KAS = 10^8 sompi: C/m = 10,000 grams, n ≤ 9;
 * - compute mass: 94 grams for the transaction, 1118 per P2PK input (118 bytes + 1000 for its
 *   sig-op), 412 for the P2PK change, at most 423 per output (a 35-byte P2SH/ECDSA script: 53 bytes +
 *   37 × 10); keeping room for 10 inputs: n ≤ (100,000 − 94 − 412 − 11,180) / 423 = 208.
 *
 * So 9 outputs at the default 1 KAS minimum, 99 at 10 KAS, and at most 208 whatever the minimum.
 */
export function maxOutputsFor(minOutput: bigint): number {
  const perOutput = STORAGE_MASS_PARAMETER / minOutput;
  const byStorage =
    perOutput === 0n ? MAXIMUM_STANDARD_TRANSACTION_MASS : MAXIMUM_STANDARD_TRANSACTION_MASS / perOutput - 1n;
  if (byStorage < 1n) {
    throw new RangeError(
      `a minimum output of ${minOutput} sompi leaves no room for an output beside its change within KIP-9's storage mass limit ` +
        `(at least ${(2n * STORAGE_MASS_PARAMETER) / MAXIMUM_STANDARD_TRANSACTION_MASS} sompi)`,
    );
  }
  const byCompute =
    (MAXIMUM_STANDARD_TRANSACTION_MASS -
      BLANK_TRANSACTION_MASS -
      P2PK_OUTPUT_COMPUTE_MASS -
      RESERVED_INPUTS * P2PK_INPUT_COMPUTE_MASS) /
    WORST_OUTPUT_COMPUTE_MASS;
  return Number(byStorage < byCompute ? byStorage : byCompute);
}

/** The fee: the feerate over the largest mass, never below the relay floor over compute/transient mass. */
function feeOf(rate: Feerate, m: Masses): bigint {
  const market = feeFor(rate, m.feeMass);
  const floor = minimumRelayFee(m.feeFloorMass);
  return market > floor ? market : floor;
}

/**
 * The fee and change when `available` = inputs − outputs: the change shrinks as the fee grows and
 * its storage mass grows as it shrinks, so settle on a fee that covers the masses of its own change.
 */
function settleFee(rate: Feerate, available: bigint, massesFor: (change: bigint) => Masses) {
  let fee = 0n;
  let m = massesFor(available > 0n ? available : 0n);
  for (let i = 0; i < 20; i++) {
    const needed = feeOf(rate, m);
    if (needed <= fee) break;
    fee = needed;
    const change = available - fee;
    m = massesFor(change > 0n ? change : 0n);
  }
  return { fee, change: available - fee, masses: m };
}

function sum(utxos: readonly Utxo[]): bigint {
  return utxos.reduce((s, u) => s + u.amount, 0n);
}
