/**
 * The pool's CKB wallet: payouts signed by the pool's own secp256k1 key (a secp256k1-blake160-sighash-all
 * lock), several payouts batched in one transaction, cells found through the node's indexer (the node
 * needs `Indexer` in rpc.modules). The promise of docs/money.md, "Payouts from pool-signed wallets", rests
 * on the signed transaction: its hash is known before broadcast and a rebroadcast sends the same bytes.
 */
import { ccc } from '@ckb-ccc/core';
import type { CkbJsonScript, CkbJsonTransaction } from '../../ckb/types.js';
import { CkbEncodingError } from '../../ckb/uint.js';
import { RpcClient } from '../../rpc/client.js';
import { RpcError } from '../../rpc/errors.js';
import type { SignedTransaction, SigningWallet, TransactionState } from '../signingWallet.js';
import { WalletError, type WalletErrorKind, type WalletOutput } from '../wallet.js';
import {
  buildPayout,
  feeFor,
  InsufficientCapacity,
  MAX_PAYOUT_OUTPUTS,
  MIN_FEE_RATE,
  MIN_PLAIN_CELL,
  type PlainCell,
  signPayout,
  TransactionTooLarge,
  toNodeJson,
} from './ckbPayout.js';
import { type CkbNetwork, payoutLock, SIGHASH_ALL_CODE_HASH } from './ckbPayoutLock.js';
import { CkbWalletNode } from './ckbWalletNode.js';

/**
 * The secp256k1 dep group cells of the public chains (nervosnetwork/rfcs rfcs/0024-ckb-genesis-script-list,
 * "secp256k1_blake160_sighash_all"; nervosnetwork/ckb docs/hashes.toml): the genesis block's second
 * transaction, output 0, on mainnet (Lina) and testnet (Aggron). A dev chain passes its own.
 */
export const SECP256K1_DEP_GROUPS: Record<CkbNetwork, { txHash: string; index: number }> = {
  ckb: { txHash: '0x71a7ba8fc96349fea0ed3a5c47992e3b4084b031a42264a018e0072e8172e46c', index: 0 },
  ckt: { txHash: '0xf8de3bb47d055cdf460d93a2a6e1b05f7432f9777c8c474abf4eec1d4aee5d37', index: 0 },
};

/** CCC's ceiling on a node's fee rate (@ckb-ccc/core client/clientTypes.advanced `DEFAULT_MAX_FEE_RATE`). */
const DEFAULT_MAX_FEE_RATE = 10_000_000n;

/** Pool refusals (nervosnetwork/ckb rpc/src/error.rs): already in the pool, inputs unresolved. */
const POOL_DUPLICATED = -1107;
const TRANSACTION_FAILED_TO_RESOLVE = -301;

export interface CkbWalletOptions {
  coin: 'CKB';
  /** The node's JSON-RPC URL (modules Chain, Pool and Indexer). */
  rpcUrl: string;
  /** The pool key: 32 bytes, 0x-hex. */
  privateKey: string;
  /** `ckb` mainnet (Lina), `ckt` testnet (Aggron) or a dev chain (whose addresses are ckt1…). */
  network: CkbNetwork;
  confirmations: number;
  /** The chain's secp256k1 dep group; mainnet's and testnet's by default (SECP256K1_DEP_GROUPS). */
  secp256k1CellDep?: { txHash: string; index: number };
  /** Per node call; 10 s by default. */
  timeoutMs?: number;
  /** Ceiling on the node's fee rate, shannons per 1000 bytes (default 10,000,000 as CCC). */
  maxFeeRate?: bigint;
  /** Cells per get_cells page (default 100). */
  indexerPageSize?: number;
}

export class CkbWallet implements SigningWallet {
  readonly kind = 'signing';
  readonly coin = 'CKB';
  readonly feeCoin = 'CKB';
  readonly address: string;
  readonly maxOutputs = MAX_PAYOUT_OUTPUTS;
  readonly minOutput = MIN_PLAIN_CELL;
  readonly confirmations: number;
  /** The pool's lock: secp256k1-blake160-sighash-all of the key. */
  readonly lock: CkbJsonScript;
  private readonly network: CkbNetwork;
  private readonly node: CkbWalletNode;
  private readonly signer: ccc.SignerCkbPrivateKey;
  private readonly depGroup: { txHash: string; index: number };
  private readonly maxFeeRate: bigint;
  private readonly pageSize: number;

  constructor(options: CkbWalletOptions) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(options.privateKey)) {
      throw new TypeError('CKB wallet: privateKey must be 32 bytes of 0x-hex');
    }
    if (!Number.isSafeInteger(options.confirmations) || options.confirmations < 1) {
      throw new TypeError('CKB wallet: confirmations must be a positive integer');
    }
    this.network = options.network;
    this.confirmations = options.confirmations;
    this.depGroup = options.secp256k1CellDep ?? SECP256K1_DEP_GROUPS[options.network];
    this.maxFeeRate = options.maxFeeRate ?? DEFAULT_MAX_FEE_RATE;
    this.pageSize = options.indexerPageSize ?? 100;
    this.node = new CkbWalletNode(
      new RpcClient({
        url: options.rpcUrl,
        jsonrpc: '2.0',
        // Every call may run twice: reads, and send_transaction of bytes the node may already hold.
        repeatOnClosedConnection: true,
        ...(options.timeoutMs && { timeoutMs: options.timeoutMs }),
      }),
    );
    // The signer's client is never called (the wallet asks the node itself); it points at the same node.
    const client =
      options.network === 'ckb'
        ? new ccc.ClientPublicMainnet({ url: options.rpcUrl, fallbacks: [] })
        : new ccc.ClientPublicTestnet({ url: options.rpcUrl, fallbacks: [] });
    this.signer = new ccc.SignerCkbPrivateKey(client, options.privateKey);
    const args = ccc.hashCkb(this.signer.publicKey).slice(0, 42);
    this.lock = { code_hash: SIGHASH_ALL_CODE_HASH, hash_type: 'type', args };
    this.address = ccc.Address.from({
      script: { codeHash: SIGHASH_ALL_CODE_HASH, hashType: 'type', args },
      prefix: options.network,
    }).toString();
  }

  async balance(): Promise<bigint> {
    return this.ask('balance', () => this.node.plainCapacity(this.lock));
  }

  async feeBalance(): Promise<bigint> {
    return this.balance();
  }

  /**
   * The fee of a transaction paying `outputs` outputs with change, spending every plain cell the pool lock
   * has now (no transaction can spend more), at the node's fee rate.
   */
  async feeEstimate(outputs: number): Promise<bigint> {
    const [cells, rate] = await Promise.all([
      this.ask('fee estimate', () => this.node.plainCells(this.lock, this.pageSize)),
      this.feeRate(),
    ]);
    const inputs: PlainCell[] = cells.length > 0 ? cells : [{ txHash: `0x${'00'.repeat(32)}`, index: 0, capacity: 0n }];
    const dummy = { lock: this.lock, capacity: MIN_PLAIN_CELL };
    const tx = ccc.Transaction.from({
      cellDeps: [{ outPoint: this.depGroup, depType: 'depGroup' }],
      inputs: inputs.map((c) => ({ previousOutput: { txHash: c.txHash, index: c.index } })),
      outputs: Array.from({ length: Math.max(outputs, 0) + 1 }, () => ({
        capacity: dummy.capacity,
        lock: { codeHash: dummy.lock.code_hash, hashType: dummy.lock.hash_type, args: dummy.lock.args },
      })),
      outputsData: Array.from({ length: Math.max(outputs, 0) + 1 }, () => '0x'),
      witnesses: inputs.map((_, i) =>
        i === 0 ? ccc.hexFrom(ccc.WitnessArgs.from({ lock: new Uint8Array(65) }).toBytes()) : '0x',
      ),
    });
    return feeFor(tx, rate);
  }

  async validateAddress(address: string): Promise<boolean> {
    try {
      payoutLock(address, this.network);
      return true;
    } catch {
      return false;
    }
  }

  async sign(outputs: readonly WalletOutput[], inFlight: readonly SignedTransaction[]): Promise<SignedTransaction> {
    if (outputs.length === 0) throw this.error('rejected', 'no outputs to pay');
    if (outputs.length > this.maxOutputs) {
      throw this.error('rejected', `${outputs.length} outputs, at most ${this.maxOutputs} in one transaction`);
    }
    const paid = outputs.map((output) => {
      let lock: CkbJsonScript;
      try {
        lock = payoutLock(output.address, this.network);
      } catch (error) {
        throw this.error('invalid-address', (error as Error).message);
      }
      if (output.amount >= 1n << 64n) {
        throw this.error(
          'rejected',
          `${output.amount} shannons to ${output.address} does not fit a cell's u64 capacity`,
        );
      }
      if (output.amount < this.minOutput) {
        throw this.error(
          'rejected',
          `${output.amount} shannons to ${output.address} is below ${this.minOutput}, the occupied capacity of a cell of that lock`,
        );
      }
      return { lock, capacity: output.amount };
    });
    const taken = new Set(inFlight.flatMap((tx) => tx.spends));
    const [cells, feeRate] = await Promise.all([
      this.ask('sign', () => this.node.plainCells(this.lock, this.pageSize)),
      this.feeRate(),
    ]);
    const free = cells.filter((c) => !taken.has(outPointId(c.txHash, c.index)));
    let built: ReturnType<typeof buildPayout>;
    try {
      built = buildPayout({ cells: free, outputs: paid, poolLock: this.lock, depGroup: this.depGroup, feeRate });
    } catch (error) {
      if (error instanceof InsufficientCapacity) {
        const inFlightNote =
          free.length < cells.length ? ` (${cells.length - free.length} cells held by transactions in flight)` : '';
        throw this.error('insufficient-funds', `${error.message}${inFlightNote}`);
      }
      if (error instanceof TransactionTooLarge) throw this.error('rejected', error.message);
      throw error;
    }
    const signed = await signPayout(built.tx, this.signer);
    return {
      txid: signed.hash(),
      raw: JSON.stringify(toNodeJson(signed)),
      fee: built.fee,
      spends: built.inputs.map((c) => outPointId(c.txHash, c.index)),
    };
  }

  /**
   * send_transaction with the `well_known_scripts_only` outputs validator: the node refuses an output to a
   * lock it does not know, a second guard behind payoutLock. Already in the pool is success; so is a
   * refusal for spent inputs when the node has the transaction itself (it was committed).
   */
  async broadcast(tx: SignedTransaction): Promise<void> {
    const json = parseRaw(tx, this.coin);
    try {
      await this.node.sendTransaction(json, 'well_known_scripts_only');
    } catch (error) {
      if (error instanceof RpcError && error.kind === 'rpc') {
        if (error.rpcCode === POOL_DUPLICATED) return;
        if (error.rpcCode === TRANSACTION_FAILED_TO_RESOLVE) {
          const status = await this.ask('broadcast', () => this.node.transactionStatus(tx.txid), true);
          if (status.status === 'committed' || status.status === 'pending' || status.status === 'proposed') return;
        }
        throw this.error('rejected', error.message, { rpcCode: error.rpcCode, cause: error, mayHaveSent: false });
      }
      throw this.nodeError('broadcast', error, true);
    }
  }

  async state(tx: SignedTransaction): Promise<TransactionState> {
    const status = await this.ask('state', () => this.node.transactionStatus(tx.txid));
    switch (status.status) {
      case 'pending':
      case 'proposed':
        return { state: 'pending' };
      case 'committed': {
        const tip = await this.ask('state', () => this.node.tipNumber());
        return { state: 'mined', confirmations: Math.max(tip - status.blockNumber + 1, 0), fee: tx.fee };
      }
      case 'rejected':
      case 'unknown': {
        // Dead only when the chain shows it: one of its inputs was spent (by another transaction, since
        // this one is not committed). A rejection with every input live (pool full, expired) leaves it
        // unknown, so the same bytes are sent again rather than new inputs signed beside it.
        for (const spend of tx.spends) {
          const [txHash, index] = splitOutPoint(spend, this.coin);
          const cell = await this.ask('state', () => this.node.cellStatus(txHash, index));
          if (cell === 'dead') {
            const why = status.status === 'rejected' ? `; the node rejected it: ${status.reason}` : '';
            return { state: 'dead', reason: `input ${spend} was spent by another transaction${why}` };
          }
        }
        return { state: 'unknown' };
      }
    }
  }

  /** The node's median fee rate, at least the 1000 shannons/KB floor, at most the ceiling. */
  private async feeRate(): Promise<bigint> {
    const median = await this.ask('fee rate', () => this.node.medianFeeRate());
    const rate = median === undefined || median < MIN_FEE_RATE ? MIN_FEE_RATE : median;
    return rate > this.maxFeeRate ? this.maxFeeRate : rate;
  }

  private async ask<T>(what: string, call: () => Promise<T>, mayHaveSent = false): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw this.nodeError(what, error, mayHaveSent);
    }
  }

  private nodeError(what: string, error: unknown, mayHaveSent: boolean): WalletError {
    if (error instanceof RpcError) {
      const kind: WalletErrorKind = error.kind === 'rpc' || error.kind === 'malformed' ? 'unknown' : 'unreachable';
      return this.error(kind, `${what}: ${error.message}`, { rpcCode: error.rpcCode, cause: error, mayHaveSent });
    }
    if (error instanceof CkbEncodingError) {
      return this.error('unknown', `${what}: the node's reply ${error.message}`, { cause: error, mayHaveSent });
    }
    return error instanceof WalletError
      ? error
      : this.error('unknown', `${what}: ${String(error)}`, { cause: error, mayHaveSent });
  }

  private error(
    kind: WalletErrorKind,
    message: string,
    details: { rpcCode?: number; cause?: unknown; mayHaveSent?: boolean } = {},
  ): WalletError {
    return new WalletError(kind, message, { coin: this.coin, mayHaveSent: details.mayHaveSent ?? false, ...details });
  }
}

/** The `spends` form of an out point: `<tx hash>:<index>`. */
export function outPointId(txHash: string, index: number): string {
  return `${txHash}:${index}`;
}

function splitOutPoint(spend: string, coin: string): [string, number] {
  const match = /^(0x[0-9a-f]{64}):(\d+)$/.exec(spend);
  if (!match) throw new WalletError('unknown', `stored spend ${spend} is not <tx hash>:<index>`, { coin });
  return [match[1] as string, Number(match[2])];
}

function parseRaw(tx: SignedTransaction, coin: string): CkbJsonTransaction {
  try {
    return JSON.parse(tx.raw) as CkbJsonTransaction;
  } catch (error) {
    throw new WalletError('unknown', `stored transaction ${tx.txid} is not JSON`, { coin, cause: error });
  }
}
