import { keccakP } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { keccakF1600 } from './keccak.js';

describe('keccakF1600', () => {
  it('permutes the zero state as FIPS 202 does (first lane of Keccak-f[1600](0) = 0xF1258F7940E1DDE7)', () => {
    const state = new Uint32Array(50);
    keccakF1600(state);
    expect(new BigUint64Array(state.buffer)[0]).toBe(0xf1258f7940e1dde7n);
  });

  it('agrees with @noble/hashes keccakP on pseudo-random states', () => {
    let seed = 0x9e3779b9;
    for (let n = 0; n < 50; n++) {
      const a = new Uint32Array(50).map(() => {
        seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
        return seed;
      });
      const b = Uint32Array.from(a);
      keccakF1600(a);
      keccakP(b, 24);
      expect(bytesToHex(new Uint8Array(a.buffer))).toBe(bytesToHex(new Uint8Array(b.buffer)));
    }
  });
});
