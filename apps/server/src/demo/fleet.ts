/**
 * The demo network's simulated miner fleet: a few workers of a few demo accounts connect to the real
 * stratum listeners over TCP and submit real, hashed shares, each in its algorithm's dialect (the
 * client's miner side of it, chains/<family>/miner.ts). Each worker hashes at a small fixed
 * rate (real hashes, throttled), so vardiff settles at the difficulty that gives one share per
 * interval and the hashrate the pool shows is the hashing actually done. The whole fleet costs a few
 * percent of one core by default.
 */
import { randomInt } from 'node:crypto';
import type { AlgorithmKey } from '@lodestone/domain';
import { minerDialectFor } from '../chains/registry.js';
import { MinerConnection } from '../stratum/client/minerConnection.js';
import type { MinerDialect } from '../stratum/client/minerDialect.js';
import type { StratumLog } from '../stratum/log.js';
import { powFor } from '../stratum/pow.js';

export interface FleetTarget {
  algorithm: AlgorithmKey;
  host: string;
  port: number;
}

export interface FleetOptions {
  /** One stratum port per demo algorithm (a standard listener). */
  targets: FleetTarget[];
  /** Total workers, spread over the targets and the accounts. 0: no fleet. */
  workers: number;
  /** Accounts `demo1` … `demoN`. */
  accounts: number;
  accountPrefix?: string;
  /** Real hashes per second of one worker, per algorithm (defaults: about 1% of a core each). */
  hashrate?: Partial<Record<AlgorithmKey, number>>;
  /** The share interval the workers ask for with `d=` (default 10 s, like vardiff). */
  shareIntervalSeconds?: number;
  /** Wait before reconnecting after a lost connection (default 5 s, ±50%). */
  reconnectDelayMs?: number;
  /** The miner side of each algorithm's dialect (default: the client's registry). */
  minerDialect?: (algorithm: AlgorithmKey) => MinerDialect | undefined;
  log: StratumLog;
}

/**
 * About 1% of a core per worker. Raw speed of POW[algorithm].hash on this machine (one core of a
 * shared 2-core VM, Node 20, 1 s each, hashes per CPU second): sha256 241,000; scrypt 4,300; x11
 * 31,000; blake2s (286-byte work) 346,000; eaglesong (48-byte message) 161,000; kheavyhash (80-byte
 * input, matrix cached) 99,000.
 */
export const DEFAULT_FLEET_HASHRATE: Record<AlgorithmKey, number> = {
  sha256: 2_000,
  scrypt: 40,
  x11: 300,
  blake2s: 3_000,
  eaglesong: 1_500,
  kheavyhash: 1_000,
};

export interface FleetWorkerStatus {
  login: string;
  algorithm: AlgorithmKey;
  connected: boolean;
  accepted: number;
  rejected: number;
  /** Shares sent whose answer never came (the connection broke or the request timed out). */
  unanswered: number;
  hashes: number;
}

export interface Fleet {
  readonly workers: readonly FleetWorkerStatus[];
  stop(): Promise<void>;
}

/** Worker i mines algorithm i mod T for account (i + ⌊i/T⌋) mod A, so accounts get several algorithms. */
export function fleetAssignments(
  workers: number,
  accounts: number,
  targets: readonly FleetTarget[],
  prefix = 'demo',
): { target: FleetTarget; account: string; worker: string }[] {
  if (targets.length === 0 || accounts < 1) return [];
  return Array.from({ length: workers }, (_, i) => ({
    target: targets[i % targets.length] as FleetTarget,
    account: `${prefix}${((i + Math.floor(i / targets.length)) % accounts) + 1}`,
    worker: `rig${i + 1}`,
  }));
}

/** Hashing happens in slices of this much simulated time, so the event loop is never held for long. */
const SLICE_MS = 100;

class FleetWorker {
  readonly status: FleetWorkerStatus;
  private stopped = false;
  private submitting = false;
  private connection: MinerConnection | undefined;
  private wake: (() => void) | undefined;
  private readonly hashesPerDifficulty: number;
  private readonly hashrate: number;
  readonly done: Promise<void>;

  constructor(
    private readonly target: FleetTarget,
    login: string,
    private readonly newMiner: () => MinerDialect,
    private readonly options: FleetOptions,
  ) {
    this.hashesPerDifficulty = powFor(target.algorithm).hashesPerDifficulty;
    this.hashrate = options.hashrate?.[target.algorithm] ?? DEFAULT_FLEET_HASHRATE[target.algorithm];
    this.status = {
      login,
      algorithm: target.algorithm,
      connected: false,
      accepted: 0,
      rejected: 0,
      unanswered: 0,
      hashes: 0,
    };
    this.done = this.run();
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
    // A share in flight keeps its answer, so `accepted` counts every share the pool accepted: the
    // loop closes the connection once it has read it (a request times out after 15 s at most).
    if (!this.submitting) this.connection?.destroy();
  }

  private async pause(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = undefined;
  }

  private async run(): Promise<void> {
    await this.pause(randomInt(0, 2000));
    const base = this.options.reconnectDelayMs ?? 5000;
    let reconnectTo: MinerConnection['reconnectTo'];
    while (!this.stopped) {
      try {
        await this.mine(reconnectTo);
      } catch (error) {
        if (!this.stopped) this.options.log.debug({ err: error, login: this.status.login }, 'demo worker disconnected');
      } finally {
        this.status.connected = false;
        reconnectTo = this.connection?.reconnectTo;
        this.connection?.destroy();
        this.connection = undefined;
      }
      if (this.stopped) break;
      // Asked to reconnect (a node going down for a restart): go at once, or after the wait it named.
      if (reconnectTo) await this.pause(reconnectTo.waitSeconds * 1000);
      else await this.pause(base / 2 + randomInt(0, Math.max(1, base)));
    }
  }

  /** Mines on one connection: to the target, or where the pool last sent the worker (client.reconnect). */
  private async mine(sentTo: MinerConnection['reconnectTo']): Promise<void> {
    const { target, status } = this;
    const connection = await MinerConnection.open(
      { host: sentTo?.host ?? target.host, port: sentTo?.port ?? target.port, inbox: false, timeoutMs: 15_000 },
      this.newMiner(),
    );
    this.connection = connection;
    if (this.stopped) return;
    const { client, miner } = connection;
    await connection.subscribe('lodestone-demo-fleet/1.0');
    const interval = this.options.shareIntervalSeconds ?? 10;
    const difficulty = (this.hashrate * interval) / this.hashesPerDifficulty;
    await connection.authorize(status.login, `d=${difficulty.toPrecision(4)}`);
    status.connected = true;

    let started = performance.now();
    let hashes = 0;
    while (!this.stopped && client.isOpen && !connection.reconnectTo) {
      if (!miner.ready) {
        await this.pause(SLICE_MS);
        continue;
      }
      const slice = Math.max(1, Math.round((this.hashrate * SLICE_MS) / 1000));
      const found = miner.search(slice);
      hashes += found.hashes;
      status.hashes += found.hashes;
      if (found.share) {
        this.submitting = true;
        try {
          const reply = await connection.submit(status.login, found.share).catch((error: unknown) => {
            status.unanswered++;
            throw error;
          });
          if (reply.result === true) status.accepted++;
          else status.rejected++;
        } finally {
          this.submitting = false;
        }
      }
      // Throttle to the configured hashrate; restart the clock after long stalls.
      const due = started + (hashes / this.hashrate) * 1000;
      const now = performance.now();
      if (now - due > 5000) {
        started = now;
        hashes = 0;
      }
      await this.pause(Math.max(0, due - now));
    }
    if (connection.failure !== undefined) throw connection.failure;
  }
}

/**
 * Starts the fleet over the targets whose algorithm has a miner dialect (the others are named in one
 * log line and get no workers); `stop()` disconnects every worker.
 */
export function startFleet(options: FleetOptions): Fleet {
  const minerFor = options.minerDialect ?? minerDialectFor;
  const mined = options.targets.filter((t) => minerFor(t.algorithm) !== undefined);
  const skipped = [...new Set(options.targets.filter((t) => !mined.includes(t)).map((t) => t.algorithm))];
  if (skipped.length > 0) {
    options.log.warn({ algorithms: skipped }, 'demo miner fleet: no miner dialect for these algorithms, not mined');
  }
  const workers = fleetAssignments(options.workers, options.accounts, mined, options.accountPrefix).map(
    (a) =>
      new FleetWorker(
        a.target,
        `${a.account}.${a.worker}`,
        () => minerFor(a.target.algorithm) as MinerDialect,
        options,
      ),
  );
  options.log.info({ workers: workers.length, accounts: options.accounts }, 'demo miner fleet started');
  return {
    workers: workers.map((w) => w.status),
    async stop() {
      for (const worker of workers) worker.stop();
      await Promise.all(workers.map((w) => w.done));
    },
  };
}
