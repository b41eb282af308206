import { decodeKaspaAddress } from '../addresses/kaspa.js';
import type { SubmitBlockResult, WorkSource } from '../job.js';
import type { ChainLogger } from '../logger.js';
import { payToAddressScript } from './coinbase.js';
import { createKaspaJob, type KaspaBlockSubmission, type KaspaJob, parentKey } from './kaspaJob.js';
import { type KaspaNode, KaspaRpc } from './kaspaRpc.js';
import { type KaspaBlockTemplate, KaspaShape, readRawHeader, SUBMIT_REJECT_MESSAGES } from './wire.js';
import type { KaspaRpcClient } from './wrpcClient.js';

/**
 * When a template becomes a job. Mainnet makes 10 blocks a second and kaspad announces a new template
 * for each; miners need not (and some ASICs cannot) take a new job that often, while work a second old
 * is still good work: a block on parents ~10 blocks back is merged, and blue, all the same (GHOSTDAG
 * k = 124 at 10 BPS). So:
 *
 * - `now`: the template becomes a job at once, when there is no job yet or the current one is invalid
 *   (a block was found on it, the node changed, the node was out of sync); when the template's DAA
 *   score is `staleDaaScore` or more away from the job's (a jump: the job's parent set is that far
 *   behind the network); when its blue score is lower than the job's (the selected chain reorganised,
 *   the job's parents are off it); or when `minIntervalMs` has passed since the last job.
 * - `same`: the same parents, merkle root and bits as the job: nothing to send.
 * - `wait`: anything else. The source remembers that newer work exists and, when the interval is up,
 *   fetches a template afresh and sends that one — a delayed job is never built from a template older
 *   than that fetch.
 */
export type ThrottleDecision = 'now' | 'same' | 'wait';

export interface ThrottleRules {
  /** At most one job per this many ms unless the template is urgent (default 1000). */
  minIntervalMs: number;
  /** A DAA score this far from the job's makes the template urgent (default 20: 2 s at 10 BPS). */
  staleDaaScore: bigint;
}

export const DEFAULT_THROTTLE: ThrottleRules = { minIntervalMs: 1000, staleDaaScore: 20n };

/** The parts of a job the throttle compares. */
export interface ThrottleView {
  daaScore: bigint;
  blueScore: bigint;
  parentKey: string;
  hashMerkleRoot: string;
  bits: number;
  createdAt: number;
}

export function throttleDecision(
  current: ThrottleView | undefined,
  currentInvalid: boolean,
  template: Omit<ThrottleView, 'createdAt'>,
  now: number,
  rules: ThrottleRules = DEFAULT_THROTTLE,
): ThrottleDecision {
  if (current === undefined || currentInvalid) return 'now';
  if (
    template.parentKey === current.parentKey &&
    template.hashMerkleRoot === current.hashMerkleRoot &&
    template.bits === current.bits
  ) {
    return 'same';
  }
  const gap = template.daaScore - current.daaScore;
  if (gap >= rules.staleDaaScore || -gap >= rules.staleDaaScore) return 'now';
  if (template.blueScore < current.blueScore) return 'now';
  return now - current.createdAt >= rules.minIntervalMs ? 'now' : 'wait';
}

export interface KaspaJobSourceOptions {
  /** kaspad wRPC JSON endpoints, preferred first: `ws://host:18110` (or clients, or a KaspaRpc). */
  nodes: readonly KaspaNode[] | KaspaRpc;
  /** Where the coinbase pays: the pool's `kaspa:` address (checked locally at construction). */
  payAddress: string;
  /** Network prefixes the pay address may have (default: any; e.g. `['kaspa']` for mainnet). */
  prefixes?: readonly string[];
  /** Bytes kaspad appends (after its version and '/') to the coinbase payload, e.g. `/lodestone/`. */
  extraData?: Uint8Array | string;
  /** Ticker, KAS unless set. */
  coin?: string;
  throttle?: Partial<ThrottleRules>;
  /** A template is fetched at least this often even without notifications (ms, default 1000). */
  pollIntervalMs?: number;
  logger?: ChainLogger;
  /** Epoch ms clock, for tests. */
  now?: () => number;
}

/** A configuration the source cannot start with (bad pay address). */
export class KaspaConfigError extends Error {
  override readonly name = 'KaspaConfigError';
}

/**
 * Jobs from kaspad nodes. The source subscribes to new-template notifications on every node and
 * fetches a template when the node it uses announces one (one fetch at a time; announcements during a
 * fetch make one more), and at least every `pollIntervalMs`. `throttleDecision` decides which
 * templates become jobs. While kaspad says it is not synced, no job is made (and the reason is
 * logged); blocks are submitted to every node.
 */
export class KaspaJobSource implements WorkSource<KaspaJob, KaspaBlockSubmission> {
  readonly algorithm = 'kheavyhash' as const;
  readonly demo = false;
  readonly coin: string;
  readonly rpc: KaspaRpc;
  readonly payScript: string;
  private readonly options: KaspaJobSourceOptions;
  private readonly rules: ThrottleRules;
  private readonly extraData: Uint8Array;
  private readonly now: () => number;
  private readonly listeners = new Set<(job: KaspaJob) => void>();
  private readonly unsubscribe: (() => void)[] = [];
  private job: KaspaJob | undefined;
  private jobInvalid = false;
  private nextJobId = 1;
  /** Counts the jobs that made older work worthless (see publish). */
  private epoch = 0;
  private running = false;
  private fetching: Promise<void> | undefined;
  private fetchAgain = false;
  /** A newer template exists than the job (a `wait` decision): fetch again when the interval is up. */
  private newerWaiting = false;
  private deadline: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private lastFetchAt = 0;
  private synced: boolean | undefined;
  private lastError: string | undefined;
  /** The node whose templates the current job came from; a change invalidates the job. */
  private templateNode: KaspaRpcClient | undefined;

  constructor(options: KaspaJobSourceOptions) {
    this.options = options;
    this.coin = options.coin ?? 'KAS';
    this.rules = { ...DEFAULT_THROTTLE, ...options.throttle };
    this.now = options.now ?? Date.now;
    const extra = options.extraData ?? new Uint8Array();
    this.extraData = typeof extra === 'string' ? new TextEncoder().encode(extra) : extra;
    let prefix: string;
    try {
      prefix = decodeKaspaAddress(options.payAddress).prefix;
      this.payScript = payToAddressScript(options.payAddress);
    } catch (error) {
      throw new KaspaConfigError(`pay address: ${(error as Error).message}`);
    }
    if (options.prefixes && !options.prefixes.includes(prefix)) {
      throw new KaspaConfigError(
        `pay address ${options.payAddress} is not a ${options.prefixes.join(': / ')}: address`,
      );
    }
    this.rpc =
      options.nodes instanceof KaspaRpc
        ? options.nodes
        : new KaspaRpc(options.nodes, { ...(options.logger && { logger: options.logger }) });
  }

  current(): KaspaJob | undefined {
    return this.jobInvalid ? undefined : this.job;
  }

  onJob(listener: (job: KaspaJob) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Subscribes to templates on every node and fetches the first template. Rejects when no node answers
   * or the node refuses the pay address; resolves (without a job) when the node is not synced.
   */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    for (const client of this.rpc.clients) {
      this.unsubscribe.push(
        client.onNotification('newBlockTemplateNotification', () => {
          if (client === this.rpc.current) this.requestTemplate();
        }),
        client.onReconnect(() => {
          if (client === this.rpc.current) this.invalidate('kaspad reconnected');
        }),
      );
    }
    try {
      const subscribed = await Promise.allSettled(
        this.rpc.clients.map((client) => client.subscribe('NewBlockTemplate')),
      );
      subscribed.forEach((outcome, i) => {
        if (outcome.status === 'rejected') {
          const kaspad = this.rpc.clients[i]?.name;
          this.options.logger?.warn(
            { kaspad, err: outcome.reason },
            'kaspad: could not subscribe to new block templates',
          );
        }
      });
      await this.fetchTemplate('start', true);
    } catch (error) {
      await this.stop();
      throw error;
    }
    this.schedulePoll();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.deadline) clearTimeout(this.deadline);
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.deadline = undefined;
    this.pollTimer = undefined;
    for (const off of this.unsubscribe.splice(0)) off();
    await this.fetching;
    await this.rpc.close();
  }

  /**
   * Submits the block to every node at once. Accepted as soon as one node reports success; otherwise
   * refused with each node's reject reason (kaspad's words: `blockInvalid (block is invalid)`).
   */
  async submitBlock(job: KaspaJob, block: KaspaBlockSubmission): Promise<SubmitBlockResult> {
    let hash: string;
    try {
      const header = readRawHeader(new KaspaShape('submitBlock'), block.header, 'block.header');
      hash = job.blockHash(header.nonce);
    } catch (error) {
      return { accepted: false, hash: '', reason: `not a block: ${(error as Error).message}` };
    }
    const outcome = await this.submitToAll(block);
    const details = { coin: this.coin, daaScore: String(job.daaScore), hash };
    if (outcome.accepted) {
      this.options.logger?.info({ ...details, kaspad: outcome.node }, 'block accepted by kaspad');
      this.invalidate('block found');
      return { accepted: true, hash };
    }
    this.options.logger?.error({ ...details, reason: outcome.reason }, 'block refused by every kaspad node');
    return { accepted: false, hash, reason: outcome.reason };
  }

  private submitToAll(
    block: KaspaBlockSubmission,
  ): Promise<{ accepted: true; node: string } | { accepted: false; reason: string }> {
    return new Promise((resolve) => {
      const reasons: string[] = [];
      let pending = this.rpc.clients.length;
      for (const client of this.rpc.clients) {
        this.rpc
          .submitBlockTo(client, block)
          .then(
            (report) => {
              if (report.type === 'success') resolve({ accepted: true, node: client.name });
              else {
                const words = SUBMIT_REJECT_MESSAGES[report.reason];
                reasons.push(`${client.name}: ${report.reason}${words ? ` (${words})` : ''}`);
              }
            },
            (error: unknown) => reasons.push(error instanceof Error ? error.message : String(error)),
          )
          .finally(() => {
            pending -= 1;
            if (pending === 0) resolve({ accepted: false, reason: reasons.join('; ') });
          });
      }
    });
  }

  /** The current job must not be worked on any more: the next template becomes a job at once. */
  private invalidate(reason: string): void {
    if (!this.running) return;
    this.jobInvalid = true;
    this.options.logger?.info({ coin: this.coin, reason }, 'kaspa job invalidated; fetching a new template');
    this.requestTemplate();
  }

  /** Fetches a template now, or once more after the fetch under way. */
  private requestTemplate(): void {
    if (!this.running) return;
    if (this.fetching) {
      this.fetchAgain = true;
      return;
    }
    void this.fetchTemplate('notification', false);
  }

  private fetchTemplate(reason: string, rethrow: boolean): Promise<void> {
    const run = (async () => {
      do {
        this.fetchAgain = false;
        this.lastFetchAt = this.now();
        let template: KaspaBlockTemplate;
        try {
          template = await this.rpc.getBlockTemplate(this.options.payAddress, this.extraData);
        } catch (error) {
          if (rethrow) throw error;
          this.reportError(error);
          return;
        }
        if (this.lastError !== undefined) {
          this.options.logger?.info({ coin: this.coin }, 'kaspad templates recovered');
          this.lastError = undefined;
        }
        this.consider(template, reason);
      } while (this.fetchAgain && this.running);
    })();
    this.fetching = run
      .catch(() => undefined)
      .finally(() => {
        this.fetching = undefined;
      });
    return run;
  }

  private consider(template: KaspaBlockTemplate, reason: string): void {
    if (!this.running) return;
    if (!template.isSynced) {
      if (this.synced !== false) {
        this.options.logger?.warn(
          { coin: this.coin, kaspad: this.rpc.current.name },
          'kaspad is not synced (isSynced false): no Kaspa jobs are sent until it is',
        );
      }
      this.synced = false;
      this.jobInvalid = true;
      return;
    }
    if (this.synced === false) this.options.logger?.info({ coin: this.coin }, 'kaspad is synced again: sending jobs');
    this.synced = true;
    if (this.templateNode !== undefined && this.templateNode !== this.rpc.current) this.jobInvalid = true;
    this.templateNode = this.rpc.current;

    const header = template.block.header;
    const view = {
      daaScore: header.daaScore,
      blueScore: header.blueScore,
      parentKey: parentKey(header),
      hashMerkleRoot: header.hashMerkleRoot,
      bits: header.bits,
    };
    const current = this.job && {
      ...this.job,
      parentKey: parentKey(this.job.header),
      hashMerkleRoot: this.job.header.hashMerkleRoot,
    };
    const decision = throttleDecision(current, this.jobInvalid, view, this.now(), this.rules);
    if (decision === 'same') return;
    if (decision === 'wait') {
      this.newerWaiting = true;
      this.armDeadline();
      return;
    }
    this.publish(template, reason);
  }

  /**
   * Jobs come about once a second and, at 10 blocks a second, each on other parents than the one
   * before; yet a share of the previous job is still good work (its block would be merged blue), and
   * ASIC firmware even names a later job than the one a share was found on. So a job is `cleanJobs`,
   * and starts a new work epoch — its `parentKey`, which makes every older job stale — only when older
   * work became worthless: the first job, an invalidated one (a block found on it, another node, a
   * reconnection, the node out of sync), or a selected chain that reorganised below it (a lower blue
   * score). How far behind a share's job may be otherwise is the stratum dialect's rule.
   */
  private publish(template: KaspaBlockTemplate, reason: string): void {
    const previous = this.job;
    const clean = previous === undefined || this.jobInvalid || template.block.header.blueScore < previous.blueScore;
    const epoch = clean ? this.epoch + 1 : this.epoch;
    const job = createKaspaJob(template.block, {
      id: String(this.nextJobId++),
      coin: this.coin,
      cleanJobs: clean,
      createdAt: this.now(),
      parentKey: `epoch:${epoch}`,
    });
    if (job.payScript !== this.payScript) {
      this.reportError(new Error(`kaspad's template pays script ${job.payScript}, not the pool's ${this.payScript}`));
      return;
    }
    this.job = job;
    this.epoch = epoch;
    this.jobInvalid = false;
    this.newerWaiting = false;
    if (this.deadline) clearTimeout(this.deadline);
    this.deadline = undefined;
    this.options.logger?.info(
      { coin: this.coin, job: job.id, daaScore: String(job.daaScore), clean: job.cleanJobs, reason },
      'new Kaspa job',
    );
    for (const listener of this.listeners) {
      try {
        listener(job);
      } catch (error) {
        this.options.logger?.error({ coin: this.coin, err: error }, 'a Kaspa job listener failed');
      }
    }
  }

  /** When the interval since the last job is up, fetch afresh (a waiting template is not reused). */
  private armDeadline(): void {
    if (this.deadline || !this.job) return;
    const wait = Math.max(0, this.job.createdAt + this.rules.minIntervalMs - this.now());
    this.deadline = setTimeout(() => {
      this.deadline = undefined;
      if (this.newerWaiting) this.requestTemplate();
    }, wait);
    this.deadline.unref();
  }

  private schedulePoll(): void {
    if (!this.running) return;
    const interval = this.options.pollIntervalMs ?? 1000;
    this.pollTimer = setTimeout(() => {
      if (this.now() - this.lastFetchAt >= interval) this.requestTemplate();
      this.schedulePoll();
    }, interval);
    this.pollTimer.unref();
  }

  private reportError(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (message !== this.lastError) {
      this.options.logger?.warn({ coin: this.coin, err: error }, 'kaspad template failed');
      this.lastError = message;
    }
  }
}
