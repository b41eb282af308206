import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  formatUnits,
  type Hex,
  isAddress,
  isAddressEqual,
  keccak256,
  numberToHex,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerialized,
  zeroAddress,
} from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import type { SignedTransaction, SigningWallet, TransactionState } from '../signingWallet.js';
import { WalletError, type WalletOutput } from '../wallet.js';
import { EvmRpc } from './evmRpc.js';
import { bumpedFeeCaps, type FeeCaps, feeCapsFor } from './fees.js';
import { committedSpending, nextNonce, nonceOf } from './inFlight.js';

export interface EvmWalletOptions {
  /** Ticker of what it pays: `ETH`, or the token's (`USDC`). */
  coin: string;
  /** Ticker of the gas coin (`ETH`). */
  feeCoin: string;
  rpcUrl: string;
  /** The pool's hot wallet key. */
  privateKey: Hex;
  /** EIP-155 chain id the transactions are signed for (1 on Ethereum mainnet); the node must agree. */
  chainId: number;
  /** For a token wallet: the ERC-20 contract and its decimals (checked against the contract's own). */
  token?: { address: Address; decimals: number };
  confirmations: number;
  /** Ceiling of maxFeePerGas (wei per gas) of every transaction, the operator's limit. */
  maxFeePerGas: bigint;
  /** Gas limit of every transaction; DEFAULT_ETH_GAS_LIMIT or DEFAULT_TOKEN_GAS_LIMIT unless set. */
  gasLimit?: bigint;
  /** Per-call timeout (ms, default 15 000). */
  timeoutMs?: number;
}

/**
 * A transfer of ether to an account without code costs exactly the intrinsic 21 000 gas (Ethereum
 * Yellow Paper, G_transaction). A recipient with code (a contract or EIP-7702 delegated account) may
 * need more: the gas estimate before signing then refuses it instead of sending a transfer that fails.
 */
export const DEFAULT_ETH_GAS_LIMIT = 21_000n;
/**
 * An ERC-20 transfer to a first-time holder writes a zero slot (20 000 gas, EIP-2200/EIP-2929) on top of
 * the 21 000 intrinsic, two cold slot reads, calldata and the Transfer log: about 51 000 on TestUsd and
 * somewhat more on a proxied token such as USDC. 100 000 leaves room for that and is what the fee
 * check reserves; the node's gas estimate is checked against it before signing, so a token that needs
 * more is refused rather than sent to run out of gas. Unused gas is not charged.
 */
export const DEFAULT_TOKEN_GAS_LIMIT = 100_000n;
const DEFAULT_TIMEOUT_MS = 15_000;
const ETH_DECIMALS = 18;

/**
 * The pool's EVM hot wallet for ETH or one ERC-20 token (USDC), signed here with viem: one transfer per
 * transaction at consecutive nonces, EIP-1559 fees under the operator's ceiling, fee replacement at
 * the same nonce (docs/research/wallets.md §1). Gas is always paid in ETH from the same address.
 */
export class EvmWallet implements SigningWallet {
  readonly kind = 'signing';
  readonly coin: string;
  readonly feeCoin: string;
  readonly address: Address;
  readonly maxOutputs = 1;
  readonly minOutput = 1n;
  readonly confirmations: number;
  readonly chainId: number;
  readonly gasLimit: bigint;
  readonly maxFeePerGas: bigint;
  private readonly account: PrivateKeyAccount;
  private readonly token: { address: Address; decimals: number } | undefined;
  private readonly rpc: EvmRpc;
  /** The node's chain id (and the token's decimals) once checked; cleared when the check could not run. */
  private nodeChecked: Promise<void> | undefined;

  constructor(options: EvmWalletOptions) {
    const fail = (message: string): never => {
      throw new RangeError(`${options.coin} wallet: ${message}`);
    };
    if (!/^[A-Z0-9]{2,10}$/.test(options.coin) || !/^[A-Z0-9]{2,10}$/.test(options.feeCoin)) {
      fail('coin and feeCoin must be tickers');
    }
    if (!Number.isSafeInteger(options.chainId) || options.chainId <= 0) fail('chainId must be a positive integer');
    if (!Number.isSafeInteger(options.confirmations) || options.confirmations < 1) {
      fail('confirmations must be a positive integer');
    }
    if (options.maxFeePerGas <= 0n) fail('maxFeePerGas must be positive');
    if (options.token) {
      if (!isAddress(options.token.address) || isAddressEqual(options.token.address, zeroAddress)) {
        fail(`token address ${options.token.address} is not a contract address`);
      }
      const { decimals } = options.token;
      if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36) fail('token decimals must be 0 to 36');
    } else if (options.coin !== options.feeCoin) {
      fail('an ETH wallet pays fees in its own coin: coin and feeCoin must be the same');
    }
    this.gasLimit = options.gasLimit ?? (options.token ? DEFAULT_TOKEN_GAS_LIMIT : DEFAULT_ETH_GAS_LIMIT);
    if (this.gasLimit < DEFAULT_ETH_GAS_LIMIT) fail('gasLimit must be at least 21000');
    if (!/^0x[0-9a-fA-F]{64}$/.test(options.privateKey)) fail('privateKey must be 32 bytes of hex');
    this.coin = options.coin;
    this.feeCoin = options.feeCoin;
    this.chainId = options.chainId;
    this.confirmations = options.confirmations;
    this.maxFeePerGas = options.maxFeePerGas;
    this.token = options.token;
    this.account = privateKeyToAccount(options.privateKey);
    this.address = this.account.address;
    this.rpc = new EvmRpc(options.coin, options.rpcUrl, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  }

  async validateAddress(address: string): Promise<boolean> {
    return this.isPayable(address);
  }

  async balance(): Promise<bigint> {
    return this.token ? this.tokenBalance() : this.ethBalance();
  }

  async feeBalance(): Promise<bigint> {
    return this.ethBalance();
  }

  async feeEstimate(outputs: number): Promise<bigint> {
    if (!Number.isSafeInteger(outputs) || outputs < 0) throw new RangeError('outputs must be a whole number');
    const caps = await this.currentFeeCaps();
    // One transaction per output, each at most gasLimit × maxFeePerGas; above the ceiling, what it allows.
    return BigInt(outputs) * this.gasLimit * (caps?.maxFeePerGas ?? this.maxFeePerGas);
  }

  async sign(outputs: readonly WalletOutput[], inFlight: readonly SignedTransaction[]): Promise<SignedTransaction> {
    const output = this.checkOutputs(outputs);
    await this.checkNode();
    const [pendingCount, latestCount, caps, eth, tokens] = await Promise.all([
      this.transactionCount('pending'),
      this.transactionCount('latest'),
      this.currentFeeCaps(),
      this.ethBalance(),
      this.token ? this.tokenBalance() : Promise.resolve(0n),
    ]);
    if (caps === undefined) {
      throw this.error(
        'rejected',
        `the network's base fee is above the configured ceiling of ${this.maxFeePerGas} wei per gas; nothing is signed until it falls`,
      );
    }
    const nonce = this.guard(() => nextNonce(pendingCount, inFlight));
    const committed = this.guard(() => committedSpending(inFlight, latestCount, this.token?.address));
    const fee = this.gasLimit * caps.maxFeePerGas;
    const call = this.transferCall(output);
    this.checkFunds({ ethAvailable: eth - committed.eth, tokenAvailable: tokens - committed.token, fee, output });
    await this.checkGas(call);
    const raw = await this.account.signTransaction({
      type: 'eip1559',
      chainId: this.chainId,
      nonce,
      gas: this.gasLimit,
      ...caps,
      ...call,
    });
    return { txid: keccak256(raw), raw, fee, spends: [`nonce:${nonce}`] };
  }

  async broadcast(tx: SignedTransaction): Promise<void> {
    const reply = await this.rpc.request('eth_sendRawTransaction', [tx.raw], true);
    if (reply.ok) {
      if (typeof reply.result !== 'string' || reply.result.toLowerCase() !== tx.txid.toLowerCase()) {
        throw new WalletError(
          'unknown',
          `eth_sendRawTransaction answered ${JSON.stringify(reply.result)} for transaction ${tx.txid}`,
          { coin: this.coin, mayHaveSent: true },
        );
      }
      return;
    }
    const { message } = reply.refusal;
    // The node has it in its pool: go-ethereum core/txpool/errors.go "already known" (also Erigon and
    // Reth); Hardhat "Known transaction: 0x…" (seen here).
    if (/already known|known transaction/i.test(message)) return;
    // The nonce is used: by this very transaction (mined, success) or by another one (it is dead).
    // go-ethereum core/error.go "nonce too low"; Hardhat "Nonce too low" / "Transaction nonce too low".
    if (/nonce too low/i.test(message)) {
      if ((await this.receipt(tx.txid)) !== null) return;
      throw new WalletError(
        'rejected',
        `nonce ${this.guard(() => nonceOf(tx))} of transaction ${tx.txid} is already used by another transaction (${message})`,
        { coin: this.coin, rpcCode: reply.refusal.code },
      );
    }
    throw this.rpc.refused('eth_sendRawTransaction', reply.refusal, true);
  }

  async state(tx: SignedTransaction): Promise<TransactionState> {
    const nonce = this.guard(() => nonceOf(tx));
    const mined = await this.minedState(tx.txid);
    if (mined) return mined;
    if ((await this.rpc.call('eth_getTransactionByHash', [tx.txid])) !== null) return { state: 'pending' };
    // Neither mined nor pooled. If the nonce is used at a depth of `confirmations` blocks, another
    // transaction took it for good; if only in newer blocks, a reorganisation may still bring this one
    // back, so it is not given up yet (the caller waits as for a pending one). The count at that height
    // is recent state, which a full node keeps (go-ethereum: the last 128 blocks), no archive needed.
    const tip = await this.blockNumber();
    const deep = Math.max(tip - this.confirmations + 1, 0);
    if ((await this.transactionCount(numberToHex(deep))) > nonce) {
      // It may itself have been mined since its receipt was asked for: `dead` must never be said of it.
      return (
        (await this.minedState(tx.txid)) ?? {
          state: 'dead',
          reason: `nonce ${nonce} was used by another transaction at least ${this.confirmations} blocks deep`,
        }
      );
    }
    if ((await this.transactionCount('latest')) > nonce) return { state: 'pending' };
    return { state: 'unknown' };
  }

  async replace(tx: SignedTransaction): Promise<SignedTransaction | undefined> {
    const previous = this.guard(() => parseTransaction(tx.raw as Hex));
    const nonce = this.guard(() => nonceOf(tx));
    if (
      previous.type !== 'eip1559' ||
      previous.chainId !== this.chainId ||
      previous.nonce !== nonce ||
      previous.gas === undefined ||
      previous.maxFeePerGas === undefined ||
      previous.maxPriorityFeePerGas === undefined
    ) {
      throw this.error(
        'rejected',
        `transaction ${tx.txid} is not an EIP-1559 transaction of this wallet at nonce ${nonce}`,
      );
    }
    const signer = await recoverTransactionAddress({ serializedTransaction: tx.raw as TransactionSerialized });
    if (!isAddressEqual(signer, this.address)) {
      throw this.error('rejected', `transaction ${tx.txid} was signed by ${signer}, not by this wallet`);
    }
    const caps = bumpedFeeCaps(
      { maxFeePerGas: previous.maxFeePerGas, maxPriorityFeePerGas: previous.maxPriorityFeePerGas },
      await this.currentFeeCaps(),
      this.maxFeePerGas,
    );
    if (caps === undefined) return undefined;
    const raw = await this.account.signTransaction({
      type: 'eip1559',
      chainId: this.chainId,
      nonce,
      gas: previous.gas,
      ...caps,
      ...(previous.to ? { to: previous.to } : {}),
      value: previous.value ?? 0n,
      ...(previous.data ? { data: previous.data } : {}),
    });
    return { txid: keccak256(raw), raw, fee: previous.gas * caps.maxFeePerGas, spends: [...tx.spends] };
  }

  private isPayable(address: string): address is Address {
    // viem's isAddress checks the EIP-55 checksum of a mixed-case address; the zero address burns coins,
    // and the token contract would keep tokens sent to it for good.
    if (!isAddress(address) || isAddressEqual(address, zeroAddress)) return false;
    return !(this.token && isAddressEqual(address, this.token.address));
  }

  private checkOutputs(outputs: readonly WalletOutput[]): WalletOutput & { address: Address } {
    const [output] = outputs;
    if (outputs.length !== 1 || output === undefined) {
      throw this.error('rejected', `one transaction pays exactly one output, not ${outputs.length}`);
    }
    if (typeof output.amount !== 'bigint' || output.amount < this.minOutput) {
      throw this.error('rejected', `an output of ${String(output.amount)} is below the minimum of ${this.minOutput}`);
    }
    if (!this.isPayable(output.address)) {
      throw this.error('invalid-address', `${JSON.stringify(output.address)} is not a payable ${this.coin} address`);
    }
    return { address: output.address, amount: output.amount };
  }

  private transferCall(output: { address: Address; amount: bigint }): { to: Address; value: bigint; data?: Hex } {
    if (!this.token) return { to: output.address, value: output.amount };
    return {
      to: this.token.address,
      value: 0n,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [output.address, output.amount] }),
    };
  }

  private checkFunds(funds: { ethAvailable: bigint; tokenAvailable: bigint; fee: bigint; output: WalletOutput }): void {
    const { ethAvailable, tokenAvailable, fee, output } = funds;
    const eth = (wei: bigint): string => `${formatUnits(wei, ETH_DECIMALS)} ${this.feeCoin}`;
    if (this.token) {
      if (tokenAvailable < output.amount) {
        const token = (units: bigint): string => `${formatUnits(units, this.token?.decimals ?? 0)} ${this.coin}`;
        throw this.error(
          'insufficient-funds',
          `${this.coin} is short: ${token(output.amount)} to pay, ${token(tokenAvailable > 0n ? tokenAvailable : 0n)} available after the transactions in flight`,
        );
      }
      if (ethAvailable < fee) {
        throw this.error(
          'insufficient-funds',
          `${this.feeCoin} for gas is short: up to ${eth(fee)} of fee, ${eth(ethAvailable > 0n ? ethAvailable : 0n)} available after the transactions in flight`,
        );
      }
      return;
    }
    if (ethAvailable < output.amount + fee) {
      throw this.error(
        'insufficient-funds',
        `${this.coin} is short: ${eth(output.amount)} to pay plus up to ${eth(fee)} of fee, ${eth(ethAvailable > 0n ? ethAvailable : 0n)} available after the transactions in flight`,
      );
    }
  }

  /** The node runs the transfer: a revert or a need for more gas than the limit is refused before signing. */
  private async checkGas(call: { to: Address; value: bigint; data?: Hex }): Promise<void> {
    // Ether to an account without code costs the intrinsic gas, no more: go-ethereum's estimator tries
    // exactly 21 000 first in that case and answers it (eth/gasestimator/gasestimator.go, "plain value
    // transfer"), while Hardhat's binary search answers 21 001 (seen here): ask only about recipients
    // with code.
    if (call.data === undefined) {
      const code = this.rpc.toData('eth_getCode', await this.rpc.call('eth_getCode', [call.to, 'latest']));
      if (code === '0x') return;
    }
    const request = {
      from: this.address,
      to: call.to,
      value: numberToHex(call.value),
      ...(call.data ? { data: call.data } : {}),
    };
    const reply = await this.rpc.request('eth_estimateGas', [request]);
    if (!reply.ok) {
      const refused = this.rpc.refused('eth_estimateGas', reply.refusal);
      if (refused.kind !== 'rejected') throw refused;
      throw this.error('rejected', `the transfer would fail: ${reply.refusal.message}`, reply.refusal.code);
    }
    const gas = this.rpc.toQuantity('eth_estimateGas', reply.result);
    if (gas > this.gasLimit) {
      throw this.error(
        'rejected',
        `the transfer to ${call.to} needs ${gas} gas, more than the configured limit of ${this.gasLimit}`,
      );
    }
  }

  /** Checked before the first signature until it passes: the node's chain, and the token's decimals. */
  private checkNode(): Promise<void> {
    this.nodeChecked ??= this.readNode().catch((error: unknown) => {
      // Only a passed check is kept: a node fixed or reconfigured meanwhile is read again.
      this.nodeChecked = undefined;
      throw error;
    });
    return this.nodeChecked;
  }

  private async readNode(): Promise<void> {
    const chainId = await this.rpc.quantity('eth_chainId');
    if (chainId !== BigInt(this.chainId)) {
      throw this.error(
        'rejected',
        `the node is on chain ${chainId}, the wallet is configured for chain ${this.chainId}`,
      );
    }
    if (!this.token) return;
    const result = await this.rpc.call('eth_call', [
      { to: this.token.address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' }) },
      'latest',
    ]);
    const decimals = this.decode('decimals', result, (data) =>
      decodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', data }),
    );
    if (decimals !== this.token.decimals) {
      throw this.error(
        'rejected',
        `the token at ${this.token.address} has ${decimals} decimals, the wallet is configured for ${this.token.decimals}`,
      );
    }
  }

  private async ethBalance(): Promise<bigint> {
    return this.rpc.quantity('eth_getBalance', [this.address, 'latest']);
  }

  private async tokenBalance(): Promise<bigint> {
    if (!this.token) throw new Error('not a token wallet');
    const result = await this.rpc.call('eth_call', [
      {
        to: this.token.address,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [this.address] }),
      },
      'latest',
    ]);
    return this.decode('balanceOf', result, (data) =>
      decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data }),
    );
  }

  /** An eth_call answer of the token, decoded; an answer of no ERC-20 shape is `unknown`. */
  private decode<T>(functionName: string, result: unknown, decode: (data: Hex) => T): T {
    const data = this.rpc.toData(`eth_call ${functionName}`, result);
    try {
      return decode(data);
    } catch (error) {
      throw new WalletError(
        'unknown',
        `${functionName}() of ${this.token?.address} answered ${data}, not an ERC-20 answer (is it the token's address?)`,
        { coin: this.coin, cause: error },
      );
    }
  }

  private async transactionCount(block: 'latest' | 'pending' | Hex): Promise<number> {
    return this.rpc.toCount(
      'eth_getTransactionCount',
      await this.rpc.call('eth_getTransactionCount', [this.address, block]),
    );
  }

  private async blockNumber(): Promise<number> {
    return this.rpc.toCount('eth_blockNumber', await this.rpc.call('eth_blockNumber'));
  }

  /** Fee caps for a transaction now, or undefined when the base fee is above the ceiling. */
  private async currentFeeCaps(): Promise<FeeCaps | undefined> {
    const [block, tip] = await Promise.all([
      this.rpc.call('eth_getBlockByNumber', ['latest', false]),
      this.rpc.quantity('eth_maxPriorityFeePerGas'),
    ]);
    const baseFee = this.rpc.toQuantity(
      'the latest block',
      (block as { baseFeePerGas?: unknown } | null)?.baseFeePerGas,
    );
    return feeCapsFor(baseFee, tip, this.maxFeePerGas);
  }

  private async receipt(txid: string): Promise<Receipt | null> {
    const receipt = await this.rpc.call('eth_getTransactionReceipt', [txid]);
    if (receipt === null) return null;
    const { blockNumber, blockHash, status, gasUsed, effectiveGasPrice } = (receipt ?? {}) as Record<string, unknown>;
    const what = `the receipt of ${txid}`;
    return {
      blockNumber: this.rpc.toCount(what, blockNumber),
      blockHash: this.rpc.toData(what, blockHash),
      status: this.rpc.toQuantity(what, status),
      gasUsed: this.rpc.toQuantity(what, gasUsed),
      effectiveGasPrice: effectiveGasPrice === undefined ? undefined : this.rpc.toQuantity(what, effectiveGasPrice),
    };
  }

  /** Mined or reverted, from its receipt, when its block is the best chain's at that height (else a reorg moved it). */
  private async minedState(txid: string): Promise<TransactionState | undefined> {
    const receipt = await this.receipt(txid);
    if (receipt === null) return undefined;
    const [block, tip] = await Promise.all([
      this.rpc.call('eth_getBlockByNumber', [numberToHex(receipt.blockNumber), false]),
      this.blockNumber(),
    ]);
    const hash = (block as { hash?: unknown } | null)?.hash;
    if (typeof hash !== 'string' || hash.toLowerCase() !== receipt.blockHash.toLowerCase()) return undefined;
    const confirmations = Math.max(tip - receipt.blockNumber + 1, 1);
    const fee = receipt.effectiveGasPrice === undefined ? undefined : receipt.gasUsed * receipt.effectiveGasPrice;
    const paid = fee === undefined ? {} : { fee };
    if (receipt.status === 1n) return { state: 'mined', confirmations, ...paid };
    return {
      state: 'reverted',
      confirmations,
      reason: 'the transfer reverted (receipt status 0): no coin moved',
      ...paid,
    };
  }

  private guard<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      if (error instanceof WalletError) throw error;
      throw new WalletError('unknown', `a stored transaction cannot be read: ${(error as Error).message}`, {
        coin: this.coin,
        cause: error,
      });
    }
  }

  private error(
    kind: 'insufficient-funds' | 'invalid-address' | 'rejected',
    message: string,
    rpcCode?: number,
  ): WalletError {
    return new WalletError(kind, message, { coin: this.coin, ...(rpcCode === undefined ? {} : { rpcCode }) });
  }
}

interface Receipt {
  blockNumber: number;
  blockHash: Hex;
  status: bigint;
  gasUsed: bigint;
  effectiveGasPrice: bigint | undefined;
}
