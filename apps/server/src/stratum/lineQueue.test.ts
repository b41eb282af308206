import { describe, expect, it, vi } from 'vitest';
import { LineQueue } from './lineQueue.js';

describe('LineQueue', () => {
  it('handles lines in arrival order even when a handler awaits', async () => {
    const handled: string[] = [];
    const paused: boolean[] = [];
    let release: () => void = () => {};
    const queue = new LineQueue({
      handle(line) {
        if (line === 'slow') {
          return new Promise<void>((resolve) => {
            release = () => {
              handled.push(line);
              resolve();
            };
          });
        }
        handled.push(line);
        return undefined;
      },
      onError() {},
      setReadPaused: (p) => paused.push(p),
      maxQueued: 3,
    });
    queue.push('a');
    queue.push('slow');
    queue.push('b');
    queue.push('c');
    queue.push('d');
    expect(handled).toEqual(['a']);
    expect(paused).toEqual([true]);
    release();
    await vi.waitFor(() => {
      expect(handled).toEqual(['a', 'slow', 'b', 'c', 'd']);
      expect(paused).toEqual([true, false]);
    });
  });

  it('reports a failing handler and goes on with the next line', () => {
    const errors: unknown[] = [];
    const handled: string[] = [];
    const queue = new LineQueue({
      handle(line) {
        if (line === 'bad') throw new Error('boom');
        handled.push(line);
        return undefined;
      },
      onError: (e) => errors.push(e),
      setReadPaused() {},
      maxQueued: 10,
    });
    queue.push('bad');
    queue.push('good');
    expect(handled).toEqual(['good']);
    expect(errors).toHaveLength(1);
    queue.stop();
    queue.push('ignored');
    expect(handled).toEqual(['good']);
  });
});
