import { describe, expect, it } from 'vitest';
import { IssuedJobs } from './issuedJobs.js';

const job = (blockKey: string) => ({ blockKey });

describe('IssuedJobs', () => {
  it('keeps every job of the current block with the difficulty it was sent at', () => {
    const issued = new IssuedJobs(8);
    const a = job('block-1');
    const first = issued.issue(a, 1, 100n);
    const second = issued.issue(a, 16, 10n);
    expect([first, second]).toEqual([1, 2]);
    expect(issued.lookup(1)).toEqual({ issued: { entry: a, difficulty: 1, target: 100n } });
    expect(issued.lookup(2)).toEqual({ issued: { entry: a, difficulty: 16, target: 10n } });
    expect(issued.latest).toBe(a);
  });

  it('answers stale for ids of an older block and job-not-found for ids never sent or let go', () => {
    const issued = new IssuedJobs(2);
    issued.issue(job('block-1'), 1, 1n);
    issued.issue(job('block-1'), 1, 1n);
    issued.issue(job('block-1'), 1, 1n);
    // The bound let go of id 1: same block, so not "stale".
    expect(issued.lookup(1)).toEqual({ issued: undefined, reason: 'job-not-found' });
    expect(issued.size).toBe(2);
    issued.issue(job('block-2'), 1, 1n);
    expect(issued.size).toBe(1);
    expect(issued.lookup(2)).toEqual({ issued: undefined, reason: 'stale' });
    expect(issued.lookup(3)).toEqual({ issued: undefined, reason: 'stale' });
    expect(issued.lookup(4).issued).toBeDefined();
    for (const unknown of [5, 0, Number.NaN, 0x123456789, -1]) {
      expect(issued.lookup(unknown)).toEqual({ issued: undefined, reason: 'job-not-found' });
    }
  });

  it('lists the jobs of the current block sent before an id, newest first', () => {
    const issued = new IssuedJobs(8);
    issued.issue({ blockKey: 'a' }, 1, 1n);
    issued.issue({ blockKey: 'b' }, 2, 2n);
    issued.issue({ blockKey: 'b' }, 4, 4n);
    issued.issue({ blockKey: 'b' }, 8, 8n);
    expect([...issued.before(4)].map((j) => [j.id, j.issued.difficulty])).toEqual([
      [3, 4],
      [2, 2],
    ]);
    expect([...issued.before(2)]).toEqual([]);
  });
});
