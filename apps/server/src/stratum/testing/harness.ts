/**
 * A real stratum server on 127.0.0.1 (ephemeral ports) over fixture job sources and a recording
 * bus, plus a connected-client helper: what the socket tests and the benchmark start from.
 */
import type { JobSource } from '@lodestone/chain';
import type { AlgorithmKey, FoundBlock, ShareBatch } from '@lodestone/domain';
import { POW } from '@lodestone/pow';
import { bitcoinWork } from '../../chains/bitcoin/index.js';
import { StratumClient } from '../client/stratumClient.js';
import { SILENT_LOG } from '../log.js';
import type { StratumAlgorithm } from '../pow.js';
import type { ListenerKind } from '../session.js';
import { type StratumListenerOptions, type StratumOptions, type StratumServer, startStratum } from '../startStratum.js';
import type { StratumWork } from '../work.js';
import { FixtureJobSource } from './fixtureJobs.js';

export class RecordingBus {
  readonly batches: ShareBatch[] = [];
  readonly blocks: FoundBlock[] = [];
  /** Number of upcoming publishShareBatch calls that fail. */
  failBatches = 0;

  async publishShareBatch(batch: ShareBatch): Promise<void> {
    if (this.failBatches > 0) {
      this.failBatches--;
      throw new Error('bus unavailable');
    }
    this.batches.push(structuredClone(batch));
  }

  async publishFoundBlock(block: FoundBlock): Promise<void> {
    this.blocks.push(structuredClone(block));
  }

  /** Sum over all batches of one worker's counters. */
  totals(account: string, worker: string) {
    const totals = {
      acceptedDifficulty: 0,
      valid: 0,
      invalid: 0,
      stale: 0,
      rejectReasons: {} as Record<string, number>,
    };
    for (const batch of this.batches) {
      for (const w of batch.workers) {
        if (w.account !== account || w.worker !== worker) continue;
        totals.acceptedDifficulty += w.acceptedDifficulty;
        totals.valid += w.valid;
        totals.invalid += w.invalid;
        totals.stale += w.stale;
        for (const [reason, n] of Object.entries(w.rejectReasons)) {
          totals.rejectReasons[reason] = (totals.rejectReasons[reason] ?? 0) + n;
        }
      }
    }
    return totals;
  }
}

/** A share difficulty that one hash in 16 meets (SHA256): tests find shares in microseconds. */
export const EASY_SHA256_DIFFICULTY = POW.sha256.difficultyForTarget(1n << 252n);

export interface HarnessOptions extends Partial<Omit<StratumOptions, 'work' | 'bus' | 'listeners'>> {
  listeners?: Partial<StratumListenerOptions>[];
  /** Sources with their dialects (default: a SHA256 fixture source). */
  work?: StratumWork[];
  networkTarget?: bigint;
}

export interface Harness {
  server: StratumServer;
  bus: RecordingBus;
  /** The fixture source of each algorithm (when the harness made it). */
  source: FixtureJobSource;
  port(kind?: ListenerKind, algorithm?: AlgorithmKey): number;
  connect(kind?: ListenerKind, algorithm?: AlgorithmKey): Promise<StratumClient>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const bus = new RecordingBus();
  const source = new FixtureJobSource({ algorithm: 'sha256', networkTarget: options.networkTarget });
  const work = options.work ?? [bitcoinWork(source)];
  const listeners: StratumListenerOptions[] = (
    options.listeners ?? [{ kind: 'standard' }, { kind: 'xnsub' }, { kind: 'marketplace' }]
  ).map((l) => ({
    algorithm: 'sha256',
    host: '127.0.0.1',
    port: 0,
    kind: 'standard',
    minDifficulty: 1e-12,
    startDifficulty: EASY_SHA256_DIFFICULTY,
    ...l,
  }));
  const { listeners: _omit, work: _work, networkTarget: _target, ...rest } = options;
  const server = await startStratum({
    node: 'test-node',
    log: SILENT_LOG,
    ...rest,
    listeners,
    work,
    bus,
  });
  const clients: StratumClient[] = [];
  const port = (kind: ListenerKind = 'standard', algorithm: AlgorithmKey = 'sha256') => {
    const found = server.listeners.find((l) => l.kind === kind && l.algorithm === algorithm);
    if (!found) throw new Error(`no ${algorithm} ${kind} listener`);
    return found.port;
  };
  return {
    server,
    bus,
    source,
    port,
    async connect(kind, algorithm) {
      const client = await StratumClient.connect({ host: '127.0.0.1', port: port(kind, algorithm), timeoutMs: 5000 });
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) client.destroy();
      await server.stop();
    },
  };
}

/**
 * A stratum port at the network difficulty of `source`'s current job (every accepted share is a block
 * candidate and vardiff stays put) and one client subscribed and authorized as `login`: how the tests
 * against a coin node (litecoind regtest, the dashd stand-in) mine a block through the pool.
 */
export async function startBlockMining(options: {
  node: string;
  algorithm: StratumAlgorithm;
  source: JobSource;
  bus: StratumOptions['bus'];
  login: string;
  agent: string;
}): Promise<{ server: StratumServer; client: StratumClient }> {
  const networkTarget = options.source.current()?.networkTarget;
  if (networkTarget === undefined) throw new Error(`no job from ${options.node}'s coin node`);
  const difficulty = POW[options.algorithm].difficultyForTarget(networkTarget);
  const server = await startStratum({
    node: options.node,
    listeners: [
      {
        algorithm: options.algorithm,
        host: '127.0.0.1',
        port: 0,
        kind: 'standard',
        minDifficulty: difficulty,
        startDifficulty: difficulty,
        maxDifficulty: difficulty,
      },
    ],
    work: [bitcoinWork(options.source)],
    bus: options.bus,
    log: SILENT_LOG,
    flushIntervalMs: 60_000,
  });
  const client = await StratumClient.connect({
    host: '127.0.0.1',
    port: server.listeners[0]?.port ?? 0,
    timeoutMs: 20_000,
  });
  const subscribed = await client.subscribe(options.agent);
  if (subscribed.error !== null) throw new Error(`subscribe refused: ${JSON.stringify(subscribed.error)}`);
  const authorized = await client.authorize(options.login);
  if (authorized.result !== true) throw new Error(`authorize refused: ${JSON.stringify(authorized.error)}`);
  return { server, client };
}
