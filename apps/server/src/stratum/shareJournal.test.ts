import {
  appendFileSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ShareBatch } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import { SILENT_LOG } from './log.js';
import { ShareAggregator } from './shareAggregator.js';
import { ShareJournal, ShareJournalError } from './shareJournal.js';

const fresh = () => mkdtempSync(path.join(tmpdir(), 'lodestone-journal-'));

/** A bus that keeps what it was given, or fails while `failing`. */
function bus() {
  const published: ShareBatch[] = [];
  return {
    published,
    failing: false,
    async publishShareBatch(batch: ShareBatch) {
      if (this.failing) throw new Error('bus down');
      published.push(structuredClone(batch));
    },
  };
}

function aggregator(journal: ShareJournal, target: ReturnType<typeof bus>, clock = { now: 1_000 }) {
  return new ShareAggregator({ node: 'n1', bus: target, log: SILENT_LOG, journal, now: () => clock.now });
}

/** The end of this turn of the event loop: the journal has written its shares, the answers are out. */
const answered = () => new Promise<void>((resolve) => setImmediate(resolve));

const credited = (batches: ShareBatch[], account: string) =>
  batches
    .flatMap((b) => b.workers)
    .filter((w) => w.account === account)
    .reduce((sum, w) => sum + w.acceptedDifficulty, 0);

describe('the share journal', () => {
  it('gives back, after a crash, the shares no batch covered and the batches of the retention time', async () => {
    const directory = fresh();
    const first = ShareJournal.open({ directory, now: () => 1_000 });
    expect(first.recovered).toEqual({ batches: [], shares: [], blocks: [] });
    const target = bus();
    const clock = { now: 1_000 };
    const shares = aggregator(first.journal, target, clock);
    shares.record('sha256', 'alice', 'rig1', { kind: 'valid', difficulty: 2 }, 1_100);
    shares.record('sha256', 'alice', 'rig1', { kind: 'invalid', reason: 'low-difficulty' }, 1_150);
    shares.record('scrypt', 'bob', 'rig1', { kind: 'valid', difficulty: 3 }, 1_200);
    clock.now = 5_000;
    await shares.flush();
    expect(target.published).toHaveLength(2);
    // After the batches: more shares, answered, then the process dies (nothing closed, nothing flushed).
    shares.record('sha256', 'alice', 'rig1', { kind: 'valid', difficulty: 5 }, 5_100);
    shares.record('scrypt', 'carol', 'rig2', { kind: 'valid', difficulty: 7 }, 5_200);
    await answered();

    const second = ShareJournal.open({ directory, now: () => 6_000 });
    expect(second.recovered.batches.map((b) => b.id)).toEqual(target.published.map((b) => b.id));
    expect(second.recovered.shares).toEqual([
      { algorithm: 'sha256', account: 'alice', worker: 'rig1', difficulty: 5, at: 5_100 },
      { algorithm: 'scrypt', account: 'carol', worker: 'rig2', difficulty: 7, at: 5_200 },
    ]);

    // Recovered and published again: old batches under their ids, the loose shares in new batches.
    const again = bus();
    const restarted = aggregator(second.journal, again, { now: 7_000 });
    restarted.recover(second.recovered);
    await restarted.flush();
    expect(again.published.slice(0, 2).map((b) => b.id)).toEqual(target.published.map((b) => b.id));
    expect(credited(again.published.slice(2), 'alice')).toBe(5);
    expect(credited(again.published.slice(2), 'carol')).toBe(7);
    second.journal.close();

    // A third start sees every share covered: nothing is counted twice.
    const third = ShareJournal.open({ directory, now: () => 8_000 });
    expect(third.recovered.shares).toEqual([]);
    expect(credited(third.recovered.batches, 'alice')).toBe(2 + 5);
    third.journal.close();
  });

  it('gives a solo share back as a solo share, its best share with it', async () => {
    const directory = fresh();
    const first = ShareJournal.open({ directory, now: () => 1_000 });
    const shares = aggregator(first.journal, bus());
    shares.record('scrypt', 'alice', 'rig1', { kind: 'valid', difficulty: 4, achieved: 37.5, solo: true }, 1_100);
    shares.record('scrypt', 'alice', 'rig1', { kind: 'valid', difficulty: 4, achieved: 0, solo: true }, 1_150);
    shares.record('scrypt', 'alice', 'rig1', { kind: 'valid', difficulty: 4 }, 1_200);
    await answered();

    const second = ShareJournal.open({ directory, now: () => 2_000 });
    expect(second.recovered.shares).toEqual([
      { algorithm: 'scrypt', account: 'alice', worker: 'rig1', difficulty: 4, at: 1_100, achieved: 37.5 },
      { algorithm: 'scrypt', account: 'alice', worker: 'rig1', difficulty: 4, at: 1_150, achieved: 0 },
      { algorithm: 'scrypt', account: 'alice', worker: 'rig1', difficulty: 4, at: 1_200 },
    ]);
    const again = bus();
    const restarted = aggregator(second.journal, again, { now: 3_000 });
    restarted.recover(second.recovered);
    await restarted.flush();
    expect(again.published).toHaveLength(1);
    expect(again.published[0]?.workers).toEqual([expect.objectContaining({ acceptedDifficulty: 4, valid: 1 })]);
    expect(again.published[0]?.soloWorkers).toEqual([
      expect.objectContaining({ acceptedDifficulty: 8, valid: 2, bestDifficulty: 37.5 }),
    ]);
    second.journal.close();
  });

  it('keeps a batch the bus refused, skips a line cut short, and forgets taken batches past the retention', async () => {
    const directory = fresh();
    const { journal } = ShareJournal.open({ directory, now: () => 0, retainMs: 60_000 });
    const target = bus();
    target.failing = true;
    const clock = { now: 0 };
    const shares = aggregator(journal, target, clock);
    shares.record('x11', 'dave', 'a', { kind: 'valid', difficulty: 1 }, 10);
    clock.now = 5_000;
    await shares.flush();
    expect(target.published).toHaveLength(0);
    appendFileSync(path.join(directory, 'shares.log'), 's\t99\tx11\tdave\ta\t1');
    const crashed = ShareJournal.open({ directory, now: () => 30_000, retainMs: 60_000 });
    expect(crashed.recovered.batches).toHaveLength(1);
    expect(crashed.recovered.shares).toEqual([]);
    crashed.journal.close();
    // Never taken by the bus: kept past the retention too (issue 31).
    const late = ShareJournal.open({ directory, now: () => 120_000, retainMs: 60_000 });
    expect(late.recovered.batches).toHaveLength(1);
    const resent = aggregator(late.journal, bus(), { now: 120_000 });
    resent.recover(late.recovered);
    await resent.flush();
    late.journal.close();
    // Taken now: past the retention it is forgotten.
    const later = ShareJournal.open({ directory, now: () => 300_000, retainMs: 60_000 });
    expect(later.recovered.batches).toEqual([]);
    later.journal.close();
  });

  it('holds every write until the shares accepted before it are in the file, and keeps their order', async () => {
    const directory = fresh();
    const file = path.join(directory, 'shares.log');
    const { journal } = ShareJournal.open({ directory, now: () => 0 });
    const shares = aggregator(journal, bus());
    const sent: string[] = [];
    // Nothing waiting: a write goes out at once.
    journal.afterShares(() => sent.push('hello'));
    expect(sent).toEqual(['hello']);
    // Three sessions' shares in one turn of the event loop, each answered after its share.
    for (const worker of ['a', 'b', 'c']) {
      shares.record('sha256', 'frank', worker, { kind: 'valid', difficulty: 1 }, 1);
      journal.afterShares(() =>
        sent.push(`${worker}: true, ${readFileSync(file, 'utf8').split('\n').length - 1} lines`),
      );
    }
    // A rejected share records nothing, but its answer still waits behind the ones before it.
    shares.record('sha256', 'frank', 'd', { kind: 'invalid', reason: 'low-difficulty' }, 1);
    journal.afterShares(() => sent.push('d: false'));
    expect(sent).toEqual(['hello']);
    expect(readFileSync(file, 'utf8')).toBe('');
    await answered();
    // One write put all three shares in the file before the first answer went out.
    expect(sent).toEqual(['hello', 'a: true, 3 lines', 'b: true, 3 lines', 'c: true, 3 lines', 'd: false']);
    journal.close();
  });

  it('answers even when the share log cannot be written, and says so', async () => {
    const directory = fresh();
    const errors: unknown[] = [];
    const { journal } = ShareJournal.open({ directory, now: () => 0, onWriteError: (error) => errors.push(error) });
    journal.close();
    // Closed: the descriptor is gone, as after an I/O error.
    journal.share({ algorithm: 'sha256', account: 'gina', worker: 'w', difficulty: 1, at: 1 });
    const sent: string[] = [];
    journal.afterShares(() => sent.push('true'));
    await answered();
    expect(sent).toEqual(['true']);
    expect(errors).toHaveLength(1);
  });

  it('empties the share log once every share in it is in a batch', async () => {
    const directory = fresh();
    const { journal } = ShareJournal.open({ directory, now: () => 0, maxShareLogBytes: 100 });
    const target = bus();
    const clock = { now: 0 };
    const shares = aggregator(journal, target, clock);
    for (let i = 0; i < 10; i++) shares.record('sha256', 'erin', 'w', { kind: 'valid', difficulty: 1 }, i);
    await answered();
    expect(statSync(path.join(directory, 'shares.log')).size).toBeGreaterThan(100);
    clock.now = 5_000;
    await shares.flush();
    expect(readFileSync(path.join(directory, 'shares.log'), 'utf8')).toBe('');
    shares.record('sha256', 'erin', 'w', { kind: 'valid', difficulty: 1 }, 5_001);
    await answered();
    expect(readFileSync(path.join(directory, 'shares.log'), 'utf8')).toMatch(/^s\t11\tsha256\terin\tw\t1\t5001\n$/);
    journal.close();
  });

  /**
   * Issue 31, finding 2: a full disk. Writes go through /dev/full while `disk.full` (a real ENOSPC from
   * the kernel); the journal reports each failure with its file and never throws into the aggregator.
   */
  function fullDisk() {
    const devFull = openSync('/dev/full', 'w');
    const disk = { full: false, close: () => closeSync(devFull) };
    const write = (fd: number, text: string) => {
      // A disk that fills in the middle of a line takes part of it first.
      if (disk.full) {
        writeSync(fd, text.slice(0, 5));
        writeSync(devFull, text);
      }
      writeSync(fd, text);
    };
    return { disk, write };
  }

  it('keeps answering and publishing while the disk is full, reporting each file, and counts nothing twice after', async () => {
    const directory = fresh();
    const { disk, write } = fullDisk();
    const errors: { code: string | undefined; file: string }[] = [];
    const onWriteError = (error: unknown, file: string) =>
      errors.push({ code: (error as NodeJS.ErrnoException).code, file });
    const { journal } = ShareJournal.open({ directory, now: () => 0, onWriteError, write });
    const target = bus();
    const clock = { now: 0 };
    const shares = aggregator(journal, target, clock);
    shares.record('sha256', 'hana', 'w', { kind: 'valid', difficulty: 2 }, 1);
    await answered();
    disk.full = true;
    shares.record('sha256', 'hana', 'w', { kind: 'valid', difficulty: 3 }, 2);
    const sent: string[] = [];
    journal.afterShares(() => sent.push('true'));
    await answered();
    expect(sent).toEqual(['true']);
    clock.now = 5_000;
    await shares.flush();
    // The batch is published although its line could not be written.
    expect(credited(target.published, 'hana')).toBe(5);
    expect(errors).toEqual([
      { code: 'ENOSPC', file: 'shares.log' },
      { code: 'ENOSPC', file: 'batches.log' },
    ]);

    // The disk has room again: a later batch is written whole, on a line of its own.
    disk.full = false;
    shares.record('sha256', 'hana', 'w', { kind: 'valid', difficulty: 7 }, 5_001);
    await answered();
    clock.now = 10_000;
    await shares.flush();
    expect(credited(target.published, 'hana')).toBe(12);
    disk.close();

    // A restart counts no share a published batch already counted, and gives back the batch it could write.
    const again = ShareJournal.open({ directory, now: () => 10_000 });
    expect(again.recovered.shares).toEqual([]);
    expect(again.recovered.batches.map((b) => b.id)).toEqual([target.published[1]?.id]);
    again.journal.close();
  });

  it('reports a batch log that cannot be rotated and keeps writing the one it has', async () => {
    const directory = fresh();
    const errors: string[] = [];
    const clock = { now: 0 };
    const { journal } = ShareJournal.open({
      directory,
      now: () => clock.now,
      retainMs: 1_000,
      onWriteError: (error, file) => errors.push(`${file}: ${(error as NodeJS.ErrnoException).code}`),
    });
    // Something in the way of the rotated file: a directory that is not empty.
    mkdirSync(path.join(directory, 'batches.previous.log', 'in-the-way'), { recursive: true });
    const target = bus();
    const shares = aggregator(journal, target, clock);
    shares.record('sha256', 'ivan', 'w', { kind: 'valid', difficulty: 1 }, 1);
    clock.now = 600;
    await shares.flush();
    shares.record('sha256', 'ivan', 'w', { kind: 'valid', difficulty: 1 }, 601);
    clock.now = 700;
    await shares.flush();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^batches\.log: E/);
    expect(target.published).toHaveLength(2);
    const lines = readFileSync(path.join(directory, 'batches.log'), 'utf8').trim().split('\n');
    expect(lines.filter((line) => line.startsWith('b\t'))).toHaveLength(2);
    journal.close();
  });

  it('names the directory when it cannot start on a full disk, and keeps what it holds for the next start', () => {
    const directory = fresh();
    const batch: ShareBatch = {
      id: '7d3f2b58-5d0c-4a57-9d59-2f1c3f2a9e11',
      node: 'n1',
      algorithm: 'sha256',
      intervalStart: 0,
      intervalEnd: 1_000,
      workers: [],
    };
    writeFileSync(path.join(directory, 'batches.log'), `b\t0\t${JSON.stringify(batch)}\n`);
    writeFileSync(path.join(directory, 'shares.log'), 's\t1\tsha256\tjo\tw\t2\t1500\n');
    symlinkSync('/dev/full', path.join(directory, 'batches.log.new'));
    const open = () => ShareJournal.open({ directory, now: () => 2_000 });
    let refused: unknown;
    try {
      open();
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ShareJournalError);
    expect((refused as Error).message).toContain(`share journal: cannot write in ${directory} (the disk is full)`);
    // Room again: the next start gives back both.
    const { journal, recovered } = open();
    expect(recovered.batches.map((b) => b.id)).toEqual([batch.id]);
    expect(recovered.shares).toHaveLength(1);
    journal.close();
  });

  it('keeps every batch the bus has not taken, however long it is down, through rotations of the batch log', async () => {
    const directory = fresh();
    const clock = { now: 0 };
    const { journal } = ShareJournal.open({ directory, now: () => clock.now });
    // The bus takes sha256's batches and refuses scrypt's: scrypt's consumer is cut off for 25 minutes.
    const published: ShareBatch[] = [];
    const partial = {
      async publishShareBatch(batch: ShareBatch) {
        if (batch.algorithm === 'scrypt') throw new Error('stream unavailable');
        published.push(structuredClone(batch));
      },
    };
    const shares = aggregator(journal, partial as ReturnType<typeof bus>, clock);
    shares.record('scrypt', 'kim', 'w', { kind: 'valid', difficulty: 4 }, 1);
    for (let minute = 0; minute <= 25; minute++) {
      shares.record('sha256', 'lee', 'w', { kind: 'valid', difficulty: 1 }, clock.now + 1);
      await answered();
      clock.now = minute * 60_000 + 5_000;
      await shares.flush();
    }
    // The process dies. The scrypt batch was cut 25 minutes ago, far past the retention, and never taken.
    const again = ShareJournal.open({ directory, now: () => clock.now });
    const scrypt = again.recovered.batches.filter((b) => b.algorithm === 'scrypt');
    expect(credited(scrypt, 'kim')).toBe(4);
    // sha256's batches were taken: only those of the retention time come back, and no share twice.
    const sha256 = again.recovered.batches.filter((b) => b.algorithm === 'sha256');
    expect(sha256.length).toBeGreaterThan(0);
    expect(sha256.every((b) => b.intervalEnd >= clock.now - 10 * 60_000)).toBe(true);
    expect(again.recovered.shares).toEqual([]);
    again.journal.close();
  });

  it('does not count again, after rotations, the shares of an algorithm that went quiet', async () => {
    const directory = fresh();
    const clock = { now: 0 };
    const { journal } = ShareJournal.open({ directory, now: () => clock.now });
    const target = bus();
    const shares = aggregator(journal, target, clock);
    shares.record('x11', 'mia', 'w', { kind: 'valid', difficulty: 9 }, 1);
    await answered();
    clock.now = 5_000;
    await shares.flush();
    // X11 goes quiet; SHA256 keeps batches coming for 25 minutes, rotating the batch log five times.
    for (let minute = 1; minute <= 25; minute++) {
      shares.record('sha256', 'ned', 'w', { kind: 'valid', difficulty: 1 }, clock.now + 1);
      await answered();
      clock.now = minute * 60_000;
      await shares.flush();
    }
    const again = ShareJournal.open({ directory, now: () => clock.now });
    expect(again.recovered.shares).toEqual([]);
    expect(credited(target.published, 'mia')).toBe(9);
    again.journal.close();
  });
});
