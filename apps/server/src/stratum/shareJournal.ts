import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import type { AlgorithmKey, ShareBatch } from '@lodestone/domain';

/**
 * A miner is told "true" the moment a share is accepted, but the share only reaches the ledger in
 * the next batch, up to 5 s later (and, on the in-process bus, only once accounting has committed
 * it). A process killed in between (kill -9, OOM, power cut of a container) lost those shares: 20 of
 * 818 "true" answers in issue 15's test. MiningCore keeps a recovery file for the same reason.
 *
 * So every accepted share is appended to `shares.log` before its answer is written (the page cache
 * survives the death of the process), and every batch cut from the counters is
 * appended to `batches.log` with the last share sequence it covers. At start the journal gives back
 * what may be missing from the ledger: the batches of the last `retainMs` (published again under
 * their own ids; accounting applies a batch id once) and the shares after the last batch of their
 * algorithm (counted again). A power loss can still lose what the kernel had not written; this
 * guards against the death of the process, not of the machine.
 *
 * The shares accepted in one turn of the event loop are written together, in one `write` call, once
 * that turn's sockets have been read (setImmediate); until then every stratum write waits behind
 * them (`afterShares`), in order. One call per share cost a quarter of the stratum's throughput.
 *
 * Lines are tab-separated: `s <seq> <algorithm> <account> <worker> <difficulty> <at>` and
 * `b <upto> <batch JSON>`. Account and worker names never hold tabs or newlines (login rules).
 */

export interface JournalShare {
  algorithm: AlgorithmKey;
  account: string;
  worker: string;
  difficulty: number;
  at: number;
}

export interface RecoveredShares {
  /** Batches cut within the retention time, oldest first: to publish again (same ids). */
  batches: ShareBatch[];
  /** Accepted shares that no batch covers: to count again. */
  shares: JournalShare[];
}

export interface ShareJournalOptions {
  directory: string;
  /** Batches older than this are not published again (default 10 minutes). */
  retainMs?: number;
  /** shares.log is emptied once every share in it is covered by a batch and it is this large. */
  maxShareLogBytes?: number;
  now?: () => number;
  /**
   * Called when the share log cannot be written (disk full, I/O error). The answers still go out
   * (the shares are counted in memory as before); only their crash safety is lost.
   */
  onWriteError?: (error: unknown) => void;
}

const SHARES = 'shares.log';
const BATCHES = 'batches.log';
const BATCHES_PREVIOUS = 'batches.previous.log';

export class ShareJournal {
  private readonly sharesFd: number;
  private batchesFd: number;
  private batchesOpenedAt: number;
  private seq = 0;
  /** The last share sequence each algorithm's newest batch covers. */
  private readonly covered = new Map<AlgorithmKey, number>();
  /** The last share sequence of each algorithm written. */
  private readonly written = new Map<AlgorithmKey, number>();
  private readonly retainMs: number;
  private readonly maxShareLogBytes: number;
  private readonly now: () => number;
  /** Share lines not yet in the file, and the writes waiting for them (in the order they came). */
  private pending: string[] = [];
  private held: Array<() => void> = [];
  private flushScheduled = false;
  private readonly onWriteError: (error: unknown) => void;

  private constructor(
    private readonly directory: string,
    options: ShareJournalOptions,
    seq: number,
  ) {
    this.retainMs = options.retainMs ?? 10 * 60_000;
    this.maxShareLogBytes = options.maxShareLogBytes ?? 1024 * 1024;
    this.now = options.now ?? Date.now;
    this.onWriteError =
      options.onWriteError ??
      ((error) => {
        throw error;
      });
    this.seq = seq;
    this.sharesFd = openSync(path.join(directory, SHARES), 'a');
    this.batchesFd = openSync(path.join(directory, BATCHES), 'a');
    this.batchesOpenedAt = this.now();
  }

  /**
   * Opens the journal in `directory`, reading what an earlier run left. The recovered batches and
   * shares are written into the fresh journal at once, so a crash during recovery loses nothing.
   */
  static open(options: ShareJournalOptions): { journal: ShareJournal; recovered: RecoveredShares } {
    const { directory } = options;
    mkdirSync(directory, { recursive: true });
    const now = (options.now ?? Date.now)();
    const retainMs = options.retainMs ?? 10 * 60_000;
    const recovered = readJournal(directory, now - retainMs);
    // Start afresh: the recovered batches become the new batch log's first lines; the shares are
    // appended again by whoever counts them (ShareAggregator.recover).
    for (const name of [SHARES, BATCHES_PREVIOUS]) rmSync(path.join(directory, name), { force: true });
    rmSync(path.join(directory, BATCHES), { force: true });
    const journal = new ShareJournal(directory, options, 0);
    for (const batch of recovered.batches) journal.appendBatch(batch, 0);
    return { journal, recovered };
  }

  /**
   * Appends an accepted share. It reaches the file at the end of this turn of the event loop; the
   * miner's answer must go through `afterShares` so that it is written only then.
   */
  share(share: JournalShare): void {
    const seq = ++this.seq;
    this.written.set(share.algorithm, seq);
    this.pending.push(
      `s\t${seq}\t${share.algorithm}\t${share.account}\t${share.worker}\t${share.difficulty}\t${share.at}\n`,
    );
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flushShares());
    }
  }

  /**
   * Runs `write` once every share appended so far is in the file: at once when none is waiting,
   * otherwise after the pending shares are written, after the writes held before it.
   */
  afterShares(write: () => void): void {
    if (this.pending.length === 0) write();
    else this.held.push(write);
  }

  /** Writes the pending shares in one call, then the writes that waited for them. */
  flushShares(): void {
    this.flushScheduled = false;
    if (this.pending.length === 0) return;
    const lines = this.pending.join('');
    this.pending = [];
    const held = this.held;
    this.held = [];
    try {
      writeSync(this.sharesFd, lines);
    } catch (error) {
      this.onWriteError(error);
    } finally {
      for (const write of held) write();
    }
  }

  /** Appends a batch cut from the counters: it covers every share of its algorithm written so far. */
  batch(batch: ShareBatch): void {
    this.flushShares();
    const upto = this.written.get(batch.algorithm) ?? 0;
    this.covered.set(batch.algorithm, upto);
    this.appendBatch(batch, upto);
    this.compact();
  }

  close(): void {
    this.flushShares();
    closeSync(this.sharesFd);
    closeSync(this.batchesFd);
  }

  private appendBatch(batch: ShareBatch, upto: number): void {
    writeSync(this.batchesFd, `b\t${upto}\t${JSON.stringify(batch)}\n`);
  }

  /**
   * Empties shares.log once every share in it is covered by a batch, and starts a new batch log
   * every half retention (the previous one is kept, so the retention is always covered).
   */
  private compact(): void {
    let allCovered = true;
    for (const [algorithm, seq] of this.written) if ((this.covered.get(algorithm) ?? 0) < seq) allCovered = false;
    if (allCovered && fstatSync(this.sharesFd).size >= this.maxShareLogBytes) ftruncateSync(this.sharesFd, 0);
    if (this.now() - this.batchesOpenedAt >= this.retainMs / 2) {
      closeSync(this.batchesFd);
      renameSync(path.join(this.directory, BATCHES), path.join(this.directory, BATCHES_PREVIOUS));
      this.batchesFd = openSync(path.join(this.directory, BATCHES), 'a');
      this.batchesOpenedAt = this.now();
    }
  }
}

/** What the files in `directory` hold: batches cut after `since`, and shares no batch covers. */
export function readJournal(directory: string, since: number): RecoveredShares {
  const lines: string[] = [];
  for (const name of [BATCHES_PREVIOUS, BATCHES, SHARES]) {
    const file = path.join(directory, name);
    if (existsSync(file)) lines.push(...readFileSync(file, 'utf8').split('\n'));
  }
  const batches = new Map<string, ShareBatch>();
  const covered = new Map<string, number>();
  const shares: (JournalShare & { seq: number })[] = [];
  for (const line of lines) {
    const fields = line.split('\t');
    // A line cut short by the crash (no newline made it) fails to parse and is skipped.
    try {
      if (fields[0] === 'b' && fields.length === 3) {
        const batch = JSON.parse(fields[2] as string) as ShareBatch;
        const upto = Number(fields[1]);
        if (upto > 0) covered.set(batch.algorithm, Math.max(covered.get(batch.algorithm) ?? 0, upto));
        if (batch.intervalEnd >= since && typeof batch.id === 'string') batches.set(batch.id, batch);
      } else if (fields[0] === 's' && fields.length === 7) {
        const [, seq, algorithm, account, worker, difficulty, at] = fields as string[];
        const share = {
          seq: Number(seq),
          algorithm: algorithm as AlgorithmKey,
          account: account as string,
          worker: worker as string,
          difficulty: Number(difficulty),
          at: Number(at),
        };
        if (Number.isInteger(share.seq) && Number.isFinite(share.difficulty) && Number.isFinite(share.at)) {
          shares.push(share);
        }
      }
    } catch {
      // skipped: see above
    }
  }
  return {
    batches: [...batches.values()].sort((a, b) => a.intervalEnd - b.intervalEnd),
    shares: shares.filter((s) => s.seq > (covered.get(s.algorithm) ?? 0)).map(({ seq: _seq, ...share }) => share),
  };
}
