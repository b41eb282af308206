import { describe, expect, it } from 'vitest';
import { JobManager } from './jobManager.js';
import { SILENT_LOG } from './log.js';
import { FixtureJobSource } from './testing/fixtureJobs.js';

describe('JobManager', () => {
  it('starts from the current job and hands out new ones, clean on a new block', () => {
    const source = new FixtureJobSource({ algorithm: 'sha256' });
    const jobs = new JobManager(source, { log: SILENT_LOG });
    jobs.start();
    const first = jobs.current();
    expect(first?.job.id).toBe(source.current()?.id);

    const seen: [string, boolean][] = [];
    jobs.onJob((entry, clean) => seen.push([entry.job.id, clean]));
    const second = source.nextJob();
    expect(jobs.current()?.job).toBe(second);
    expect(first?.stale).toBe(false);

    first?.seen.add(42);
    const third = source.newBlock();
    expect(seen).toEqual([
      [second.id, false],
      [third.id, true],
    ]);
    expect(first?.stale).toBe(true);
    expect(jobs.get(second.id)).toBeUndefined();
    expect(jobs.get(third.id)?.stale).toBe(false);
    jobs.stop();
    source.nextJob();
    expect(seen).toHaveLength(2);
  });

  it('keeps the jobs of the current block up to a bound; one let go is evicted, not stale', () => {
    const source = new FixtureJobSource({ algorithm: 'sha256' });
    const jobs = new JobManager(source, { log: SILENT_LOG, maxJobs: 3 });
    jobs.start();
    const first = jobs.current();
    const second = source.nextJob();
    source.nextJob();
    expect(first?.evicted).toBe(false);
    source.nextJob();
    expect(first).toMatchObject({ stale: false, evicted: true });
    expect(jobs.get(first?.job.id ?? '')).toBeUndefined();
    expect(jobs.get(second.id)).toMatchObject({ stale: false, evicted: false });
    source.newBlock();
    expect(jobs.get(second.id)).toBeUndefined();
  });

  it('remembers 256 jobs of one block by default', () => {
    const source = new FixtureJobSource({ algorithm: 'sha256' });
    const jobs = new JobManager(source, { log: SILENT_LOG });
    jobs.start();
    const first = jobs.current();
    for (let i = 0; i < 255; i++) source.nextJob();
    expect(first?.evicted).toBe(false);
    source.nextJob();
    expect(first?.evicted).toBe(true);
  });

  it('ignores a job id it already has and survives a failing listener', () => {
    const source = new FixtureJobSource({ algorithm: 'sha256' });
    const errors: string[] = [];
    const jobs = new JobManager(source, { log: { ...SILENT_LOG, error: (_f, m) => errors.push(m) } });
    jobs.start();
    const calls: string[] = [];
    jobs.onJob(() => {
      throw new Error('boom');
    });
    jobs.onJob((entry) => calls.push(entry.job.id));
    const job = source.nextJob();
    jobs.add(job);
    expect(calls).toEqual([job.id]);
    expect(errors).toEqual(['job listener failed']);
  });

  it('keeps one duplicate set per work: a refreshed job of the same work shares it, other work has its own', () => {
    const source = new FixtureJobSource({ algorithm: 'sha256' });
    const jobs = new JobManager(source, { log: SILENT_LOG });
    jobs.start();
    const first = jobs.current();
    first?.seen.add(7);
    const refreshed = jobs.get(source.refresh(30).id);
    expect(refreshed?.job.workKey).toBe(first?.job.workKey);
    expect(refreshed?.seen).toBe(first?.seen);
    expect(refreshed?.seen.has(7)).toBe(true);
    const other = jobs.get(source.nextJob().id);
    expect(other?.job.workKey).not.toBe(first?.job.workKey);
    expect(other?.seen.has(7)).toBe(false);
  });

  it('brings back the duplicate set of a work handed out again after it was let go, and keeps a bounded number', () => {
    const source = new FixtureJobSource({ algorithm: 'sha256' });
    const jobs = new JobManager(source, { log: SILENT_LOG, maxJobs: 2, maxRetiredWorks: 2 });
    jobs.start();
    const first = jobs.current();
    if (!first) throw new Error('no job');
    first.seen.add(1);
    // Two jobs of other work evict the first; the same work handed out again still knows share 1.
    source.nextJob();
    source.nextJob();
    expect(first.evicted).toBe(true);
    jobs.add({ ...first.job, id: 'again' });
    expect(jobs.get('again')?.seen.has(1)).toBe(true);

    // A new block retires every work; a work that comes back (a failover to the tip left) keeps its set.
    const back = jobs.get('again');
    source.newBlock();
    expect(back?.stale).toBe(true);
    jobs.add({ ...first.job, id: 'returned' });
    expect(jobs.get('returned')?.seen.has(1)).toBe(true);

    // Past maxRetiredWorks the oldest retired set is freed.
    source.newBlock();
    for (let i = 0; i < 3; i++) jobs.get(source.nextJob().id)?.seen.add(100 + i);
    source.newBlock();
    jobs.add({ ...first.job, id: 'too-late' });
    expect(jobs.get('too-late')?.seen.size).toBe(0);
  });
});
