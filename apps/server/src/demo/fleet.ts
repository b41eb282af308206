/**
 * The demo network's simulated miner fleet: a few workers of a few demo accounts connect to the real
 * stratum listeners over TCP and submit real, hashed shares. Each worker hashes at a small fixed
 * rate (real hashes, throttled), so vardiff settles at the difficulty that gives one share per
 * interval and the hashrate the pool shows is the hashing actually done. The whole fleet costs a few
 * percent of one core by default.
 */
import { randomInt } from 'node:crypto';
import { findShare, nextExtranonce2 } from '../stratum/client/miner.js';
import { StratumClient } from '../stratum/client/stratumClient.js';
import type { StratumLog } from '../stratum/log.js';
import { type PowFunctions, powFor, type StratumAlgorithm } from '../stratum/pow.js';

export interface FleetTarget {
  algorithm: StratumAlgorithm;
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
  hashrate?: Partial<Record<StratumAlgorithm, number>>;
  /** The share interval the workers ask for with `d=` (default 10 s, like vardiff). */
  shareIntervalSeconds?: number;
  /** Wait before reconnecting after a lost connection (default 5 s, ±50%). */
  reconnectDelayMs?: number;
  log: StratumLog;
}

export const DEFAULT_FLEET_HASHRATE: Record<StratumAlgorithm, number> = {
  sha256: 2_000,
  scrypt: 40,
  x11: 300,
};

export interface FleetWorkerStatus {
  login: string;
  algorithm: StratumAlgorithm;
  connected: boolean;
  accepted: number;
  rejected: number;
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
  private client: StratumClient | undefined;
  private wake: (() => void) | undefined;
  private readonly pow: PowFunctions;
  private readonly hashrate: number;
  readonly done: Promise<void>;

  constructor(
    private readonly target: FleetTarget,
    login: string,
    private readonly options: FleetOptions,
  ) {
    this.pow = powFor(target.algorithm);
    this.hashrate = options.hashrate?.[target.algorithm] ?? DEFAULT_FLEET_HASHRATE[target.algorithm];
    this.status = { login, algorithm: target.algorithm, connected: false, accepted: 0, rejected: 0, hashes: 0 };
    this.done = this.run();
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
    this.client?.destroy();
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
    while (!this.stopped) {
      try {
        await this.mine();
      } catch (error) {
        if (!this.stopped) this.options.log.debug({ err: error, login: this.status.login }, 'demo worker disconnected');
      } finally {
        this.status.connected = false;
        this.client?.destroy();
        this.client = undefined;
      }
      if (!this.stopped) await this.pause(base / 2 + randomInt(0, Math.max(1, base)));
    }
  }

  private async mine(): Promise<void> {
    const { target, status } = this;
    const client = await StratumClient.connect({
      host: target.host,
      port: target.port,
      inbox: false,
      timeoutMs: 15_000,
    });
    this.client = client;
    if (this.stopped) return;
    await client.subscribe('lodestone-demo-fleet/1.0');
    const interval = this.options.shareIntervalSeconds ?? 10;
    const difficulty = (this.hashrate * interval) / this.pow.hashesPerDifficulty;
    const authorized = await client.authorize(status.login, `d=${difficulty.toPrecision(4)}`);
    if (authorized.result !== true) throw new Error(`authorize refused: ${JSON.stringify(authorized.error)}`);
    status.connected = true;

    let jobId = '';
    let extranonce2 = '';
    let nonce = 0;
    let started = Date.now();
    let hashes = 0;
    while (!this.stopped && client.isOpen) {
      const job = client.job;
      if (!job || client.difficulty === undefined) {
        await this.pause(SLICE_MS);
        continue;
      }
      if (job.jobId !== jobId) {
        jobId = job.jobId;
        extranonce2 = nextExtranonce2(client.extranonce2Size);
        nonce = randomInt(0, 2 ** 32 - 1);
      }
      const slice = Math.max(1, Math.round((this.hashrate * SLICE_MS) / 1000));
      const share = findShare(
        {
          job,
          extranonce1: client.extranonce1,
          extranonce2Size: client.extranonce2Size,
          difficulty: client.difficulty,
        },
        this.pow,
        { extranonce2, startNonce: nonce, maxHashes: slice },
      );
      const done = share?.hashes ?? slice;
      nonce = (nonce + done) >>> 0;
      hashes += done;
      status.hashes += done;
      if (share) {
        const reply = await client.submit({ worker: status.login, ...share });
        if (reply.result === true) status.accepted++;
        else status.rejected++;
      }
      // Throttle to the configured hashrate; restart the clock after long stalls.
      const due = started + (hashes / this.hashrate) * 1000;
      const now = Date.now();
      if (now - due > 5000) {
        started = now;
        hashes = 0;
      }
      await this.pause(Math.max(0, due - now));
    }
  }
}

/** Starts the fleet; `stop()` disconnects every worker. */
export function startFleet(options: FleetOptions): Fleet {
  const workers = fleetAssignments(options.workers, options.accounts, options.targets, options.accountPrefix).map(
    (a) => new FleetWorker(a.target, `${a.account}.${a.worker}`, options),
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
