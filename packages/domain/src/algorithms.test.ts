import { describe, expect, it } from 'vitest';
import { ALGORITHM_NAMES, algorithmByKey, DEFAULT_ALGORITHM, isAlgorithmName } from './algorithms.js';

describe('algorithms', () => {
  it('lists the six algorithms in order, SCRYPT first and default', () => {
    expect(ALGORITHM_NAMES).toEqual(['SCRYPT', 'SHA256', 'EAGLESONG', 'BLAKE2S', 'X11', 'KHEAVYHASH']);
    expect(DEFAULT_ALGORITHM).toBe('SCRYPT');
  });

  it('finds algorithms by key and recognises names', () => {
    expect(algorithmByKey('kheavyhash')?.name).toBe('KHEAVYHASH');
    expect(algorithmByKey('ethash')).toBeUndefined();
    expect(isAlgorithmName('X11')).toBe(true);
    expect(isAlgorithmName('x11')).toBe(false);
  });
});
