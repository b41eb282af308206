import type { BitcoinJob, WorkJob, WorkSource } from '@lodestone/chain';
import type { StratumLog } from './log.js';

/** A job as the stratum node keeps it: its staleness and the shares already seen for it. */
export interface JobEntry<J extends WorkJob = BitcoinJob> {
  readonly job: J;
  /** What the job builds on (`WorkJob.parentKey`). */
  readonly blockKey: string;
  /** True once a job built on a newer block made this one useless. */
  stale: boolean;
  /** True once the manager let go of the job to bound its memory (its duplicate set is gone). */
  evicted: boolean;
  /**
   * Duplicate keys of shares checked for this job's work (bitcoin family: extranonce1 ‖ extranonce2 ‖
   * ntime ‖ nonce ‖ version): one set for every held job of the same `WorkJob.workKey`, so a share
   * re-sent under a refreshed job id of the same work is a duplicate, not new work.
   */
  readonly seen: Set<number>;
}

/** The duplicate set of one work key and how many held jobs share it. */
interface WorkShares {
  readonly seen: Set<number>;
  jobs: number;
}

/**
 * Duplicate sets kept for works no held job has any more (default 64). A source can hand out the same
 * work again after other work replaced it — Kadena's best chain moves away and back, a daemon failover
 * returns to a tip it had left — and a share of that work sent before is still a duplicate then.
 */
const DEFAULT_RETIRED_WORKS = 64;

export type JobListener<J extends WorkJob = BitcoinJob> = (entry: JobEntry<J>, cleanJobs: boolean) => void;

export interface JobManagerOptions {
  /**
   * Jobs of the current block remembered by id (default 256: a template refresh every 30 s for two
   * hours without a block). An older one is let go and its shares answer "job not found".
   */
  maxJobs?: number;
  /** Duplicate sets of works no held job has, kept in case the work comes back (default 64). */
  maxRetiredWorks?: number;
  log: StratumLog;
}

/**
 * Follows one job source: remembers the jobs of the current block by id, marks every older job stale
 * when a job builds on a new parent (`WorkJob.parentKey`), and hands each new job to the sessions
 * (clean_jobs when the source says so or the parent changed). Any algorithm's jobs: `S` is what its
 * source takes as a solved block.
 */
export class JobManager<J extends WorkJob = BitcoinJob, S = string> {
  private readonly jobs = new Map<string, JobEntry<J>>();
  /** The duplicate set of each work key a held job has. */
  private readonly works = new Map<string, WorkShares>();
  /** Duplicate sets of works no held job has, oldest first. */
  private readonly retired = new Map<string, Set<number>>();
  private readonly listeners = new Set<JobListener<J>>();
  private readonly maxJobs: number;
  private readonly maxRetiredWorks: number;
  private latest: JobEntry<J> | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    readonly source: WorkSource<J, S>,
    private readonly options: JobManagerOptions,
  ) {
    this.maxJobs = options.maxJobs ?? 256;
    this.maxRetiredWorks = options.maxRetiredWorks ?? DEFAULT_RETIRED_WORKS;
  }

  start(): void {
    this.unsubscribe = this.source.onJob((job) => this.add(job));
    const current = this.source.current();
    if (current && !this.jobs.has(current.id)) this.add(current);
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.listeners.clear();
  }

  current(): JobEntry<J> | undefined {
    return this.latest;
  }

  get(id: string): JobEntry<J> | undefined {
    return this.jobs.get(id);
  }

  onJob(listener: JobListener<J>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  add(job: J): void {
    if (this.jobs.has(job.id)) return;
    const newBlock = this.latest !== undefined && this.latest.blockKey !== job.parentKey;
    if (newBlock) {
      for (const entry of this.jobs.values()) this.forget(entry, 'stale');
      this.jobs.clear();
    }
    const entry: JobEntry<J> = {
      job,
      blockKey: job.parentKey,
      stale: false,
      evicted: false,
      seen: this.holdWork(job.workKey),
    };
    this.jobs.set(job.id, entry);
    this.latest = entry;
    while (this.jobs.size > this.maxJobs) {
      const oldest = this.jobs.keys().next().value;
      if (oldest === undefined) break;
      const forgotten = this.jobs.get(oldest);
      if (forgotten) this.forget(forgotten, 'evicted');
      this.jobs.delete(oldest);
    }
    const clean = job.cleanJobs || newBlock;
    for (const listener of this.listeners) {
      try {
        listener(entry, clean);
      } catch (error) {
        this.options.log.error({ err: error, algorithm: job.algorithm, job: job.id }, 'job listener failed');
      }
    }
  }

  /**
   * Lets a job go. Sessions still holding it answer "stale" when a newer block made it useless, "job not
   * found" when it was let go for memory; neither reads its duplicate set again.
   */
  private forget(entry: JobEntry<J>, why: 'stale' | 'evicted'): void {
    if (why === 'stale') entry.stale = true;
    else entry.evicted = true;
    this.releaseWork(entry.job.workKey);
  }

  /** The duplicate set of a work a new job has: the held one, a retired one brought back, or a new one. */
  private holdWork(workKey: string): Set<number> {
    let work = this.works.get(workKey);
    if (work === undefined) {
      work = { seen: this.retired.get(workKey) ?? new Set(), jobs: 0 };
      this.retired.delete(workKey);
      this.works.set(workKey, work);
    }
    work.jobs++;
    return work.seen;
  }

  /** One job fewer of a work; with the last one its duplicate set retires, and the oldest retired are freed. */
  private releaseWork(workKey: string): void {
    const work = this.works.get(workKey);
    if (work === undefined || --work.jobs > 0) return;
    this.works.delete(workKey);
    if (work.seen.size === 0) return;
    this.retired.set(workKey, work.seen);
    for (const [oldest, seen] of this.retired) {
      if (this.retired.size <= this.maxRetiredWorks) break;
      seen.clear();
      this.retired.delete(oldest);
    }
  }
}
