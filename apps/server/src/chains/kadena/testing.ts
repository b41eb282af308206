/**
 * Kadena jobs and replayed Kadena miners against a real Session, for the dialect's unit tests: jobs are
 * built from real mainnet01 work headers (kadena-io/chainweb-mining-client test/data/test-headers.bin,
 * through @lodestone/chain/testing), optionally with an easier target so that blocks can be found; the
 * source hands them out and records the solved headers it is asked to submit (the chainweb stand-in
 * checks real submissions in kadena.api.test.ts). A replayed miner speaks to the session line by line
 * in the order and forms a given miner uses, hashing with KadenaMiner.
 */
import {
  createKadenaJob,
  hashToBase64Url,
  type KadenaJob,
  kadenaBlockHash,
  parseKadenaHeader,
  type SubmitBlockResult,
} from '@lodestone/chain';
import { realMainnetHeaders } from '@lodestone/chain/testing';
import { ExtranonceAllocator } from '../../stratum/extranonce.js';
import { JobManager } from '../../stratum/jobManager.js';
import { SILENT_LOG } from '../../stratum/log.js';
import { NO_METRICS } from '../../stratum/metrics.js';
import { DEFAULT_SESSION_LIMITS, type PortSettings, Session } from '../../stratum/session.js';
import type { ShareOutcome } from '../../stratum/shareAggregator.js';
import { FixtureWorkSource } from '../../stratum/testing/fixtureWorkSource.js';
import { DEFAULT_VARDIFF } from '../../stratum/vardiff.js';
import { KadenaDialect } from './dialect.js';
import { KadenaMiner, type KadenaMinerOptions } from './miner.js';

/** 360 real mainnet01 work headers of chain 5 (318 bytes: work ‖ block hash), each the parent of the next. */
export const MAINNET_HEADERS = realMainnetHeaders();

/** A job over real header `index`, its target replaced by `target` when given. */
export function kadenaFixtureJob(
  index: number,
  options: { target?: bigint; clock: { now: number }; id: () => string },
): KadenaJob {
  const header = Buffer.from((MAINNET_HEADERS[index] as Buffer).subarray(0, 286));
  if (options.target !== undefined) {
    header.fill(0, 158, 190);
    let t = options.target;
    for (let i = 158; t > 0n; i++, t >>= 8n) header[i] = Number(t & 0xffn);
  }
  const fields = parseKadenaHeader(header);
  return createKadenaJob({
    id: options.id(),
    work: { chainId: fields.chainId, target: fields.target, header },
    node: 'http://fixture',
    version: 'mainnet01',
    cleanJobs: true,
    createdAt: options.clock.now,
    nextId: options.id,
    now: () => options.clock.now,
  });
}

/** Hands out the jobs a test publishes; records the solved headers it is asked to submit. */
export class KadenaFixtureSource extends FixtureWorkSource<KadenaJob, Uint8Array> {
  readonly algorithm = 'blake2s' as const;
  readonly submitted: { job: KadenaJob; solution: Uint8Array }[] = [];

  async submitBlock(job: KadenaJob, solution: Uint8Array): Promise<SubmitBlockResult> {
    this.submitted.push({ job, solution });
    return { accepted: true, hash: hashToBase64Url(kadenaBlockHash(solution)) };
  }
}

export interface Wire {
  id: number | string | null;
  method?: string;
  params?: unknown[];
  result?: unknown;
  error?: [number, string, unknown] | null;
}

export interface Recorded {
  account: string;
  worker: string;
  outcome: ShareOutcome;
}

/** One process's Kadena stratum state: a job manager over the fixture source and the dialect. */
export class KadenaPool {
  readonly clock = { now: Date.UTC(2026, 0, 1) };
  readonly source = new KadenaFixtureSource();
  readonly jobs = new JobManager<KadenaJob, Uint8Array>(this.source, { log: SILENT_LOG });
  readonly dialect: KadenaDialect;
  readonly shares: Recorded[] = [];
  readonly blocks: { hash: string; account: string; difficulty: number; submit(): Promise<SubmitBlockResult> }[] = [];
  private nextId = 0;

  constructor(
    readonly port: PortSettings = {
      algorithm: 'blake2s',
      kind: 'standard',
      port: 3333,
      minDifficulty: 1,
      maxDifficulty: 2 ** 60,
      startDifficulty: 16,
    },
    nonce1Start = 0x1234,
  ) {
    this.dialect = new KadenaDialect(this.jobs, new ExtranonceAllocator(nonce1Start, 2));
    this.jobs.start();
  }

  /** A job over real header `index` (target replaced when given), published. */
  publish(index: number, target?: bigint): KadenaJob {
    const job = kadenaFixtureJob(index, { target, clock: this.clock, id: () => (++this.nextId).toString(16) });
    this.source.publish(job);
    return job;
  }

  /** The current job again with a later creation time, as KadenaJobSource re-issues it every second. */
  reissue(): KadenaJob {
    const current = this.source.current();
    if (!current) throw new Error('no job');
    const job = current.withCreationTime(current.creationTime + 1_000_000n);
    this.source.publish(job);
    return job;
  }

  valid(): Recorded[] {
    return this.shares.filter((s) => s.outcome.kind === 'valid');
  }

  connect(options: KadenaMinerOptions = {}): ReplayedKadenaMiner {
    return new ReplayedKadenaMiner(this, options);
  }
}

/** A miner connected to its own Session; every line the session writes is kept and fed to the miner. */
export class ReplayedKadenaMiner {
  readonly miner: KadenaMiner;
  readonly session: Session<KadenaJob>;
  readonly received: Wire[] = [];
  closedBecause: string | undefined;
  private nextId = 0;

  constructor(pool: KadenaPool, options: KadenaMinerOptions) {
    this.miner = new KadenaMiner(options);
    this.session = new Session<KadenaJob>(
      {
        port: pool.port,
        jobs: pool.jobs,
        dialect: pool.dialect,
        shares: {
          record: (_algorithm, account, worker, outcome) => pool.shares.push({ account, worker, outcome }),
          connection: () => undefined,
        },
        blocks: {
          submit: (candidate) =>
            pool.blocks.push({
              hash: candidate.block.hash,
              account: candidate.account,
              difficulty: candidate.difficulty,
              submit: () => candidate.block.submit(),
            }),
        },
        authorize: async () => true,
        vardiff: DEFAULT_VARDIFF,
        limits: DEFAULT_SESSION_LIMITS,
        metrics: NO_METRICS,
        log: SILENT_LOG,
        now: () => pool.clock.now,
      },
      {
        remoteAddress: '127.0.0.1',
        write: (text) => {
          for (const line of text.split('\n')) {
            if (line === '') continue;
            const message = JSON.parse(line) as Wire;
            this.received.push(message);
            if (typeof message.method === 'string') this.miner.notification(message.method, message.params ?? []);
          }
        },
        close: (reason) => {
          this.closedBecause = reason;
        },
        setReadPaused() {},
      },
    );
    pool.jobs.onJob((entry, clean) => this.session.onJob(entry, clean));
  }

  /** Sends one request as a raw line; resolves with its answer once the session handled it. */
  async raw(line: string, id: number): Promise<Wire> {
    this.session.receive(line);
    // Authorization awaits the accounts check: let the queue run.
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    const answer = this.received.find((m) => m.id === id && m.method === undefined);
    if (!answer) throw new Error(`no answer to ${line}`);
    return answer;
  }

  call(method: string, params: unknown[]): Promise<Wire> {
    const id = ++this.nextId;
    return this.raw(JSON.stringify({ id, method, params }), id);
  }

  async subscribe(agent: string): Promise<Wire> {
    const answer = await this.call('mining.subscribe', this.miner.subscribeParams(agent));
    if (answer.error === null) this.miner.subscribed(answer.result);
    return answer;
  }

  /** Submits `[login, jobId, nonce2]` as given. */
  submit(login: string, jobId: string, nonce2: unknown): Promise<Wire> {
    return this.call('mining.submit', [login, jobId, nonce2]);
  }

  /** Finds and submits a share of the current job (or, with `miss`, a hash above the target). */
  async mine(login: string, miss = false): Promise<{ answer: Wire; nonce2: string; hashValue: bigint }> {
    const { share } = this.miner.search(1_000_000, miss);
    if (!share) throw new Error('no share in a million hashes');
    const nonce2 = share.params[0] as string;
    return { answer: await this.submit(login, share.jobId, nonce2), nonce2, hashValue: share.hashValue };
  }

  /** Notifications received, by method. */
  sent(method: string): unknown[][] {
    return this.received.filter((m) => m.method === method).map((m) => m.params ?? []);
  }
}
