import type { SubmitBlockResult, WorkSource } from '../job.js';
import { JobSourceConfigError } from '../jobs/daemonJobSource.js';
import { NodePolling } from '../jobs/nodePolling.js';
import type { ChainLogger } from '../logger.js';
import { RpcClient, type RpcClientOptions } from '../rpc/client.js';
import { DaemonPool } from '../rpc/daemonPool.js';
import { RpcError } from '../rpc/errors.js';
import { type CkbJob, createCkbJob } from './job.js';
import { headerHash, parseBlockTemplate } from './parse.js';
import { CKB_RPC_ERRORS, CkbRpc } from './rpc.js';
import type { CkbJsonBlock, CkbJsonBlockTemplate, CkbJsonScript } from './types.js';
import { CkbEncodingError } from './uint.js';

export interface CkbJobSourceOptions {
  /** Ticker, CKB by default. */
  coin?: string;
  /** The CKB nodes, preferred first: `http://127.0.0.1:8114/` (or clients / a pool). */
  nodes: readonly (string | RpcClient | RpcClientOptions)[] | DaemonPool;
  /**
   * The lock the pool expects the nodes' [block_assembler] to pay (ckb.toml code_hash, hash_type, args).
   * The node, not the pool, decides where the reward goes; start() refuses when a node's template pays
   * another lock.
   */
  payoutLock: CkbJsonScript;
  /** How often the tip is polled (ms, default 1000). */
  pollIntervalMs?: number;
  /** With the same parent, a changed template (new work_id) makes a new job at most this often (ms, default 10 000). */
  refreshIntervalMs?: number;
  logger?: ChainLogger;
  /** Epoch ms clock, for tests. */
  now?: () => number;
}

/** submit_block verifies the whole block: allow it more time than an ordinary call. */
const SUBMIT_TIMEOUT_MS = 60_000;

/**
 * Jobs from CKB nodes. The tip header is polled every `pollIntervalMs`; a new tip fetches a template and,
 * once the template's parent is that tip, makes a clean job at once. With the same parent, a template
 * with another work_id (new transactions, proposals or uncles) makes a job every `refreshIntervalMs` at
 * most. A template the node pushes (block assembler `notify`) goes through `notify()`. Blocks are
 * submitted to every node.
 */
export class CkbJobSource implements WorkSource<CkbJob, CkbJsonBlock> {
  readonly algorithm = 'eaglesong' as const;
  readonly demo = false;
  readonly coin: string;
  readonly pool: DaemonPool;
  private readonly rpc: CkbRpc;
  private readonly options: CkbJobSourceOptions;
  private readonly now: () => number;
  private readonly listeners = new Set<(job: CkbJob) => void>();
  private job: CkbJob | undefined;
  private nextId = 1;
  private readonly polling: NodePolling;

  constructor(options: CkbJobSourceOptions) {
    this.options = options;
    this.coin = options.coin ?? 'CKB';
    this.now = options.now ?? Date.now;
    if (options.nodes instanceof DaemonPool) this.pool = options.nodes;
    else {
      const clients = options.nodes.map((n) =>
        n instanceof RpcClient ? n : new RpcClient({ ...(typeof n === 'string' ? { url: n } : n), jsonrpc: '2.0' }),
      );
      this.pool = new DaemonPool(clients, options.logger ? { logger: options.logger } : {});
    }
    this.rpc = new CkbRpc(this.pool);
    this.polling = new NodePolling({
      intervalMs: options.pollIntervalMs ?? 1000,
      poll: () => this.poll(),
      logger: options.logger,
      fields: { coin: this.coin },
      what: 'CKB node',
      // A reply that breaks CKB's own encoding is a node (or proxy) fault, not a passing outage.
      levelOf: (error) => (error instanceof CkbEncodingError ? 'error' : 'warn'),
    });
  }

  private get running(): boolean {
    return this.polling.active;
  }

  current(): CkbJob | undefined {
    return this.job;
  }

  onJob(listener: (job: CkbJob) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Asks every node for a template: a node without a [block_assembler] (Miner module disabled) or one
   * paying another lock than `payoutLock` is a JobSourceConfigError, and nothing is left running.
   */
  async start(): Promise<void> {
    if (this.running) return;
    let first: CkbJsonBlockTemplate | undefined;
    for (const client of this.pool.clients) {
      let template: CkbJsonBlockTemplate;
      try {
        template = await new CkbRpc(client, client.name).getBlockTemplate();
      } catch (error) {
        if (error instanceof RpcError && error.kind === 'rpc' && error.rpcCode === CKB_RPC_ERRORS.moduleDisabled) {
          throw new JobSourceConfigError(
            `CKB node ${client.name} cannot give block templates: configure [block_assembler] in its ckb.toml and keep "Miner" in rpc.modules (${error.message})`,
          );
        }
        if (error instanceof RpcError && error.daemonUnavailable && this.pool.clients.length > 1) {
          this.options.logger?.warn({ node: client.name, err: error }, 'CKB node unavailable at start');
          continue;
        }
        throw error;
      }
      const job = createCkbJob(template, { id: '0', coin: this.coin, cleanJobs: true });
      if (!sameScript(job.payoutLock, this.options.payoutLock)) {
        throw new JobSourceConfigError(
          `CKB node ${client.name} pays its block rewards to ${describeScript(job.payoutLock)}, not the configured ${describeScript(this.options.payoutLock)}: set [block_assembler] in its ckb.toml to the pool's lock`,
        );
      }
      first ??= template;
    }
    if (first === undefined) throw new JobSourceConfigError('no CKB node could give a block template');
    this.polling.start();
    await this.polling.serial(() => this.consider(first, 'start'));
  }

  async stop(): Promise<void> {
    await this.polling.stop();
  }

  /**
   * A template a node pushed (ckb.toml `[block_assembler] notify = ["http://…"]` POSTs it as the body).
   * A malformed body is refused with a CkbEncodingError; a valid one is considered like a polled one.
   */
  async notify(body: unknown): Promise<void> {
    const template = parseBlockTemplate(body);
    if (this.running) await this.polling.serial(() => this.consider(template, 'notify'));
  }

  /**
   * Submits the block to every node at once. It is accepted as soon as one node returns its hash
   * (a node that already has it answers the same); otherwise, once every node has answered, it is
   * refused with each node's reason (e.g. "Invalid: Block(TransactionsRoot) (code -3)").
   */
  async submitBlock(job: CkbJob, block: CkbJsonBlock): Promise<SubmitBlockResult> {
    let hash: string;
    try {
      hash = headerHash(block.header);
    } catch (error) {
      return { accepted: false, hash: '', reason: `not a block: ${(error as Error).message}` };
    }
    const reasons: string[] = [];
    const outcome = await new Promise<string | undefined>((resolve) => {
      let pending = this.pool.clients.length;
      for (const client of this.pool.clients) {
        new CkbRpc(client, client.name)
          .submitBlock(job.workId, block, { timeoutMs: SUBMIT_TIMEOUT_MS })
          .then(
            (returned) => {
              if (returned === hash) resolve(client.name);
              else reasons.push(`${client.name}: returned ${returned}, expected ${hash}`);
            },
            (error: unknown) => reasons.push(error instanceof Error ? error.message : String(error)),
          )
          .finally(() => {
            pending -= 1;
            if (pending === 0) resolve(undefined);
          });
      }
    });
    const details = { coin: this.coin, height: job.height, hash };
    if (outcome !== undefined) {
      this.options.logger?.info({ ...details, node: outcome }, 'block accepted by the CKB node');
      if (this.running) void this.polling.soon(() => this.refresh('block submitted'));
      return { accepted: true, hash };
    }
    const reason = reasons.join('; ');
    this.options.logger?.error({ ...details, reason }, 'block refused by every CKB node');
    return { accepted: false, hash, reason };
  }

  /** Decides whether a template makes a new job, and emits it. */
  private consider(template: CkbJsonBlockTemplate, reason: string): void {
    const current = this.job;
    const now = this.now();
    let clean: boolean;
    if (current === undefined) clean = true;
    else if (template.parent_hash !== current.parentHash) {
      // A late answer about an older parent must not take the chain backwards.
      if (BigInt(template.number) < BigInt(current.template.number)) return;
      clean = true;
    } else {
      if (template.work_id === current.workId) return;
      if (now - current.createdAt < (this.options.refreshIntervalMs ?? 10_000)) return;
      clean = false;
    }
    const job = createCkbJob(template, {
      id: (this.nextId++).toString(16),
      coin: this.coin,
      cleanJobs: clean,
      createdAt: now,
    });
    // A new work_id over the same header is the same work: as a new job it would let a miner that restarts
    // its nonces on every job (ckb-gominer) send the same shares again under another job id.
    if (!clean && current !== undefined && Buffer.from(job.powHash).equals(current.powHash)) return;
    this.job = job;
    this.options.logger?.info(
      { coin: this.coin, height: job.height, job: job.id, clean, transactions: template.transactions.length, reason },
      'new job from the CKB node',
    );
    for (const listener of this.listeners) {
      try {
        listener(job);
      } catch (error) {
        this.options.logger?.error({ coin: this.coin, job: job.id, err: error }, 'a CKB job listener failed');
      }
    }
  }

  /** One poll: a new tip (until the template's parent is it) or a refresh due fetches a template. */
  private async poll(): Promise<void> {
    const tip = await this.rpc.getTipHeader();
    const current = this.job;
    const refreshDue =
      current === undefined || this.now() - current.createdAt >= (this.options.refreshIntervalMs ?? 10_000);
    // The template follows the tip a moment later: until its parent is the tip, keep asking.
    if (current === undefined || tip.hash !== current.parentHash || refreshDue) {
      await this.refresh(tip.hash === current?.parentHash ? 'refresh' : 'new tip');
    }
  }

  private async refresh(reason: string): Promise<void> {
    const template = await this.rpc.getBlockTemplate();
    if (this.running) await this.polling.serial(() => this.consider(template, reason));
  }
}

function sameScript(a: CkbJsonScript, b: CkbJsonScript): boolean {
  return (
    a.code_hash.toLowerCase() === b.code_hash.toLowerCase() &&
    a.hash_type === b.hash_type &&
    a.args.toLowerCase() === b.args.toLowerCase()
  );
}

function describeScript(s: CkbJsonScript): string {
  return `{code_hash ${s.code_hash}, hash_type ${s.hash_type}, args ${s.args}}`;
}
