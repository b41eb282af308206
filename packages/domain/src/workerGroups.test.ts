import { describe, expect, it } from 'vitest';
import { MAX_WORKER_LABEL, namePrefix, normalizeLabel, workerGroup } from './workerGroups.js';

describe('worker groups', () => {
  it('takes the name up to its first separator', () => {
    expect(namePrefix('rack1-s19-07')).toBe('rack1-');
    expect(namePrefix('roomB_l7_12')).toBe('roomB_');
    expect(namePrefix('site.a.3')).toBe('site.');
  });

  it('gives no group to a name without a usable separator', () => {
    expect(namePrefix('rig7')).toBeNull();
    expect(namePrefix('-rig7')).toBeNull();
    expect(namePrefix('rig7-')).toBeNull();
    expect(namePrefix('')).toBeNull();
  });

  it('prefers the chosen label to the prefix', () => {
    expect(workerGroup('rack1-s19-07', 'Basement')).toBe('Basement');
    expect(workerGroup('rack1-s19-07', null)).toBe('rack1-');
    expect(workerGroup('rig7', null)).toBeNull();
  });

  it('normalises a typed label and refuses what cannot be one', () => {
    expect(normalizeLabel('  Room   B  ')).toBe('Room B');
    expect(normalizeLabel('   ')).toBeNull();
    expect(normalizeLabel('x'.repeat(MAX_WORKER_LABEL))).toBe('x'.repeat(MAX_WORKER_LABEL));
    expect(normalizeLabel('x'.repeat(MAX_WORKER_LABEL + 1))).toBeUndefined();
    expect(normalizeLabel('a\u0000b')).toBeUndefined();
  });
});
