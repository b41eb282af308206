/**
 * The jobs one session was sent, by the id it was sent under, with the difficulty it carried: the
 * difficulty a share of that job is checked and credited at, whatever the session's difficulty is
 * by the time the share arrives (ckpool keeps `old_diff` and `diff_change_job_id` for the same reason).
 *
 * Every job of the current block stays valid until the block changes: a miner that goes on hashing
 * an earlier job of the same block (cpuminer 2.5.1 keeps its work until the header bytes change) has
 * done honest work. Memory is bounded by `maxJobs` per session, far above what an honest miner
 * receives in one block (a job per template refresh and per retarget). A share of a job that is no
 * longer held is refused with its true reason: "stale" when the job belonged to an older block, "job
 * not found" otherwise.
 */

/** What the session must know of a job to tell blocks apart. */
export interface BlockJob {
  /** Identifies the block the job builds on (the previous block hash). */
  readonly blockKey: string;
}

export interface Issued<E> {
  readonly entry: E;
  readonly difficulty: number;
  readonly target: bigint;
}

export type IssuedLookup<E> = { issued: Issued<E> } | { issued: undefined; reason: 'stale' | 'job-not-found' };

export class IssuedJobs<E extends BlockJob> {
  private readonly jobs = new Map<number, Issued<E>>();
  private lastId = 0;
  /** The first id sent for the current block; lower ids belong to older blocks. */
  private blockFirstId = 1;
  private blockKey: string | undefined;
  private lastEntry: E | undefined;

  constructor(private readonly maxJobs: number) {}

  /** The job most recently sent, if any. */
  get latest(): E | undefined {
    return this.lastEntry;
  }

  /** Records a job sent to the session; returns the id to send it under. */
  issue(entry: E, difficulty: number, target: bigint): number {
    const id = ++this.lastId;
    if (entry.blockKey !== this.blockKey) {
      // A new block: every job held so far is of an older block, and its shares are stale.
      this.jobs.clear();
      this.blockKey = entry.blockKey;
      this.blockFirstId = id;
    }
    this.jobs.set(id, { entry, difficulty, target });
    this.lastEntry = entry;
    if (this.jobs.size > this.maxJobs) {
      const oldest = this.jobs.keys().next().value;
      if (oldest !== undefined) this.jobs.delete(oldest);
    }
    return id;
  }

  /** The job a submitted id names (the dialect reads the id's text; 0 or NaN for one it cannot read). */
  lookup(id: number): IssuedLookup<E> {
    const issued = this.jobs.get(id);
    if (issued) return { issued };
    const stale = id >= 1 && id < this.blockFirstId;
    return { issued: undefined, reason: stale ? 'stale' : 'job-not-found' };
  }

  /** Jobs sent before `id` and still held, newest first. */
  *before(id: number): Iterable<{ id: number; issued: Issued<E> }> {
    for (let previous = id - 1; previous >= this.blockFirstId; previous--) {
      const issued = this.jobs.get(previous);
      if (!issued) return;
      yield { id: previous, issued };
    }
  }

  get size(): number {
    return this.jobs.size;
  }
}
