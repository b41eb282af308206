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
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { fileErrorReason } from '@lodestone/db';
import type { AlgorithmKey, FoundBlock, ShareBatch } from '@lodestone/domain';

/**
 * A miner is told "true" the moment a share is accepted, but the share only reaches the ledger in
 * the next batch, up to 5 s later (and, on the in-process bus, only once accounting has committed
 * it). A process killed in between (kill -9, OOM, power cut of a container) lost those shares: 20 of
 * 818 "true" answers in issue 15's test. MiningCore keeps a recovery file for the same reason.
 *
 * So every accepted share is appended to `shares.log` before its answer is written (the page cache
 * survives the death of the process), and every batch cut from the counters is
 * appended to `batches.log` with the last share sequence it covers, and its id again once the bus has
 * taken it. At start the journal gives back what may be missing from the ledger: every batch the bus
 * never took, however old (a bus down for an hour), and the batches it took in the last `retainMs`
 * (on the in-process bus one may still have been in memory), all published again under their own ids
 * (accounting applies a batch id once); and the shares after the last batch of their algorithm
 * (counted again). A power loss can still lose what the kernel had not written; this
 * guards against the death of the process, not of the machine.
 *
 * The shares accepted in one turn of the event loop are written together, in one `write` call, once
 * that turn's sockets have been read (setImmediate); until then every stratum write waits behind
 * them (`afterShares`), in order. One call per share cost a quarter of the stratum's throughput.
 *
 * Lines are tab-separated: `s <seq> <algorithm> <account> <worker> <difficulty> <at>` (a solo port's
 * share adds `<achieved>`, the difficulty its hash met, so a recovered solo share stays solo),
 * `b <upto> <batch JSON>`, `f <found block JSON>`, `a <batch or block id>` (taken by the bus) and
 * `c <algorithm> <upto>` (shares counted, carried into a new batch log). Account and worker names never hold
 * tabs or newlines (login rules). When the batch log is rotated, the batches and found blocks the bus
 * has not taken are written into the new one, so none is lost to rotation while the bus is down.
 */

export interface JournalShare {
  algorithm: AlgorithmKey;
  account: string;
  worker: string;
  difficulty: number;
  at: number;
  /** Set for a solo port's share only: the difficulty its hash met, 0 for a block (docs/solo.md). */
  achieved?: number;
}

export interface RecoveredShares {
  /** Batches the bus never took, and those it took within the retention time, oldest first: to publish again (same ids). */
  batches: ShareBatch[];
  /** Accepted shares that no batch covers: to count again. */
  shares: JournalShare[];
  /** Found blocks the bus never took, however old: to publish again (same ids; recorded once). */
  blocks: FoundBlock[];
}

export interface ShareJournalOptions {
  directory: string;
  /** Batches the bus took longer ago than this are not published again (default 10 minutes). */
  retainMs?: number;
  /** shares.log is emptied once every share in it is covered by a batch and it is this large. */
  maxShareLogBytes?: number;
  now?: () => number;
  /**
   * Called when a journal file cannot be written (disk full, I/O error), with the file's name. The
   * answers still go out and the batches are still published (the shares are counted in memory as
   * before); only their crash safety is lost until the writes succeed again.
   */
  onWriteError?: (error: unknown, file: string) => void;
  /** How lines reach the files (tests make it fail as a full disk does). */
  write?: (fd: number, text: string) => void;
}

/** The journal's directory cannot be prepared at start: the message names the path and why. */
export class ShareJournalError extends Error {
  override readonly name = 'ShareJournalError';
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
  /** The lines of the batches the bus has not taken yet, by id: carried into each new batch log. */
  private readonly untaken = new Map<string, string>();
  private readonly retainMs: number;
  private readonly maxShareLogBytes: number;
  private readonly now: () => number;
  /** Share lines not yet in the file, and the writes waiting for them (in the order they came). */
  private pending: string[] = [];
  private held: Array<() => void> = [];
  private flushScheduled = false;
  private readonly onWriteError: (error: unknown, file: string) => void;
  private readonly write: (fd: number, text: string) => void;
  /** Files whose last write failed, perhaps after part of a line: their next line starts on a new one. */
  private readonly cutShort = new Set<number>();

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
    this.write = options.write ?? writeAll;
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
    const now = (options.now ?? Date.now)();
    const retainMs = options.retainMs ?? 10 * 60_000;
    try {
      mkdirSync(directory, { recursive: true });
    } catch (error) {
      throw new ShareJournalError(`share journal: cannot create ${directory} (${fileErrorReason(error)})`, {
        cause: error,
      });
    }
    const recovered = readJournal(directory, now - retainMs);
    // Start afresh: the recovered batches become the new batch log's first lines; the shares are
    // appended again by whoever counts them (ShareAggregator.recover). Written before the old files go,
    // so a start that fails here (a full disk) leaves them for the next one.
    const fresh = path.join(directory, `${BATCHES}.new`);
    // Every recovered batch and block is untaken again until the bus takes it: their lines, by id.
    const untaken = new Map<string, string>([
      ...recovered.batches.map((batch): [string, string] => [batch.id, batchLine(batch, 0)]),
      ...recovered.blocks.map((block): [string, string] => [block.id, blockLine(block)]),
    ]);
    try {
      writeFileSync(fresh, [...untaken.values()].join(''));
      for (const name of [SHARES, BATCHES_PREVIOUS]) rmSync(path.join(directory, name), { force: true });
      renameSync(fresh, path.join(directory, BATCHES));
    } catch (error) {
      rmSync(fresh, { force: true });
      throw new ShareJournalError(
        `share journal: cannot write in ${directory} (${fileErrorReason(error)}); the shares it holds are kept for the next start`,
        { cause: error },
      );
    }
    const journal = new ShareJournal(directory, options, 0);
    for (const [id, line] of untaken) journal.untaken.set(id, line);
    return { journal, recovered };
  }

  /**
   * Appends an accepted share. It reaches the file at the end of this turn of the event loop; the
   * miner's answer must go through `afterShares` so that it is written only then.
   */
  share(share: JournalShare): void {
    const seq = ++this.seq;
    this.written.set(share.algorithm, seq);
    const solo = share.achieved === undefined ? '' : `\t${share.achieved}`;
    this.pending.push(
      `s\t${seq}\t${share.algorithm}\t${share.account}\t${share.worker}\t${share.difficulty}\t${share.at}${solo}\n`,
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
      this.append(this.sharesFd, lines);
    } catch (error) {
      this.onWriteError(error, SHARES);
    } finally {
      for (const write of held) write();
    }
  }

  /**
   * Appends a batch cut from the counters: it covers every share of its algorithm written so far. Never
   * throws: a write that fails is reported (onWriteError) and the batch is published all the same.
   */
  batch(batch: ShareBatch): void {
    this.flushShares();
    const upto = this.written.get(batch.algorithm) ?? 0;
    try {
      this.append(this.batchesFd, batchLine(batch, upto));
    } catch (error) {
      this.onWriteError(error, BATCHES);
      // The shares this batch counts are still in shares.log with no batch line covering them: a restart
      // would count them again beside the batch. Emptying the log (which needs no space) trades their
      // crash safety for never counting a share twice.
      this.forgetShares();
      return;
    }
    this.covered.set(batch.algorithm, upto);
    this.untaken.set(batch.id, batchLine(batch, 0));
    try {
      this.compact();
    } catch (error) {
      this.onWriteError(error, BATCHES);
    }
  }

  /**
   * Records a found block before it is published: until the bus takes it, every restart publishes it
   * again (accounting records a block id once). Never throws: a write that fails is reported.
   */
  foundBlock(block: FoundBlock): void {
    const line = blockLine(block);
    try {
      this.append(this.batchesFd, line);
      this.untaken.set(block.id, line);
    } catch (error) {
      this.onWriteError(error, BATCHES);
    }
  }

  /**
   * The bus has taken a batch or a found block (published, or accounted on the in-process bus): a
   * batch need not outlive the retention, a block is not published again.
   */
  delivered(id: string): void {
    if (!this.untaken.delete(id)) return;
    try {
      this.append(this.batchesFd, `a\t${id}\n`);
    } catch (error) {
      // Unmarked, it is published again at a restart: accounting applies a batch id once.
      this.onWriteError(error, BATCHES);
    }
  }

  close(): void {
    this.flushShares();
    closeSync(this.sharesFd);
    closeSync(this.batchesFd);
  }

  /**
   * Writes lines to a journal file. After a failed write the next starts with a newline: the part of a
   * line a full disk took must not join the next line, which would then be unreadable at a restart.
   */
  private append(fd: number, text: string): void {
    const broken = this.cutShort.has(fd);
    this.cutShort.add(fd);
    this.write(fd, broken ? `\n${text}` : text);
    this.cutShort.delete(fd);
  }

  /** Empties shares.log and counts every share written so far as covered. */
  private forgetShares(): void {
    try {
      ftruncateSync(this.sharesFd, 0);
      for (const [algorithm, seq] of this.written) this.covered.set(algorithm, seq);
    } catch (error) {
      this.onWriteError(error, SHARES);
    }
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
      // A rotation that fails is tried again half a retention later, not at every batch.
      this.batchesOpenedAt = this.now();
      const current = path.join(this.directory, BATCHES);
      const previous = path.join(this.directory, BATCHES_PREVIOUS);
      // The open descriptor follows the renamed file: until the new one is open, lines still land.
      renameSync(current, previous);
      let next: number;
      try {
        next = openSync(current, 'a');
      } catch (error) {
        renameSync(previous, current);
        throw error;
      }
      closeSync(this.batchesFd);
      this.batchesFd = next;
      // The previous log goes at the next rotation. What it proves moves on with the log: how far each
      // algorithm's shares are counted (else a restart would count a quiet algorithm's old shares again),
      // and the batches the bus has not taken.
      const carried = [...this.covered].map(([algorithm, seq]) => `c\t${algorithm}\t${seq}\n`);
      carried.push(...this.untaken.values());
      if (carried.length > 0) this.append(next, carried.join(''));
    }
  }
}

function blockLine(block: FoundBlock): string {
  return `f\t${JSON.stringify(block)}\n`;
}

function batchLine(batch: ShareBatch, upto: number): string {
  return `b\t${upto}\t${JSON.stringify(batch)}\n`;
}

/** Writes all of `text`: a disk that fills in the middle of a write takes part, and the next call throws. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
}

/** What the files in `directory` hold: batches the bus never took or took after `since`, and shares no batch covers. */
export function readJournal(directory: string, since: number): RecoveredShares {
  const lines: string[] = [];
  for (const name of [BATCHES_PREVIOUS, BATCHES, SHARES]) {
    const file = path.join(directory, name);
    if (existsSync(file)) lines.push(...readFileSync(file, 'utf8').split('\n'));
  }
  const batches = new Map<string, ShareBatch>();
  const blocks = new Map<string, FoundBlock>();
  const taken = new Set<string>();
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
        if (typeof batch.id === 'string') batches.set(batch.id, batch);
      } else if (fields[0] === 'f' && fields.length === 2) {
        const block = JSON.parse(fields[1] as string) as FoundBlock;
        if (typeof block.id === 'string') blocks.set(block.id, block);
      } else if (fields[0] === 'a' && fields.length === 2) {
        taken.add(fields[1] as string);
      } else if (fields[0] === 'c' && fields.length === 3) {
        const [, algorithm, upto] = fields as [string, string, string];
        if (Number(upto) > 0) covered.set(algorithm, Math.max(covered.get(algorithm) ?? 0, Number(upto)));
      } else if (fields[0] === 's' && (fields.length === 7 || fields.length === 8)) {
        const [, seq, algorithm, account, worker, difficulty, at, achieved] = fields as string[];
        const share: JournalShare & { seq: number } = {
          seq: Number(seq),
          algorithm: algorithm as AlgorithmKey,
          account: account as string,
          worker: worker as string,
          difficulty: Number(difficulty),
          at: Number(at),
        };
        if (achieved !== undefined) share.achieved = Number(achieved);
        const readable = share.achieved === undefined || share.achieved >= 0;
        if (Number.isInteger(share.seq) && Number.isFinite(share.difficulty) && Number.isFinite(share.at) && readable) {
          shares.push(share);
        }
      }
    } catch {
      // skipped: see above
    }
  }
  return {
    batches: [...batches.values()]
      .filter((batch) => !taken.has(batch.id) || batch.intervalEnd >= since)
      .sort((a, b) => a.intervalEnd - b.intervalEnd),
    shares: shares.filter((s) => s.seq > (covered.get(s.algorithm) ?? 0)).map(({ seq: _seq, ...share }) => share),
    blocks: [...blocks.values()].filter((block) => !taken.has(block.id)),
  };
}
