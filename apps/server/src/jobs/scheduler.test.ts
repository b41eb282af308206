import type { Database } from '@lodestone/db';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jobLockKey, nextRunAt, type Scheduler, startScheduler } from './scheduler.js';
import { recordingLog } from './testing.js';
import type { JobContext, JobDefinition } from './types.js';

// The embedded engine takes no lock, so these tests need no database at all.
const database = { engine: 'pglite' } as Database;
/** A job's own work, which the scheduler must wait out. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Tests wait for a condition rather than a fixed time, so a busy machine slows them but never fails them. */
const patiently = { timeout: 5000, interval: 5 };

describe('nextRunAt', () => {
  it('is the next instant aligned on the period plus the offset', () => {
    expect(nextRunAt(0, 60_000, 10_000)).toBe(10_000);
    expect(nextRunAt(10_000, 60_000, 10_000)).toBe(70_000);
    expect(nextRunAt(69_999, 60_000, 10_000)).toBe(70_000);
    expect(nextRunAt(125_000, 60_000)).toBe(180_000);
  });
});

describe('jobLockKey', () => {
  it('is a stable signed 64-bit key per name', () => {
    expect(jobLockKey('pool-stats-rollup')).toBe(jobLockKey('pool-stats-rollup'));
    expect(jobLockKey('pool-stats-rollup')).not.toBe(jobLockKey('payouts'));
    const key = jobLockKey('x');
    expect(key >= -(2n ** 63n) && key < 2n ** 63n).toBe(true);
  });
});

describe('startScheduler', () => {
  let scheduler: Scheduler | undefined;
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = undefined;
  });

  it('runs each job at its aligned instants, and once at start when asked', async () => {
    const instants: number[] = [];
    const job: JobDefinition = {
      name: 'tick',
      everyMs: 25,
      offsetMs: 5,
      runOnStart: true,
      async run(ctx) {
        instants.push(ctx.now.getTime());
      },
    };
    scheduler = startScheduler({ jobs: [job], database, log: recordingLog() });
    await vi.waitFor(() => expect(instants.length).toBeGreaterThanOrEqual(4), patiently);
    await scheduler.stop();
    const [first, ...scheduled] = instants;
    expect(first).toBeDefined();
    for (const t of scheduled) expect((t - 5) % 25).toBe(0);
    expect(scheduler.status()[0]).toMatchObject({ name: 'tick', runs: instants.length, failures: 0 });
  });

  it('never overlaps two runs of a job: an instant that finds it running is skipped', async () => {
    let running = 0;
    let most = 0;
    const job: JobDefinition = {
      name: 'slow',
      everyMs: 10,
      async run() {
        running++;
        most = Math.max(most, running);
        await pause(45);
        running--;
      },
    };
    const log = recordingLog();
    scheduler = startScheduler({ jobs: [job], database, log });
    const current = scheduler;
    await vi.waitFor(() => {
      expect(current.status()[0]?.runs).toBeGreaterThanOrEqual(2);
      expect(current.status()[0]?.skippedBusy).toBeGreaterThanOrEqual(6);
    }, patiently);
    await scheduler.stop();
    const [status] = scheduler.status();
    expect(most).toBe(1);
    expect(status?.runs).toBeGreaterThanOrEqual(2);
    expect(status?.skippedBusy).toBeGreaterThanOrEqual(6);
    // One warning per overrunning run (the run under way at the stop included), not one per skipped instant.
    const warnings = log.entries.filter(
      (e) => e.level === 'warn' && e.fields && (e.fields as { job?: string }).job === 'slow',
    ).length;
    expect(warnings).toBeGreaterThanOrEqual(1);
    expect(warnings).toBeLessThanOrEqual((status?.runs ?? 0) + 1);
    expect(warnings).toBeLessThan(status?.skippedBusy ?? 0);
  });

  it('logs and counts a failed run, and runs again at the next instant', async () => {
    let calls = 0;
    const job: JobDefinition = {
      name: 'flaky',
      everyMs: 15,
      async run() {
        calls++;
        if (calls === 1) throw new Error('database unavailable');
      },
    };
    const log = recordingLog();
    scheduler = startScheduler({ jobs: [job], database, log });
    const current = scheduler;
    await vi.waitFor(() => expect(current.status()[0]?.runs).toBeGreaterThanOrEqual(2), patiently);
    await scheduler.stop();
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(scheduler.status()[0]).toMatchObject({ failures: 1, lastError: null });
    expect(log.entries.filter((e) => e.level === 'error')).toEqual([
      {
        level: 'error',
        message: 'job failed; it runs again next time',
        fields: { job: 'flaky', err: new Error('database unavailable'), failures: 1 },
      },
    ]);
  });

  it('stop() aborts the signal, waits for the running job and runs nothing afterwards', async () => {
    let finished = false;
    let signal: AbortSignal | undefined;
    let runs = 0;
    const job: JobDefinition = {
      name: 'long',
      everyMs: 10,
      async run(ctx: JobContext) {
        runs++;
        signal = ctx.signal;
        await pause(40);
        finished = true;
      },
    };
    scheduler = startScheduler({ jobs: [job], database, log: recordingLog() });
    await vi.waitFor(() => expect(runs).toBe(1), patiently); // the first instant has started a run
    await scheduler.stop();
    expect(finished).toBe(true);
    expect(signal?.aborted).toBe(true);
    const after = runs;
    // Proving nothing runs during four periods after the stop: there is no event to await, and the
    // scheduler's timers are real ones (it takes no clock), so only real time can show none is left.
    await pause(40);
    expect(runs).toBe(after);
    await expect(scheduler.runNow('long')).rejects.toThrow('stopped');
  });

  it('wake() runs a job at once, or once more right after the run going on, never two at once', async () => {
    let running = 0;
    let overlapped = false;
    let release: () => void = () => {};
    const starts: number[] = [];
    const job: JobDefinition = {
      name: 'woken',
      everyMs: 3_600_000,
      async run() {
        starts.push(starts.length);
        running++;
        overlapped ||= running > 1;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        running--;
      },
    };
    scheduler = startScheduler({ jobs: [job], database, log: recordingLog() });
    scheduler.wake('woken');
    await vi.waitFor(() => expect(starts).toHaveLength(1), patiently);
    // Two wakes during the run (which may have read before what woke them): one more run, after it.
    scheduler.wake('woken');
    scheduler.wake('woken');
    expect(starts).toHaveLength(1);
    release();
    await vi.waitFor(() => expect(starts).toHaveLength(2), patiently);
    release();
    await vi.waitFor(() => expect(scheduler?.status()[0]).toMatchObject({ running: false, runs: 2 }), patiently);
    expect(overlapped).toBe(false);
    expect(() => scheduler?.wake('nope')).toThrow('no job named nope');
  });

  it('refuses two jobs with one name and a period that is not positive', () => {
    const job: JobDefinition = { name: 'a', everyMs: 1000, run: async () => {} };
    expect(() => startScheduler({ jobs: [job, job], database, log: recordingLog() })).toThrow('two jobs are named a');
    expect(() => startScheduler({ jobs: [{ ...job, everyMs: 0 }], database, log: recordingLog() })).toThrow(
      'everyMs must be > 0',
    );
  });
});
