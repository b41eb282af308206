import type { WorkJob, WorkSource } from '@lodestone/chain';
import type { Dialect } from './dialects/dialect.js';
import { type JobEntry, type JobListener, JobManager } from './jobManager.js';
import type { StratumLog } from './log.js';

/** What a stratum node reads of a job source: its algorithm, its jobs, whether it is the demo network. */
export type WorkSourceView = Pick<WorkSource<WorkJob, unknown>, 'algorithm' | 'demo' | 'start' | 'stop' | 'current'>;

/** A job manager as the sessions and the share aggregator see it, whatever its chain's job type. */
export interface WorkJobs {
  readonly source: WorkSourceView;
  start(): void;
  stop(): void;
  current(): JobEntry<WorkJob> | undefined;
  onJob(listener: JobListener<WorkJob>): () => void;
}

/** One algorithm's jobs in a stratum node, and the dialect its miners speak over them. */
export interface OpenedWork {
  readonly jobs: WorkJobs;
  readonly dialect: Dialect;
}

/**
 * A job source with the dialect that checks its jobs. The two are typed together once, where a chain
 * module pairs them (`stratumWork`): the source's job and solution types are the ones its dialect
 * reads, so nothing between them is cast; past that point the pair is opaque.
 */
export interface StratumWork {
  readonly source: WorkSourceView;
  /** The job manager and the dialect of this source: once per algorithm and stratum node. */
  open(log: StratumLog): OpenedWork;
}

/** Pairs a source with its dialect: the only place the job type `J` and solution type `S` meet. */
export function stratumWork<J extends WorkJob, S>(
  source: WorkSource<J, S>,
  dialect: (jobs: JobManager<J, S>) => Dialect<J>,
): StratumWork {
  return {
    source,
    open(log) {
      const jobs = new JobManager(source, { log });
      return { jobs, dialect: dialect(jobs) };
    },
  };
}
