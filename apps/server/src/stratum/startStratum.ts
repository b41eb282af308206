import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type DataDirLock, fileErrorReason, lockDataDir } from '@lodestone/db';
import { type AlgorithmKey, type BatchNetwork, networkDifficulty } from '@lodestone/domain';
import type { Registry } from 'prom-client';
import type { ShareBus } from '../bus/types.js';
import type { ProxyProtocolPolicy } from '../net/proxyProtocol.js';
import { AddressGuard } from './addressGuard.js';
import { BlockSubmitter } from './blocks.js';
import { ConnectionBudget, openFileLimit, stratumCapacity } from './capacity.js';
import { portDifficulty } from './difficulty.js';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS, openListener, type RunningListener } from './listener.js';
import type { StratumLog } from './log.js';
import { NO_METRICS, prometheusStratumMetrics, type StratumMetrics } from './metrics.js';
import { powFor } from './pow.js';
import { DEFAULT_SESSION_LIMITS, type ListenerKind, type SessionLimits } from './session.js';
import { ShareAggregator } from './shareAggregator.js';
import { ShareJournal, ShareJournalError } from './shareJournal.js';
import { DEFAULT_VARDIFF, type VardiffSettings } from './vardiff.js';
import type { OpenedWork, StratumWork, WorkSourceView } from './work.js';

export interface StratumListenerOptions {
  algorithm: AlgorithmKey;
  /** 0 lets the OS choose (tests). */
  port: number;
  host: string;
  kind: ListenerKind;
  /** Share difficulties; each defaults per algorithm and kind (lower on the demo network). */
  minDifficulty?: number | undefined;
  maxDifficulty?: number | undefined;
  startDifficulty?: number | undefined;
  /** PEM key and certificate: the port speaks stratum+ssl. */
  tls?: { key: string | Buffer; cert: string | Buffer } | undefined;
  /** Connections this port accepts (default: the process's cap). */
  maxConnections?: number | undefined;
}

export interface StratumOptions {
  /** This node's name in share batches and found blocks. */
  node: string;
  listeners: StratumListenerOptions[];
  /**
   * One job source per algorithm that has listeners, with the dialect of its chain (a chain module's
   * `stratumWork`); the caller starts and stops the sources.
   */
  work: StratumWork[];
  bus: Pick<ShareBus, 'publishShareBatch' | 'publishFoundBlock'>;
  log: StratumLog;
  /** Whether an account may mine; default: every valid account name may (no accounts yet). */
  authorize?: (account: string) => Promise<boolean>;
  /** Share batch flush interval; default 5000. */
  flushIntervalMs?: number;
  /** Vardiff: `targetIntervalMs` is the share interval aimed at (default 10 s). */
  vardiff?: Partial<VardiffSettings>;
  limits?: Partial<ConnectionLimits & SessionLimits>;
  /** Registers stratum metrics (sessions, shares by outcome, blocks, refusals) in this registry. */
  registry?: Registry;
  /** Clock (epoch ms); tests move it. */
  now?: () => number;
  /** Stratum connections of the whole process (default: the open-file limit less a reserve; capacity.ts). */
  maxConnections?: number | undefined;
  /** The open-file limit (default: read from the system); tests set it. */
  fileLimit?: number | undefined;
  /**
   * Where accepted shares are journaled before they are answered (shareJournal.ts); what an earlier
   * run left there is published again at start. Unset: no journal (tests, benchmarks).
   */
  journalDirectory?: string | undefined;
  /** Balancers that may name a miner's address in a PROXY header (docs/deployment.md). */
  proxy?: ProxyProtocolPolicy | undefined;
}

export interface StratumListenerInfo {
  algorithm: AlgorithmKey;
  host: string;
  port: number;
  kind: ListenerKind;
  tls: boolean;
  minDifficulty: number;
  maxDifficulty: number;
  startDifficulty: number;
}

export interface StratumServer {
  listeners: StratumListenerInfo[];
  /** Publishes the share counters now (also done every flushIntervalMs). */
  flush(): Promise<void>;
  /**
   * Stops accepting, closes sessions, waits for block submissions in flight, flushes the shares. With
   * `drain`, first asks every miner to reconnect (to `reconnectHost`, or where it connected), publishes
   * what was answered, and gives the miners up to `ms` to leave by themselves.
   */
  stop(drain?: StratumDrain): Promise<void>;
}

export interface StratumDrain {
  ms: number;
  reconnectHost?: string | undefined;
}

/**
 * The network a source's shares are mined against now, as share batches carry it to accounting: its
 * newest job's coin, height, block reward and the template's fees in it (FPPS), and the difficulty
 * shares are valued at — the network difficulty of a real chain, a real coin's on the demo network
 * (BitcoinJob.valuationTarget). Undefined before the first job.
 */
export function batchNetwork(source: WorkSourceView): BatchNetwork | undefined {
  const job = source.current();
  if (!job) return undefined;
  const own = network(source, job.coin, job.height, job.coinbaseValue, job.networkTarget, job.valuationTarget);
  return {
    ...own,
    ...(job.fees !== undefined && { fees: job.fees.toString() }),
    ...(job.blockSeconds !== undefined && { blockSeconds: job.blockSeconds }),
  };
}

/**
 * The aux chains a source's shares are merge-mined against now (its newest job's): each one's coin,
 * height, block value and the network difficulty of its own target.
 */
export function mergedNetworks(source: WorkSourceView): BatchNetwork[] {
  const chains = source.current()?.merged?.chains ?? [];
  return chains.map((c) => network(source, c.coin, c.height, c.coinbaseValue, c.target, c.valuationTarget));
}

/** One chain as a batch carries it; `blockDifficulty` only where shares are valued at another target (demo). */
function network(
  source: WorkSourceView,
  coin: string,
  height: number,
  reward: bigint,
  blockTarget: bigint,
  valuationTarget: bigint | undefined,
): BatchNetwork {
  const { hashesPerDifficulty } = powFor(source.algorithm);
  const blocks = networkDifficulty(blockTarget, hashesPerDifficulty);
  const valued = valuationTarget === undefined ? blocks : networkDifficulty(valuationTarget, hashesPerDifficulty);
  return {
    coin,
    height,
    reward: reward.toString(),
    difficulty: valued,
    demo: source.demo,
    ...(valued !== blocks && { blockDifficulty: blocks }),
  };
}

/**
 * Starts every configured stratum port. Each algorithm gets one job manager over its source; all
 * ports share the extranonce allocator, the address guard, the share aggregator and the block
 * submitter of this node.
 */
export async function startStratum(options: StratumOptions): Promise<StratumServer> {
  const now = options.now ?? Date.now;
  const { log } = options;
  const metrics = options.registry ? prometheusStratumMetrics(options.registry) : NO_METRICS;
  const limits: ConnectionLimits & SessionLimits = {
    ...DEFAULT_CONNECTION_LIMITS,
    ...DEFAULT_SESSION_LIMITS,
    ...options.limits,
  };
  const vardiff: VardiffSettings = { ...DEFAULT_VARDIFF, ...options.vardiff };
  const authorize = options.authorize ?? (async () => true);

  const opened = new Map<AlgorithmKey, OpenedWork>();
  for (const listener of options.listeners) {
    if (opened.has(listener.algorithm)) continue;
    const work = options.work.find((w) => w.source.algorithm === listener.algorithm);
    if (!work)
      throw new Error(
        `stratum: no job source for ${listener.algorithm}, which has a listener on port ${listener.port}`,
      );
    opened.set(listener.algorithm, work.open(log));
  }

  const journalLock = options.journalDirectory ? await lockJournal(options.journalDirectory) : undefined;
  let journalOpened: ReturnType<typeof ShareJournal.open> | undefined;
  try {
    journalOpened = options.journalDirectory
      ? ShareJournal.open({
          directory: options.journalDirectory,
          now,
          onWriteError: journalWriteErrors(log, metrics, now),
        })
      : undefined;
  } catch (error) {
    await journalLock?.release();
    throw error;
  }
  const journal = journalOpened?.journal;
  const { recovered } = journalOpened ?? {};
  if (recovered && recovered.batches.length + recovered.shares.length + recovered.blocks.length > 0) {
    log.info(
      { batches: recovered.batches.length, shares: recovered.shares.length, blocks: recovered.blocks.length },
      'share journal: publishing again what an earlier run may not have delivered',
    );
  }
  const aggregator = new ShareAggregator({
    node: options.node,
    bus: options.bus,
    journal,
    log,
    flushIntervalMs: options.flushIntervalMs,
    now,
    networkOf: (algorithm) => {
      const work = opened.get(algorithm as AlgorithmKey);
      return work ? batchNetwork(work.jobs.source) : undefined;
    },
    mergedOf: (algorithm) => {
      const work = opened.get(algorithm as AlgorithmKey);
      return work ? mergedNetworks(work.jobs.source) : [];
    },
  });
  const blocks = new BlockSubmitter({ node: options.node, bus: options.bus, log, metrics, now, journal });
  if (journalOpened) blocks.resend(journalOpened.recovered.blocks);
  const guard = new AddressGuard(limits.maxConnectionsPerAddress, now);
  const capacity = stratumCapacity(
    'fileLimit' in options ? options.fileLimit : openFileLimit(),
    options.maxConnections,
  );
  if (capacity.lowered) log.warn({ ...capacity }, `stratum connection cap lowered: ${capacity.lowered}`);
  log.info(
    { fileLimit: capacity.fileLimit ?? 'unknown', reserve: capacity.reserve, maxConnections: capacity.maxConnections },
    'stratum connection capacity',
  );
  const budget = new ConnectionBudget(capacity.maxConnections);
  const guardSweep = setInterval(() => guard.sweep(), 60_000);
  guardSweep.unref();

  for (const work of opened.values()) work.jobs.start();
  if (journalOpened) aggregator.recover(journalOpened.recovered);
  aggregator.start();

  const running: RunningListener[] = [];
  const listeners: StratumListenerInfo[] = [];
  const stop = async (drain?: StratumDrain) => {
    clearInterval(guardSweep);
    if (drain && drain.ms > 0 && running.some((l) => l.sessionCount > 0)) {
      for (const listener of running) listener.drain(drain.reconnectHost);
      const sessions = running.reduce((sum, l) => sum + l.sessionCount, 0);
      log.info({ sessions, ms: drain.ms }, 'stratum draining: miners asked to reconnect');
      await aggregator.flush().catch((error: unknown) => log.warn({ err: error }, 'flush while draining failed'));
      await untilEmpty(running, drain.ms);
    }
    await Promise.all(running.map((l) => l.close()));
    for (const work of opened.values()) work.jobs.stop();
    await blocks.drain();
    try {
      await aggregator.stop();
    } finally {
      journal?.close();
      await journalLock?.release();
    }
  };

  try {
    for (const config of options.listeners) {
      const { jobs, dialect } = opened.get(config.algorithm) as OpenedWork;
      const difficulty = portDifficulty(config.algorithm, config.kind, jobs.source.demo, dialect.pow, {
        min: config.minDifficulty,
        max: config.maxDifficulty,
        start: config.startDifficulty,
      });
      const settings = {
        algorithm: config.algorithm,
        kind: config.kind,
        port: config.port,
        minDifficulty: difficulty.min,
        maxDifficulty: difficulty.max,
        startDifficulty: difficulty.start,
      };
      const listener = await openListener({
        host: config.host,
        port: config.port,
        tls: config.tls,
        settings,
        services: {
          port: settings,
          jobs,
          dialect,
          shares: aggregator,
          blocks,
          authorize,
          vardiff,
          limits,
          metrics,
          log,
          now,
        },
        guard,
        budget,
        proxy: options.proxy,
        maxConnections: Math.min(config.maxConnections ?? capacity.maxConnections, capacity.maxConnections),
        limits,
        metrics,
        log,
        afterShares: journal ? (write) => journal.afterShares(write) : undefined,
      });
      settings.port = listener.port;
      running.push(listener);
      listeners.push({
        algorithm: config.algorithm,
        host: config.host,
        port: listener.port,
        kind: config.kind,
        tls: listener.tls,
        minDifficulty: difficulty.min,
        maxDifficulty: difficulty.max,
        startDifficulty: difficulty.start,
      });
    }
  } catch (error) {
    await stop().catch((stopError: unknown) =>
      log.error({ err: stopError }, 'stratum cleanup after a failed start failed'),
    );
    throw error;
  }

  return { listeners, flush: () => aggregator.flush(), stop };
}

/** Resolves once every listener's sessions are gone, or after `ms`. */
async function untilEmpty(listeners: readonly RunningListener[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([Promise.all(listeners.map((l) => l.whenEmpty())), bound]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One process per share journal: a second stratum process on the same journal (the same NODE_NAME and
 * DATA_DIR: both default to the host's name and ./data) would delete the first one's files as it
 * starts, and lose the shares they hold. Taken before the journal is read.
 */
async function lockJournal(directory: string): Promise<DataDirLock> {
  try {
    // The lock sits beside the journal's folder (`<folder>.lock`).
    mkdirSync(path.dirname(directory), { recursive: true });
  } catch (error) {
    throw new ShareJournalError(`share journal: cannot create ${path.dirname(directory)} (${fileErrorReason(error)})`, {
      cause: error,
    });
  }
  return lockDataDir(directory, 'NODE_NAME', {
    advice: 'Each stratum process keeps its own share journal: give every process on this DATA_DIR its own NODE_NAME.',
  });
}

/** A minute between two logged journal write errors: the log may be on the disk that is full. */
const JOURNAL_ERROR_LOG_MS = 60_000;

/**
 * Where the share journal's write errors go: counted in a metric (alert on it) and logged, the first at
 * once and then at most once a minute with how many failed meanwhile. Shares are still answered and
 * batches still published; only their crash safety is lost until a write succeeds again.
 */
function journalWriteErrors(log: StratumLog, metrics: StratumMetrics, now: () => number) {
  let lastLogged = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  return (error: unknown, file: string) => {
    metrics.journalWriteFailed(file);
    unlogged++;
    const at = now();
    if (at - lastLogged < JOURNAL_ERROR_LOG_MS) return;
    log.error(
      { err: error, file, failures: unlogged },
      `share journal: cannot write ${file} (shares are answered and published; not crash-safe until it can)`,
    );
    lastLogged = at;
    unlogged = 0;
  };
}
