import { describe, expect, it } from 'vitest';
import { NodePolling } from './nodePolling.js';

function recordingLogger() {
  const lines: string[] = [];
  const log = (level: string) => (_details: object, message: string) => lines.push(`${level}: ${message}`);
  return { lines, logger: { info: log('info'), warn: log('warn'), error: log('error') } };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('polling a node', () => {
  it('logs a failure that persists once, a new failure again, and the recovery once', async () => {
    const { lines, logger } = recordingLogger();
    const outcomes = ['down', 'down', 'down', 'refused', 'ok', 'ok', 'fatal'];
    let polls = 0;
    const polling = new NodePolling({
      intervalMs: 1,
      logger,
      fields: { coin: 'TST' },
      what: 'test node',
      levelOf: (error) => ((error as Error).message === 'fatal' ? 'error' : 'warn'),
      poll: async () => {
        const outcome = outcomes[polls++] ?? 'ok';
        if (outcome !== 'ok') throw new Error(outcome);
      },
    });
    polling.start();
    while (polls < outcomes.length + 1) await tick(2);
    await polling.stop();
    expect(lines).toEqual([
      'warn: test node polling failed',
      'warn: test node polling failed',
      'info: test node polling recovered',
      'error: test node polling failed',
      'info: test node polling recovered',
    ]);
  });

  it('considers in order, survives a failed task, and stops after the poll in flight', async () => {
    const polling = new NodePolling({
      intervalMs: 1,
      fields: {},
      what: 'test node',
      poll: async () => {
        await tick(20);
      },
    });
    const order: number[] = [];
    const first = polling.serial(async () => {
      await tick(10);
      order.push(1);
    });
    const failing = polling.serial(() => {
      throw new Error('bad template');
    });
    const third = polling.serial(() => order.push(3));
    await expect(failing).rejects.toThrow('bad template');
    await Promise.all([first, third]);
    expect(order).toEqual([1, 3]);

    let afterStop = 0;
    const counting = new NodePolling({
      intervalMs: 1,
      fields: {},
      what: 'test node',
      poll: async () => {
        await tick(5);
        if (!counting.active) afterStop++;
      },
    });
    counting.start();
    expect(counting.active).toBe(true);
    await tick(3);
    await counting.stop();
    const settled = afterStop;
    await tick(20);
    // The poll in flight at stop finished before stop resolved; none started after it.
    expect(afterStop).toBe(settled);
    expect(counting.active).toBe(false);
  });
});
