import { setMaxListeners } from 'node:events';
import type { SubmitBlockResult, WorkSource } from '../job.js';
import { JobSourceConfigError } from '../jobs/daemonJobSource.js';
import type { ChainLogger } from '../logger.js';
import { ChainwebClient, ChainwebError, type KadenaMiner, type UpdateEvent } from './chainwebClient.js';
import { type ChainwebVersionName, hashToBase64Url, kadenaBlockHash } from './header.js';
import { createKadenaJob, type KadenaJob, type KadenaWork } from './kadenaJob.js';

export interface KadenaJobSourceOptions {
  /** The chainweb nodes, preferred first: `http://host:1848` (or clients). */
  nodes: readonly (string | ChainwebClient)[];
  /** The pool's miner: the coinbase of every block pays its account. Must be in each node's coordination config. */
  miner: KadenaMiner;
  /** Ticker, `KDA` unless set. */
  coin?: string;
  /** The current job is re-issued with its creation time moved on this often (ms, default 1000). */
  reissueIntervalMs?: number;
  /** Work of a chain that no update refreshed for this long is fetched again (ms, default 150 000 = 5 blocks). */
  staleAfterMs?: number;
  /** First delay after a refused or failed call, doubled up to `maxRetryDelayMs` (ms, default 1000 / 30 000). */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Per-call timeout for node calls (ms, default 10 000). */
  timeoutMs?: number;
  logger?: ChainLogger;
  /** Epoch ms clock. */
  now?: () => number;
}

/** No configured chainweb node could answer; `errors` holds each one's reason. */
export class AllChainwebNodesFailedError extends Error {
  override readonly name = 'AllChainwebNodesFailedError';
  constructor(
    readonly call: string,
    readonly errors: readonly ChainwebError[],
  ) {
    super(`${call}: no chainweb node could answer (${errors.map((e) => e.message).join('; ')})`);
  }
}

/**
 * Kadena jobs from chainweb nodes' mining API.
 *
 * - Work is kept per chain: at start one work request per chain (`?chain=c`; a chain that its
 *   neighbours block gets another chain's work, which is kept under that chain), then one request per
 *   update event on a chain's update stream — never per miner; the node limits work requests.
 * - "New Cut" on a chain drops its work (outdated) and fetches new work; "Refreshed Block" fetches the
 *   newer payload, the old work staying valid (not clean).
 * - Miners get one chain's work at a time (`current()`): the held work with the highest target (the
 *   most likely block per hash; chains' targets differ a little), ties to the lowest height, then the
 *   lowest chain id. It is kept until a New Cut makes it outdated or a block is found on it.
 * - The current job is re-issued every `reissueIntervalMs` with its creation time moved to now (never
 *   behind the last, never ahead of the clock: chainweb drops blocks created in the future), which gives
 *   miners fresh nonce space; same work, not clean.
 * - 503/429 (too many work requests) backs off, doubling; 403 (miner not in the node's coordination
 *   config) stops start-up with an operator error, and is logged as one afterwards.
 * - Failover: calls go to the preferred node; when it is unreachable the next is tried, and switching
 *   nodes re-opens the update streams and fetches every chain's work anew (work is known only to the
 *   node that gave it). A solution goes to the node that gave the work.
 */
export class KadenaJobSource implements WorkSource<KadenaJob, Uint8Array> {
  readonly algorithm = 'blake2s' as const;
  readonly demo = false;
  readonly coin: string;
  readonly clients: readonly ChainwebClient[];
  private readonly options: KadenaJobSourceOptions;
  private readonly now: () => number;
  private preferred = 0;
  private version: ChainwebVersionName | undefined;
  private chains: number[] = [];
  private running = false;
  /** While start() fetches every chain's work, the best is published once at the end. */
  private starting = false;
  /** The newest work per chain, as fetched (not re-issued). */
  private readonly works = new Map<number, { job: KadenaJob; fetchedAt: number }>();
  private currentJob: KadenaJob | undefined;
  private readonly listeners = new Set<(job: KadenaJob) => void>();
  private readonly fetching = new Map<number, Promise<void>>();
  private readonly dirty = new Set<number>();
  private streamAbort: AbortController | undefined;
  private streamLoops: Promise<void>[] = [];
  private reissueTimer: NodeJS.Timeout | undefined;
  private backoffUntil = 0;
  private retryDelay: number;
  private nextJobId = 0;
  private readonly lastWarning = new Map<string, string>();

  constructor(options: KadenaJobSourceOptions) {
    if (options.nodes.length === 0) throw new RangeError('at least one chainweb node is needed');
    this.options = options;
    this.coin = options.coin ?? 'KDA';
    this.now = options.now ?? Date.now;
    this.retryDelay = options.retryDelayMs ?? 1000;
    this.clients = options.nodes.map((n) =>
      n instanceof ChainwebClient
        ? n
        : new ChainwebClient({ url: n, ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }) }),
    );
  }

  current(): KadenaJob | undefined {
    return this.currentJob;
  }

  onJob(listener: (job: KadenaJob) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The chains that hold work now, and that work (for statistics and tests). */
  heldWork(): ReadonlyMap<number, KadenaJob> {
    return new Map([...this.works].map(([chain, { job }]) => [chain, job]));
  }

  /**
   * Reads /info from the first node that answers, fetches work for every chain and opens the update
   * streams. Rejects, leaving nothing running, when no node answers or the miner is not authorized.
   */
  async start(): Promise<void> {
    if (this.running) return;
    const info = await this.onAnyNode('GET /info', (client) => client.info());
    this.version = info.nodeVersion;
    this.chains = info.nodeChains;
    this.starting = true;
    try {
      for (const chain of this.chains) {
        try {
          await this.fetchOnce(chain);
        } catch (error) {
          // The node's work limit: start with the work there is; the other chains come with their updates.
          if (!(error instanceof ChainwebError && error.kind === 'rate-limited' && this.works.size > 0)) throw error;
          this.backoffUntil = this.now() + this.retryDelay;
          this.options.logger?.warn({ coin: this.coin, chain, err: error }, 'chainweb work limit reached at start');
          break;
        }
      }
    } catch (error) {
      this.works.clear();
      if (error instanceof ChainwebError && error.kind === 'unauthorized-miner') {
        throw new JobSourceConfigError(error.message, { cause: error });
      }
      throw error;
    } finally {
      this.starting = false;
    }
    this.publishBest('start');
    this.running = true;
    this.openStreams();
    this.scheduleReissue();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.reissueTimer) clearTimeout(this.reissueTimer);
    this.reissueTimer = undefined;
    this.streamAbort?.abort(new Error('job source stopped'));
    await Promise.all(this.streamLoops);
    await Promise.all(this.fetching.values());
  }

  /**
   * POSTs the 286 solved bytes to the node that gave the work (another node would not know its payload:
   * they are tried only when it cannot be reached). Accepted means the node took the solution; its cut
   * pipeline may still find it late (orphaned) — block status tells.
   */
  async submitBlock(job: KadenaJob, solution: Uint8Array): Promise<SubmitBlockResult> {
    let hash: string;
    try {
      hash = hashToBase64Url(kadenaBlockHash(solution));
      if (solution.length !== job.header.length) throw new Error(`${solution.length} bytes`);
    } catch (error) {
      return { accepted: false, hash: '', reason: `not a solved work header: ${(error as Error).message}` };
    }
    const first = this.clients.find((c) => c.name === job.node) ?? this.client;
    const order = [first, ...this.clients.filter((c) => c !== first)];
    const reasons: string[] = [];
    const details = { coin: this.coin, chain: job.chainId, height: job.height, hash };
    for (const client of order) {
      try {
        await client.solved(solution);
        this.options.logger?.info({ ...details, node: client.name }, 'block taken by the chainweb node');
        if (this.running) this.outdated(job.chainId, 'block found');
        return { accepted: true, hash };
      } catch (error) {
        const reason = describeSolvedError(error);
        reasons.push(`${client.name}: ${reason}`);
        if (!(error instanceof ChainwebError) || !error.nodeUnavailable) break;
      }
    }
    const reason = reasons.join('; ');
    this.options.logger?.error({ ...details, reason }, 'block refused by the chainweb node');
    return { accepted: false, hash, reason };
  }

  private get client(): ChainwebClient {
    return this.clients[this.preferred] as ChainwebClient;
  }

  /** Runs a call on the preferred node, then on the others while nodes are unreachable. */
  private async onAnyNode<T>(call: string, run: (client: ChainwebClient) => Promise<T>): Promise<T> {
    const errors: ChainwebError[] = [];
    for (let i = 0; i < this.clients.length; i++) {
      const index = (this.preferred + i) % this.clients.length;
      const client = this.clients[index] as ChainwebClient;
      try {
        await this.ensureVersion(client);
        const result = await run(client);
        if (index !== this.preferred) this.switchNode(index);
        return result;
      } catch (error) {
        if (!(error instanceof ChainwebError) || !error.nodeUnavailable || error.kind === 'rate-limited') throw error;
        errors.push(error);
      }
    }
    throw new AllChainwebNodesFailedError(call, errors);
  }

  /** Reads a node's /info once, and refuses a node of another chainweb version than the others. */
  private async ensureVersion(client: ChainwebClient): Promise<void> {
    if (client.knownVersion !== undefined && client.knownVersion === (this.version ?? client.knownVersion)) return;
    const info = await client.info();
    if (this.version !== undefined && info.nodeVersion !== this.version) {
      throw new ChainwebError('malformed', `runs ${info.nodeVersion}, the other nodes ${this.version}`, {
        node: client.name,
        call: 'GET /info',
      });
    }
  }

  private switchNode(index: number): void {
    const previous = this.client.name;
    this.preferred = index;
    this.options.logger?.warn({ node: this.client.name, previous }, 'chainweb node failover: switched node');
    this.works.clear();
    if (!this.running) return;
    this.openStreams();
    for (const chain of this.chains) void this.refresh(chain, 'node switched');
  }

  /** One work request for `chain`; the reply is kept under the chain it is for. */
  private async fetchOnce(chain: number): Promise<void> {
    let node = '';
    const work = await this.onAnyNode(`GET mining/work?chain=${chain}`, (client) => {
      node = client.name;
      return client.work(this.options.miner, chain);
    });
    this.accept(work, node, chain);
  }

  private accept(work: KadenaWork, node: string, asked: number): void {
    const version = this.version as ChainwebVersionName;
    const job = createKadenaJob({
      id: this.newJobId(),
      work,
      node,
      version,
      coin: this.coin,
      cleanJobs: true,
      createdAt: this.now(),
      nextId: () => this.newJobId(),
      now: this.now,
    });
    this.works.set(job.chainId, { job, fetchedAt: this.now() });
    if (this.starting) return;
    const current = this.currentJob;
    if (current === undefined || !this.works.has(current.chainId)) {
      this.publishBest(asked === job.chainId ? 'new work' : `new work (chain ${asked} is blocked)`);
    } else if (current.chainId === job.chainId && current.payloadHash !== job.payloadHash) {
      const clean = current.parentHash !== job.parentHash;
      this.publish(clean ? job : withClean(job, false), clean ? 'new block on the chain' : 'refreshed block');
    }
  }

  /** Publishes the best held work as a clean job. */
  private publishBest(reason: string): void {
    let best: KadenaJob | undefined;
    for (const { job } of this.works.values()) {
      if (
        best === undefined ||
        job.networkTarget > best.networkTarget ||
        (job.networkTarget === best.networkTarget &&
          (job.height < best.height || (job.height === best.height && job.chainId < best.chainId)))
      ) {
        best = job;
      }
    }
    if (best !== undefined) this.publish(withClean(best, true), reason);
  }

  private publish(job: KadenaJob, reason: string): void {
    this.currentJob = job;
    this.options.logger?.info(
      { coin: this.coin, chain: job.chainId, height: job.height, job: job.id, clean: job.cleanJobs, reason },
      'new job from the chainweb node',
    );
    for (const listener of this.listeners) listener(job);
  }

  private newJobId(): string {
    this.nextJobId = (this.nextJobId + 1) % 0x1_0000_0000;
    return this.nextJobId.toString(16);
  }

  /** A chain's work is outdated: drop it, move miners elsewhere if they were on it, fetch new work. */
  private outdated(chain: number, reason: string): void {
    this.works.delete(chain);
    if (this.currentJob?.chainId === chain) this.publishBest(`${reason} on chain ${chain}`);
    void this.refresh(chain, reason);
  }

  private onUpdate(chain: number, event: UpdateEvent): void {
    if (!this.running) return;
    if (event === 'New Cut') this.outdated(chain, 'new cut');
    else void this.refresh(chain, 'refreshed block');
  }

  /** Fetches a chain's work; one request per chain at a time, an update meanwhile fetches once more after. */
  private refresh(chain: number, reason: string): Promise<void> {
    const running = this.fetching.get(chain);
    if (running) {
      this.dirty.add(chain);
      return running;
    }
    const task = (async () => {
      try {
        const wait = this.backoffUntil - this.now();
        if (wait > 0) await this.sleep(wait);
        if (!this.running) return;
        await this.fetchOnce(chain);
        this.retryDelay = this.options.retryDelayMs ?? 1000;
        this.lastWarning.delete(`work ${chain}`);
      } catch (error) {
        this.failed(chain, reason, error);
      }
    })().finally(() => {
      this.fetching.delete(chain);
      if (this.dirty.delete(chain) && this.running) void this.refresh(chain, reason);
    });
    this.fetching.set(chain, task);
    return task;
  }

  private failed(chain: number, reason: string, error: unknown): void {
    const delay = this.retryDelay;
    this.retryDelay = Math.min(delay * 2, this.options.maxRetryDelayMs ?? 30_000);
    if (error instanceof ChainwebError && error.kind === 'rate-limited') {
      this.backoffUntil = Math.max(this.backoffUntil, this.now() + delay);
    }
    const message = error instanceof Error ? error.message : String(error);
    const details = { coin: this.coin, chain, reason, retryInMs: delay, err: error };
    if (error instanceof ChainwebError && error.kind === 'unauthorized-miner') {
      this.options.logger?.error(details, 'chainweb node refuses the pool miner: fix its mining coordination config');
    } else if (this.lastWarning.get(`work ${chain}`) !== message) {
      this.options.logger?.warn(details, 'chainweb work request failed');
    }
    this.lastWarning.set(`work ${chain}`, message);
    // A retry is queued unless an update comes first.
    setTimeout(() => {
      if (this.running && !this.works.has(chain)) void this.refresh(chain, 'retry');
    }, delay).unref();
  }

  private openStreams(): void {
    this.streamAbort?.abort(new Error('update streams re-opened'));
    const abort = new AbortController();
    // One signal ends every chain's stream (each request and each back-off listens): not a leak.
    setMaxListeners(2 * this.chains.length + 10, abort.signal);
    this.streamAbort = abort;
    this.streamLoops = this.chains.map((chain) => this.streamLoop(chain, abort.signal));
  }

  /** Keeps one update stream open for a chain; reconnects when the node closes it, backs off on errors. */
  private async streamLoop(chain: number, signal: AbortSignal): Promise<void> {
    let delay = this.options.retryDelayMs ?? 1000;
    let broken = false;
    while (this.running && !signal.aborted) {
      try {
        const client = this.client;
        for await (const event of client.updates(chain, signal)) {
          if (broken) {
            broken = false;
            void this.refresh(chain, 'update stream back');
          }
          delay = this.options.retryDelayMs ?? 1000;
          this.onUpdate(chain, event);
        }
      } catch (error) {
        if (signal.aborted || !this.running) return;
        broken = true;
        const message = error instanceof Error ? error.message : String(error);
        if (this.lastWarning.get(`stream ${chain}`) !== message) {
          this.options.logger?.warn({ coin: this.coin, chain, err: error }, 'chainweb update stream failed');
          this.lastWarning.set(`stream ${chain}`, message);
        }
        await this.sleep(delay, signal);
        delay = Math.min(delay * 2, this.options.maxRetryDelayMs ?? 30_000);
      }
    }
  }

  private scheduleReissue(): void {
    if (!this.running) return;
    this.reissueTimer = setTimeout(() => {
      this.reissue();
      this.scheduleReissue();
    }, this.options.reissueIntervalMs ?? 1000);
  }

  /** The current job again with its creation time moved to now; stale chains are fetched again. */
  private reissue(): void {
    const staleBefore = this.now() - (this.options.staleAfterMs ?? 150_000);
    for (const [chain, { fetchedAt }] of this.works) {
      if (fetchedAt < staleBefore) void this.refresh(chain, 'no update for a while');
    }
    const current = this.currentJob;
    if (current === undefined || !this.works.has(current.chainId)) return;
    const nowMicros = BigInt(this.now()) * 1000n;
    const micros = nowMicros > current.creationTime ? nowMicros : current.creationTime + 1n;
    this.publish(current.withCreationTime(micros), 'creation time moved');
  }

  private sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}

/** The same job with another cleanJobs flag. */
function withClean(job: KadenaJob, cleanJobs: boolean): KadenaJob {
  return job.cleanJobs === cleanJobs ? job : Object.freeze({ ...job, cleanJobs });
}

function describeSolvedError(error: unknown): string {
  if (error instanceof ChainwebError && error.kind === 'not-found') {
    return `${error.details.body ?? 'No associated Payload'} (the node no longer knows this work: outdated, or already solved)`;
  }
  if (error instanceof ChainwebError && error.kind === 'refused') return error.details.body ?? error.message;
  return error instanceof Error ? error.message : String(error);
}
