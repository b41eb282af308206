import type { SubmitBlockResult } from '../job.js';
import { JobSourceConfigError } from '../jobs/daemonJobSource.js';
import { NodePolling } from '../jobs/nodePolling.js';
import type { ChainLogger } from '../logger.js';
import { BitcoinRpc } from '../rpc/bitcoinRpc.js';
import type { RpcClient, RpcClientOptions } from '../rpc/client.js';
import { DaemonPool } from '../rpc/daemonPool.js';
import { RpcError } from '../rpc/errors.js';
import { blockStatus } from '../wallet/blockStatus.js';
import { type AuxBlock, AuxRpc } from './auxRpc.js';

export interface AuxChainOptions {
  /** Ticker of the aux coin, e.g. DOGE. */
  coin: string;
  /** The chain id its blocks carry (Dogecoin: 0x62); an answer with another one pauses the chain. */
  chainId: number;
  /** The aux coin's daemons, preferred first. */
  daemons: readonly (string | RpcClient | RpcClientOptions)[] | DaemonPool;
  /** Where the aux blocks pay (createauxblock's address). */
  payoutAddress: string;
  /** How often the aux chain's best block is polled (ms, default 1000). */
  pollIntervalMs?: number;
  /** Aux work on the same tip is asked again this often, for new fees (ms, default 30 000). */
  refreshIntervalMs?: number;
  /**
   * The target its shares are valued at when it is not the aux block's own (the demo network's aux
   * chains: a real coin's difficulty; MergedChainWork.valuationTarget).
   */
  valuationTarget?: bigint;
  logger?: ChainLogger;
  /** Epoch ms clock, for tests. */
  now?: () => number;
}

/** createauxblock takes a block, not a template: allow the daemon the time a block assembly takes. */
const CREATE_TIMEOUT_MS = 30_000;
/** submitauxblock checks the proof and connects the block. */
const SUBMIT_TIMEOUT_MS = 60_000;

/**
 * One aux chain of merged mining: the block its daemon wants mined now, followed by polling the
 * daemon's best block (a new tip asks for a new aux block at once; the same tip is asked again every
 * `refreshIntervalMs`). Anything wrong with the daemon — out of reach, an answer for another chain id,
 * a malformed hash — pauses this chain alone: it leaves the parent's jobs (one log line says why) and
 * comes back with one more line when the daemon answers well again. The parent chain never waits on it.
 */
export class AuxChainSource {
  readonly coin: string;
  readonly chainId: number;
  readonly valuationTarget: bigint | undefined;
  readonly pool: DaemonPool;
  private readonly aux: AuxRpc;
  private readonly rpc: BitcoinRpc;
  private readonly options: AuxChainOptions;
  private readonly now: () => number;
  private readonly polling: NodePolling;
  private readonly listeners = new Set<() => void>();
  private block: AuxBlock | undefined;
  private fetchedAt = 0;
  /** The daemon's best block as last seen (set even while paused), for the stale check of a submission. */
  private tip: string | undefined;
  private pausedFor: string | undefined;
  private readonly accepted = new Set<string>();
  /** Set once the daemon said the payout address is its chain's (asked until it can answer). */
  private addressChecked = false;

  constructor(options: AuxChainOptions) {
    this.options = options;
    this.coin = options.coin;
    this.chainId = options.chainId;
    this.valuationTarget = options.valuationTarget;
    this.now = options.now ?? Date.now;
    const poolOptions = options.logger ? { logger: options.logger } : {};
    this.pool = options.daemons instanceof DaemonPool ? options.daemons : new DaemonPool(options.daemons, poolOptions);
    this.aux = new AuxRpc(this.pool);
    this.rpc = new BitcoinRpc(this.pool);
    // Failures are reported by pause(), once per reason; the polling's own lines would repeat them.
    this.polling = new NodePolling({
      intervalMs: options.pollIntervalMs ?? 1000,
      poll: () => this.poll(),
      fields: { coin: options.coin },
      what: 'aux daemon',
    });
  }

  /** The aux block to commit to now; undefined while the chain is paused (or before its first answer). */
  current(): AuxBlock | undefined {
    return this.block;
  }

  /** Why the chain is paused, when it is. */
  get paused(): string | undefined {
    return this.pausedFor;
  }

  /** Called whenever the aux block to mine changes (a new one, or none: paused). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Checks the payout address with the daemon — refused when the daemon says it is not one of its
   * chain's (a configuration error) — and asks for the first aux block. A daemon out of reach does not
   * stop the start: the chain starts paused and joins the jobs when the daemon answers.
   */
  async start(): Promise<void> {
    if (this.polling.active) return;
    try {
      await this.fetch();
    } catch (error) {
      if (error instanceof JobSourceConfigError) throw error;
      this.pause(error);
    }
    this.polling.start();
  }

  async stop(): Promise<void> {
    await this.polling.stop();
  }

  /**
   * Submits a solved aux block. A block of an earlier tip is not sent: the daemon has forgotten it
   * (Dogecoin drops its aux blocks when the tip moves), and it could no longer join the chain.
   */
  async submit(block: AuxBlock, auxpowHex: string): Promise<SubmitBlockResult> {
    const { hash } = block;
    // Another share of the same aux block already made it: Dogecoin would answer true again, and a
    // duplicate is not a second block.
    if (this.accepted.has(hash) || this.tip === hash) {
      return { accepted: false, hash, reason: `duplicate: the ${this.coin} block was already accepted` };
    }
    if (this.tip !== undefined && this.tip !== block.previousBlockHash) {
      return {
        accepted: false,
        hash,
        reason: `stale: the ${this.coin} chain moved on from ${block.previousBlockHash}`,
      };
    }
    const details = { coin: this.coin, height: block.height, hash };
    let result: SubmitBlockResult;
    try {
      const accepted = await this.aux.submitAuxBlock(hash, auxpowHex, { timeoutMs: SUBMIT_TIMEOUT_MS });
      result = accepted
        ? { accepted: true, hash }
        : { accepted: false, hash, reason: `the ${this.coin} daemon refused the AuxPoW (submitauxblock: false)` };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // The answer was lost (a timeout, a reset) after the daemon may have taken the block: ask it.
      result = (await this.onChain(hash)) ? { accepted: true, hash } : { accepted: false, hash, reason };
    }
    if (result.accepted) this.remember(hash);
    if (result.accepted) this.options.logger?.info(details, 'aux block accepted by the aux daemon');
    else this.options.logger?.error({ ...details, reason: result.reason }, 'aux block refused');
    if (this.polling.active) void this.polling.soon(() => this.poll());
    return result;
  }

  /** True when the daemons hold the block on their main chain (a lost submitauxblock answer). */
  private async onChain(hash: string): Promise<boolean> {
    try {
      return (await blockStatus(this.pool, hash)).kind === 'in-main-chain';
    } catch {
      return false;
    }
  }

  /** The aux blocks accepted lately (the oldest forgotten past 64). */
  private remember(hash: string): void {
    this.accepted.add(hash);
    if (this.accepted.size > 64) this.accepted.delete(this.accepted.values().next().value as string);
  }

  private async poll(): Promise<void> {
    try {
      const tip = await this.rpc.getBestBlockHash();
      this.tip = tip;
      const refreshDue = this.now() - this.fetchedAt >= (this.options.refreshIntervalMs ?? 30_000);
      if (this.block === undefined || tip !== this.block.previousBlockHash || refreshDue) await this.fetch();
    } catch (error) {
      this.pause(error);
    }
  }

  /**
   * The payout address must be of the daemon's chain. Refused at start it is a configuration error;
   * found wrong later (the daemon was out of reach at start) it pauses the chain, since blocks paying
   * another chain's address would be lost.
   */
  private async checkAddress(): Promise<void> {
    if (this.addressChecked) return;
    const validation = await this.rpc.validateAddress(this.options.payoutAddress);
    if (!validation.isValid) {
      throw new JobSourceConfigError(
        `${this.coin} payout address ${this.options.payoutAddress} is not valid for the ${this.coin} daemon's network`,
      );
    }
    this.addressChecked = true;
  }

  private async fetch(): Promise<void> {
    await this.checkAddress();
    const block = await this.aux.createAuxBlock(this.options.payoutAddress, { timeoutMs: CREATE_TIMEOUT_MS });
    if (block.chainId !== this.chainId) {
      throw new Error(
        `the ${this.coin} daemon answered chain id ${block.chainId}; ${this.coin} is configured with ${this.chainId}`,
      );
    }
    this.fetchedAt = this.now();
    this.tip = block.previousBlockHash;
    if (this.pausedFor !== undefined) {
      this.options.logger?.info({ coin: this.coin, height: block.height }, `aux chain ${this.coin} resumed`);
      this.pausedFor = undefined;
    }
    if (this.block?.hash === block.hash) return;
    this.block = block;
    this.changed();
  }

  private pause(error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    if (this.pausedFor !== reason) {
      const kind = error instanceof RpcError ? error.kind : 'answer';
      this.options.logger?.warn(
        { coin: this.coin, kind, reason },
        `aux chain ${this.coin} paused: ${reason}; the parent chain mines on without it`,
      );
      this.pausedFor = reason;
    }
    if (this.block === undefined) return;
    this.block = undefined;
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.options.logger?.error({ err: error, coin: this.coin }, 'aux chain listener failed');
      }
    }
  }
}
