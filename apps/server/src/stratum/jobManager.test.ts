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
    expect(first?.seen.size).toBe(0);
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
});
