import type { MergedChainWork, MergedMining } from '../auxpow/merged.js';
import { addressToScript } from '../bitcoin/address.js';
import { bytesToHex, hexToBytes } from '../bitcoin/bytes.js';
import { HEADER_SIZE } from '../bitcoin/header.js';
import type { ChainNetwork } from '../bitcoin/networks.js';
import { DASH_TEMPLATE_DIALECT } from '../dash/template.js';
import type { BitcoinJob, JobSource, SubmitBlockResult } from '../job.js';
import type { ChainLogger } from '../logger.js';
import { type BitcoinAlgorithm, blockHashHex } from '../pow.js';
import { BitcoinRpc } from '../rpc/bitcoinRpc.js';
import type { RpcClient, RpcClientOptions } from '../rpc/client.js';
import { DaemonPool } from '../rpc/daemonPool.js';
import { RpcError } from '../rpc/errors.js';
import type { BlockTemplate, TemplateDialect } from '../rpc/template.js';
import { NodePolling } from './nodePolling.js';
import { PublishingJobSource } from './publishingJobSource.js';

export interface DaemonJobSourceOptions {
  /** Ticker of the coin, e.g. `LTC`. */
  coin: string;
  algorithm: BitcoinAlgorithm;
  /** The coin's daemons, preferred first: `http://user:password@host:port/` (or clients / a pool). */
  daemons: readonly (string | RpcClient | RpcClientOptions)[] | DaemonPool;
  /** Where the coinbase pays. Checked with the daemon's validateaddress at start. */
  poolAddress: string;
  /** When given, the address is also decoded locally and must give the script the daemon reports. */
  network?: ChainNetwork;
  /**
   * How the coin's templates extend getblocktemplate (Dash: masternode and superblock payees, the CbTx
   * payload); by default `defaultDialect(coin)`. Without one, templates with such fields are refused.
   */
  dialect?: TemplateDialect;
  /** getblocktemplate rules; by default `["mweb","segwit"]` for LTC and `["segwit"]` otherwise. */
  rules?: readonly string[];
  /** How often the best block is polled (ms, default 1000). */
  pollIntervalMs?: number;
  /** A job with the same previous block is refreshed (new transactions, time) this often (ms, default 30 000). */
  refreshIntervalMs?: number;
  /** Use getblocktemplate long polling as well as polling (default true). */
  longPoll?: boolean;
  /** How long one long poll may wait before it is re-issued (ms, default 120 000). */
  longPollTimeoutMs?: number;
  /**
   * First wait before a found block is submitted again when no daemon could take it (ms, default
   * 500); it doubles up to 5 s.
   */
  submitRetryMs?: number;
  /** Bytes of extranonce1 + extranonce2 (default 8). */
  extranonceSize?: number;
  /** Text in every coinbase, e.g. `/lodestone/`. */
  poolTag?: string;
  /**
   * The aux chains merge-mined with this coin (SCRYPT: Dogecoin, Bellscoin): every job commits to
   * their current blocks, and a change of theirs makes a new job that is not clean (miners keep their
   * work; the parent's block did not change).
   */
  merged?: MergedMining;
  logger?: ChainLogger;
  /** Epoch ms clock, for tests. */
  now?: () => number;
}

/** submitblock validates the whole block: allow it more time than an ordinary call. */
const SUBMIT_TIMEOUT_MS = 60_000;

/** getblocktemplate rules a coin needs; Litecoin refuses templates without `mweb` since 0.21.2. */
export function defaultRules(coin: string): string[] {
  return coin.toUpperCase() === 'LTC' ? ['mweb', 'segwit'] : ['segwit'];
}

/** The template dialect a coin needs, by ticker: Dash's masternode payments and CbTx (DASH, and tDASH on testnet). */
export function defaultDialect(coin: string): TemplateDialect | undefined {
  return ['DASH', 'TDASH'].includes(coin.toUpperCase()) ? DASH_TEMPLATE_DIALECT : undefined;
}

/** Something in the configuration that makes the source unable to start (bad pool address, ...). */
export class JobSourceConfigError extends Error {
  override readonly name = 'JobSourceConfigError';
}

/**
 * Jobs from coin daemons. The best block hash is polled every `pollIntervalMs` (and a long poll waits
 * for the daemon to announce a change); a new previous block makes a clean job at once, and with the
 * same previous block the job is refreshed every `refreshIntervalMs` to pick up new transactions and
 * time. Blocks are submitted to every daemon.
 */
export class DaemonJobSource extends PublishingJobSource implements JobSource {
  readonly demo = false;
  readonly pool: DaemonPool;
  private readonly rpc: BitcoinRpc;
  private readonly options: DaemonJobSourceOptions;
  private readonly rules: readonly string[];
  private readonly dialect: TemplateDialect | undefined;
  private readonly now: () => number;
  private payoutScript: Buffer | undefined;
  private readonly polling: NodePolling;
  private longPollAbort: AbortController | undefined;
  private longPollDone: Promise<void> | undefined;
  /** Template updates run one at a time, in order. */
  /** The newest long-poll id a daemon gave, so a long poll waits for changes after what we saw. */
  private longPollId: string | undefined;
  private stopMerged: (() => void) | undefined;
  /**
   * When the current job's template was taken (epoch ms): a job republished for the aux chains keeps
   * it, so their changes never hold back the template's refresh.
   */
  private templateAt = 0;

  constructor(options: DaemonJobSourceOptions) {
    const { coin, algorithm, extranonceSize, poolTag, logger } = options;
    super({ coin, algorithm, extranonceSize, poolTag, logger });
    this.options = options;
    this.rules = options.rules ?? defaultRules(options.coin);
    this.now = options.now ?? Date.now;
    const poolOptions = options.logger ? { logger: options.logger } : {};
    this.pool = options.daemons instanceof DaemonPool ? options.daemons : new DaemonPool(options.daemons, poolOptions);
    this.dialect = 'dialect' in options ? options.dialect : defaultDialect(options.coin);
    this.rpc = new BitcoinRpc(this.pool, this.dialect);
    this.polling = new NodePolling({
      intervalMs: options.pollIntervalMs ?? 1000,
      poll: () => this.poll(),
      logger,
      fields: { coin: options.coin },
      what: 'coin daemon',
    });
  }

  /**
   * Checks the pool address with the daemon and fetches the first template; rejects (and leaves nothing
   * running) when the address is wrong for the daemon's network or no daemon can give a template.
   */
  async start(): Promise<void> {
    if (this.running) return;
    this.payoutScript = await this.resolvePayoutScript();
    const template = await this.fetchTemplate();
    const { merged } = this.options;
    if (merged) {
      await merged.start();
      this.stopMerged = merged.onChange(() => {
        if (!this.running) return;
        this.polling
          .serial(() => this.republish('aux chains changed'))
          .catch((error: unknown) =>
            this.options.logger?.error({ err: error, coin: this.coin }, 'new job for the aux chains failed'),
          );
      });
    }
    this.polling.start();
    await this.polling.serial(() => this.consider(template, 'start'));
    if (this.options.longPoll ?? true) this.longPollDone = this.longPollLoop();
  }

  async stop(): Promise<void> {
    // Stops polling at once (nothing new is considered), then waits for what is in flight.
    const stopped = this.polling.stop();
    this.longPollAbort?.abort(new Error('job source stopped'));
    this.stopMerged?.();
    await this.longPollDone;
    await stopped;
    await this.options.merged?.stop();
  }

  /** Submits a solved aux block to its own chain's daemon (merged mining). */
  submitAuxBlock(chain: MergedChainWork, auxpowHex: string): Promise<SubmitBlockResult> {
    const { merged } = this.options;
    if (!merged)
      return Promise.resolve({ accepted: false, hash: chain.hash, reason: `${this.coin} is not merge-mined` });
    return merged.submit(chain, auxpowHex);
  }

  /**
   * Submits the block to every daemon at once. It is accepted as soon as one daemon accepts it (or
   * already has it: `duplicate`); otherwise, once every daemon has answered, it is refused with each
   * daemon's reason.
   */
  async submitBlock(job: BitcoinJob, blockHex: string): Promise<SubmitBlockResult> {
    let hash: string;
    let header: Buffer;
    try {
      header = hexToBytes(blockHex.slice(0, HEADER_SIZE * 2), 'block header');
      hash = blockHashHex(job.algorithm, header);
    } catch (error) {
      return { accepted: false, hash: '', reason: `not a block: ${(error as Error).message}` };
    }
    const details = { coin: this.coin, height: job.height, hash };
    // The header's previous block, as RPC writes hashes (byte-reversed).
    const parent = bytesToHex(Buffer.from(header.subarray(4, 36)).reverse());
    let outcome = await this.submitToAll(blockHex);
    for (let attempt = 1; !outcome.accepted && outcome.noDaemonAnswered && this.running; attempt++) {
      // No daemon could be asked (down, restarting, its RPC threads taken): the block is still worth
      // a whole reward until the chain moves past its parent, so it is submitted again until then.
      this.options.logger?.warn(
        { ...details, attempt, reason: outcome.reason },
        'no coin daemon took the found block; submitting it again until one does or the chain moves past it',
      );
      await sleep(Math.min(5_000, (this.options.submitRetryMs ?? 500) * 2 ** (attempt - 1)));
      const moved = await this.chainPast(parent, hash);
      if (moved === 'has-it') outcome = { accepted: true, daemon: 'the best chain' };
      else if (moved === 'moved') {
        outcome = {
          accepted: false,
          noDaemonAnswered: true,
          reason: `the chain moved past its parent before a daemon could take it (${outcome.reason})`,
        };
        break;
      } else outcome = await this.submitToAll(blockHex);
    }
    if (outcome.accepted) {
      this.options.logger?.info({ ...details, daemon: outcome.daemon }, 'block accepted by the coin daemon');
    } else {
      this.options.logger?.error({ ...details, reason: outcome.reason }, 'block refused by every coin daemon');
    }
    if (this.running) void this.polling.soon(() => this.refresh('block submitted'));
    return outcome.accepted ? { accepted: true, hash } : { accepted: false, hash, reason: outcome.reason };
  }

  /**
   * Where the chain stands against a block with this parent: the best block is the block itself, the
   * chain moved on past the parent, or not known yet (still the parent, or no daemon answers).
   */
  private async chainPast(parent: string, hash: string): Promise<'has-it' | 'moved' | 'not-yet'> {
    let best: string;
    try {
      best = await this.rpc.getBestBlockHash();
    } catch {
      return 'not-yet';
    }
    if (best === hash) return 'has-it';
    return best === parent ? 'not-yet' : 'moved';
  }

  /**
   * Resolves with the first daemon that accepts, or with every daemon's reason once all have refused;
   * `noDaemonAnswered` when none gave an answer of its own (each was out of reach or unavailable).
   */
  private submitToAll(
    blockHex: string,
  ): Promise<{ accepted: true; daemon: string } | { accepted: false; reason: string; noDaemonAnswered: boolean }> {
    return new Promise((resolve) => {
      const reasons: string[] = [];
      let answered = 0;
      let pending = this.pool.clients.length;
      for (const client of this.pool.clients) {
        new BitcoinRpc(client)
          .submitBlock(blockHex, { timeoutMs: SUBMIT_TIMEOUT_MS })
          .then(
            (result) => {
              answered += 1;
              if (result === null || result === 'duplicate') resolve({ accepted: true, daemon: client.name });
              else reasons.push(`${client.name}: ${result}`);
            },
            (error: unknown) => {
              if (error instanceof RpcError && !error.daemonUnavailable) answered += 1;
              reasons.push(error instanceof Error ? error.message : String(error));
            },
          )
          .finally(() => {
            pending -= 1;
            // Resolving again after an acceptance does nothing.
            if (pending === 0)
              resolve({ accepted: false, reason: reasons.join('; '), noDaemonAnswered: answered === 0 });
          });
      }
    });
  }

  private async resolvePayoutScript(): Promise<Buffer> {
    const { poolAddress, network } = this.options;
    const local = network ? addressToScript(poolAddress, network) : undefined;
    const validation = await this.rpc.validateAddress(poolAddress);
    if (!validation.isValid || validation.scriptPubKey === undefined) {
      throw new JobSourceConfigError(`pool address ${poolAddress} is not valid for the ${this.coin} daemon's network`);
    }
    const script = hexToBytes(validation.scriptPubKey, 'scriptPubKey');
    if (local && !local.equals(script)) {
      throw new JobSourceConfigError(
        `pool address ${poolAddress}: the daemon's script ${validation.scriptPubKey} differs from ${bytesToHex(local)}`,
      );
    }
    return script;
  }

  /**
   * A template from the daemons (with failover), or — with a long-poll id — a long poll on the current
   * daemon only: a long poll that runs out of time is normal and must not count as a failed daemon.
   */
  private fetchTemplate(longPollId?: string, signal?: AbortSignal): Promise<BlockTemplate> {
    if (longPollId === undefined) return this.rpc.getBlockTemplate({ rules: this.rules });
    const options = { timeoutMs: this.options.longPollTimeoutMs ?? 120_000, ...(signal && { signal }) };
    return new BitcoinRpc(this.pool.current, this.dialect).getBlockTemplate({ rules: this.rules, longPollId }, options);
  }

  private get running(): boolean {
    return this.polling.active;
  }

  /** Decides whether a template makes a new job, and emits it. */
  private consider(template: BlockTemplate, reason: string): void {
    if (template.longPollId !== undefined) this.longPollId = template.longPollId;
    const current = this.jobs.current();
    const now = this.now();
    let clean: boolean;
    if (current === undefined) clean = true;
    else if (template.previousBlockHash !== current.previousBlockHash) {
      // A template older than the job we have (a late answer) must not take the chain backwards.
      if (template.height < current.height) return;
      clean = true;
    } else {
      const refreshDue = now - this.templateAt >= (this.options.refreshIntervalMs ?? 30_000);
      const bitsChanged = template.bits !== current.bits;
      if (!refreshDue && !bitsChanged) return;
      if (!bitsChanged && !materiallyDifferent(template, current.template) && template.curtime === current.curtime) {
        return;
      }
      clean = false;
    }
    this.templateAt = now;
    this.publish(template, clean, reason);
  }

  /** The current template again with the aux chains' new blocks: a new job, not a clean one. */
  private republish(reason: string): void {
    const current = this.jobs.current();
    if (current !== undefined) this.publish(current.template, false, reason);
  }

  private publish(template: BlockTemplate, clean: boolean, reason: string): void {
    if (this.payoutScript === undefined) throw new Error('payout script unknown before start');
    this.jobs.publish(template, {
      payoutScript: this.payoutScript,
      clean,
      createdAt: this.now(),
      merged: this.options.merged?.current(),
      // The new job is logged before the listeners run, so a failing listener is reported after it.
      beforeNotify: (job) =>
        this.options.logger?.info(
          {
            coin: this.coin,
            height: job.height,
            job: job.id,
            clean,
            transactions: template.transactions.length,
            ...(job.merged && { merged: job.merged.chains.map((c) => `${c.coin}@${c.height}`).join(',') }),
            reason,
          },
          'new job from the coin daemon',
        ),
    });
  }

  /** One poll: a new previous block, or a template older than the refresh interval, fetches a template. */
  private async poll(): Promise<void> {
    const best = await this.rpc.getBestBlockHash();
    const current = this.jobs.current();
    const refreshDue =
      current === undefined || this.now() - this.templateAt >= (this.options.refreshIntervalMs ?? 30_000);
    if (current === undefined || best !== current.previousBlockHash) await this.refresh('new previous block');
    else if (refreshDue) await this.refresh('refresh');
  }

  private async refresh(reason: string): Promise<void> {
    const template = await this.fetchTemplate();
    if (this.running) await this.polling.serial(() => this.consider(template, reason));
  }

  private async longPollLoop(): Promise<void> {
    while (this.running) {
      const longPollId = this.longPollId;
      if (longPollId === undefined) return;
      const abort = new AbortController();
      this.longPollAbort = abort;
      try {
        const template = await this.fetchTemplate(longPollId, abort.signal);
        if (this.running) await this.polling.serial(() => this.consider(template, 'long poll'));
      } catch (error) {
        if (!this.running || abort.signal.aborted) return;
        if (error instanceof RpcError && (error.kind === 'timeout' || error.kind === 'unreachable')) {
          // Given up on, or its connection lost (a restart, a network cut): the daemon may hold it still.
          if (error.kind === 'unreachable') this.polling.failed(error);
          await this.longPollReleased(longPollId);
        } else {
          this.polling.failed(error);
          await sleep(this.options.pollIntervalMs ?? 1000);
        }
      }
    }
  }

  /**
   * Waits, after a long poll we gave up on or whose connection broke, until the daemon has let go of
   * it. litecoind and bitcoind do not notice a client that goes away: the RPC thread goes on waiting
   * until the chain (or, after a minute, the mempool) moves. A long poll issued again at once took one
   * more of their four default threads each time; after a network cut, each stratum node's second long
   * poll filled them, and submitblock — the only thing that would have moved the chain — waited behind
   * them (docs/deployment.md, "Coin daemons"). The polling sees the move as a new long-poll id.
   */
  private async longPollReleased(abandoned: string): Promise<void> {
    while (this.running && this.longPollId === abandoned) await sleep(this.options.pollIntervalMs ?? 1000);
  }
}

/** New transactions, another coinbase value, another MWEB block, other required payees or payload: worth a new job. */
function materiallyDifferent(a: BlockTemplate, b: BlockTemplate): boolean {
  if (a.coinbaseValue !== b.coinbaseValue || a.mweb !== b.mweb || a.transactions.length !== b.transactions.length) {
    return true;
  }
  if (!sameCoinbaseRequirements(a.coinbase, b.coinbase)) return true;
  return a.transactions.some((tx, i) => tx.txid !== b.transactions[i]?.txid);
}

function sameCoinbaseRequirements(a: BlockTemplate['coinbase'], b: BlockTemplate['coinbase']): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.txVersion === b.txVersion &&
    a.extraPayload === b.extraPayload &&
    a.payees.length === b.payees.length &&
    a.payees.every((p, i) => p.value === b.payees[i]?.value && p.script === b.payees[i]?.script)
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
