import { randomUUID } from 'node:crypto';
import type { AlgorithmKey, BatchNetwork, ConnectionEvent, ShareBatch, WorkerShareCounts } from '@lodestone/domain';
import type { ShareBus } from '../bus/types.js';
import type { StratumLog } from './log.js';
import type { JournalShare, RecoveredShares, ShareJournal } from './shareJournal.js';

export type ShareOutcome =
  /**
   * `achieved`: the difficulty the share's hash met, for a solo worker's best share (solo ports only;
   * 0 for a share that found a block, which is no best share).
   */
  (
    | { kind: 'valid'; difficulty: number; achieved?: number }
    | { kind: 'invalid'; reason: string }
    | { kind: 'stale'; reason: string }
  ) & {
    /** Through a solo port (docs/solo.md): counted apart, never valued by PPS. */
    solo?: boolean;
  };

/** Where sessions count their shares and report their workers' connections. */
export interface ShareRecorder {
  record(algorithm: AlgorithmKey, account: string, worker: string, outcome: ShareOutcome, at: number): void;
  /** A worker's connection began or ended (docs/dashboard.md, "Connection history"). */
  connection(algorithm: AlgorithmKey, event: ConnectionEvent): void;
}

/**
 * Connection events one algorithm holds between flushes. A reconnect storm of a large farm stays far
 * below it; beyond it (a flood of connections that log in and leave) events are dropped and counted in
 * the log rather than growing the batch without bound — the history is for miners, not accounting.
 */
export const MAX_PENDING_CONNECTIONS = 50_000;

/** A worker's counts before its first share of a batch: nothing accepted or rejected yet. */
export function emptyShareCounts(account: string, worker: string, lastShareAt: number): WorkerShareCounts {
  return { account, worker, acceptedDifficulty: 0, valid: 0, invalid: 0, stale: 0, lastShareAt, rejectReasons: {} };
}

export interface ShareAggregatorOptions {
  node: string;
  bus: Pick<ShareBus, 'publishShareBatch'>;
  log: StratumLog;
  /** Default 5 s. */
  flushIntervalMs?: number;
  /** The network an algorithm's shares are mined against now (its newest job); stamped on each batch. */
  networkOf?: (algorithm: AlgorithmKey) => BatchNetwork | undefined;
  /** The aux chains the same shares are merge-mined against now; stamped on each batch beside the network. */
  mergedOf?: (algorithm: AlgorithmKey) => BatchNetwork[];
  now?: () => number;
  /** Accepted shares and cut batches are written here first, so a killed process loses none. */
  journal?: ShareJournal;
}

interface AlgorithmCounters {
  intervalStart: number;
  workers: Map<string, WorkerShareCounts>;
  /** Workers on solo ports, kept apart so that their shares never reach PPS. */
  soloWorkers: Map<string, WorkerShareCounts>;
  connections: ConnectionEvent[];
  /** Connection events dropped past MAX_PENDING_CONNECTIONS since the last flush. */
  droppedConnections: number;
  /** A batch cut but not yet published; retried as is (same id) until the bus takes it. */
  unsent: ShareBatch | undefined;
}

/**
 * Sums shares per (account, worker) and flushes one ShareBatch per algorithm every interval. When
 * publishing fails, the cut batch is kept and retried with the same id (the bus delivers at least
 * once and accounting applies a batch id once), while new shares keep accumulating for the next one.
 */
export class ShareAggregator implements ShareRecorder {
  private readonly counters = new Map<AlgorithmKey, AlgorithmCounters>();
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  /** Batches of an earlier run (the journal's), published again before anything new. */
  private recovered: ShareBatch[] = [];

  constructor(private readonly options: ShareAggregatorOptions) {
    this.now = options.now ?? Date.now;
  }

  start(): void {
    const interval = this.options.flushIntervalMs ?? 5000;
    this.timer = setInterval(() => {
      this.flush().catch((error: unknown) => this.options.log.error({ err: error }, 'share flush failed'));
    }, interval);
    this.timer.unref();
  }

  /** Stops the timer and flushes what is left; rejects if the last batches could not be published. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    const unsent = [...this.counters.values()].filter(
      (c) => c.unsent !== undefined || c.workers.size + c.soloWorkers.size > 0 || c.connections.length > 0,
    );
    if (unsent.length + this.recovered.length > 0) {
      throw new Error(`${unsent.length + this.recovered.length} share batch(es) could not be published`);
    }
  }

  /**
   * Takes back what the journal kept from an earlier run: its batches go out again at the next flush
   * under their own ids (accounting applies an id once), its uncounted shares are counted now.
   */
  recover(recovered: RecoveredShares): void {
    this.recovered.push(...recovered.batches);
    for (const share of recovered.shares) {
      // A journal line with what its hash achieved is a solo port's share.
      const outcome: ShareOutcome =
        share.achieved === undefined
          ? { kind: 'valid', difficulty: share.difficulty }
          : { kind: 'valid', difficulty: share.difficulty, achieved: share.achieved, solo: true };
      this.record(share.algorithm, share.account, share.worker, outcome, share.at);
    }
  }

  record(algorithm: AlgorithmKey, account: string, worker: string, outcome: ShareOutcome, at: number): void {
    const solo = outcome.solo === true;
    // Before the caller answers the miner: see shareJournal.ts.
    if (outcome.kind === 'valid') {
      const share: JournalShare = { algorithm, account, worker, difficulty: outcome.difficulty, at };
      if (solo) share.achieved = outcome.achieved ?? 0;
      this.options.journal?.share(share);
    }
    const counters = this.countersOf(algorithm, at);
    const workers = solo ? counters.soloWorkers : counters.workers;
    const key = `${account}\u0000${worker}`;
    let counts = workers.get(key);
    if (!counts) {
      counts = emptyShareCounts(account, worker, at);
      workers.set(key, counts);
    }
    counts.lastShareAt = Math.max(counts.lastShareAt, at);
    if (outcome.kind === 'valid') {
      counts.valid += 1;
      counts.lastAcceptedAt = Math.max(counts.lastAcceptedAt ?? 0, at);
      counts.acceptedDifficulty += outcome.difficulty;
      if (solo && (outcome.achieved ?? 0) > 0) {
        counts.bestDifficulty = Math.max(counts.bestDifficulty ?? 0, outcome.achieved ?? 0);
      }
      return;
    }
    if (outcome.kind === 'stale') counts.stale += 1;
    else counts.invalid += 1;
    counts.rejectReasons[outcome.reason] = (counts.rejectReasons[outcome.reason] ?? 0) + 1;
  }

  connection(algorithm: AlgorithmKey, event: ConnectionEvent): void {
    const counters = this.countersOf(algorithm, event.at);
    if (counters.connections.length >= MAX_PENDING_CONNECTIONS) counters.droppedConnections += 1;
    else counters.connections.push(event);
  }

  private countersOf(algorithm: AlgorithmKey, at: number): AlgorithmCounters {
    let counters = this.counters.get(algorithm);
    if (!counters) {
      counters = {
        intervalStart: at,
        workers: new Map(),
        soloWorkers: new Map(),
        connections: [],
        droppedConnections: 0,
        unsent: undefined,
      };
      this.counters.set(algorithm, counters);
    }
    return counters;
  }

  /** Publishes every algorithm's batch now. Concurrent calls share one run. */
  flush(): Promise<void> {
    this.flushing ??= this.flushAll().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async flushAll(): Promise<void> {
    while (this.recovered.length > 0) {
      const batch = this.recovered[0] as ShareBatch;
      try {
        await this.options.bus.publishShareBatch(batch);
      } catch (error) {
        this.options.log.warn({ err: error, batch: batch.id }, 'recovered share batch not published; retrying');
        return;
      }
      this.options.journal?.delivered(batch.id);
      this.recovered.shift();
    }
    const now = this.now();
    await Promise.all([...this.counters.entries()].map(([algorithm, c]) => this.flushAlgorithm(algorithm, c, now)));
  }

  private async flushAlgorithm(algorithm: AlgorithmKey, counters: AlgorithmCounters, now: number): Promise<void> {
    const retry = counters.unsent !== undefined;
    if (!counters.unsent) {
      if (counters.workers.size + counters.soloWorkers.size === 0 && counters.connections.length === 0) {
        counters.intervalStart = now;
        return;
      }
      counters.unsent = {
        id: randomUUID(),
        node: this.options.node,
        algorithm,
        intervalStart: counters.intervalStart,
        intervalEnd: Math.max(now, counters.intervalStart + 1),
        workers: [...counters.workers.values()],
      };
      if (counters.soloWorkers.size > 0) counters.unsent.soloWorkers = [...counters.soloWorkers.values()];
      const network = this.options.networkOf?.(algorithm);
      if (network) counters.unsent.network = network;
      const merged = this.options.mergedOf?.(algorithm);
      if (merged && merged.length > 0) counters.unsent.merged = merged;
      if (counters.connections.length > 0) counters.unsent.connections = counters.connections;
      if (counters.droppedConnections > 0) {
        this.options.log.warn(
          { algorithm, dropped: counters.droppedConnections },
          'connection events dropped: too many between two flushes',
        );
      }
      counters.workers = new Map();
      counters.soloWorkers = new Map();
      counters.connections = [];
      counters.droppedConnections = 0;
      counters.intervalStart = counters.unsent.intervalEnd;
      this.options.journal?.batch(counters.unsent);
    }
    const batch = counters.unsent;
    try {
      await this.options.bus.publishShareBatch(batch);
      this.options.journal?.delivered(batch.id);
      counters.unsent = undefined;
      // What accumulated while the bus was failing goes out now rather than one interval later.
      if (retry) await this.flushAlgorithm(algorithm, counters, now);
    } catch (error) {
      this.options.log.warn(
        { err: error, algorithm, batch: batch.id, workers: batch.workers.length },
        'share batch not published; retrying at the next flush',
      );
    }
  }
}
