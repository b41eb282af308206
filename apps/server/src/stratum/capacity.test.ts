import { describe, expect, it } from 'vitest';
import { ConnectionBudget, openFileLimit, stratumCapacity } from './capacity.js';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            20000                524288               files
Max locked memory         8388608              8388608              bytes
`;

describe('stratum connection capacity', () => {
  it('reads the soft open-file limit', () => {
    expect(openFileLimit(() => LIMITS)).toBe(20_000);
    expect(openFileLimit(() => LIMITS.replace('20000  ', 'unlimited'))).toBe(Number.POSITIVE_INFINITY);
    expect(openFileLimit(() => 'nothing useful')).toBeUndefined();
    expect(
      openFileLimit(() => {
        throw new Error('no /proc here');
      }),
    ).toBeUndefined();
  });

  it('keeps a tenth of the limit (at least 512) for HTTP and the database', () => {
    expect(stratumCapacity(20_000, undefined)).toEqual({ fileLimit: 20_000, reserve: 2_000, maxConnections: 18_000 });
    expect(stratumCapacity(1_024, undefined)).toEqual({ fileLimit: 1_024, reserve: 512, maxConnections: 512 });
    expect(stratumCapacity(20_000, 5_000).maxConnections).toBe(5_000);
    const lowered = stratumCapacity(20_000, 19_900);
    expect(lowered.maxConnections).toBe(18_000);
    expect(lowered.lowered).toContain('above the open-file limit 20000');
    expect(stratumCapacity(undefined, undefined).maxConnections).toBe(50_000);
    expect(stratumCapacity(undefined, 700).maxConnections).toBe(700);
  });

  it('refuses past the process cap or the listener cap, and says when it is under pressure', () => {
    const budget = new ConnectionBudget(10);
    for (let i = 0; i < 7; i++) {
      expect(budget.admit(i, 100)).toBeUndefined();
      budget.opened();
    }
    expect(budget.underPressure).toBe(false);
    budget.opened();
    expect(budget.underPressure).toBe(true);
    expect(budget.admit(8, 8)).toBe('listener-connection-cap');
    budget.opened();
    budget.opened();
    expect(budget.admit(0, 100)).toBe('process-connection-cap');
    budget.closed();
    expect(budget.admit(0, 100)).toBeUndefined();
    let shed = 0;
    const stop = budget.onShed(() => shed++);
    budget.shed();
    stop();
    budget.shed();
    expect(shed).toBe(1);
  });
});
