import { describe, expect, it } from 'vitest';
import { ckbCompactFromTarget, ckbTargetFromCompact } from './target.js';
import {
  CkbEncodingError,
  nonceFromBytes,
  nonceToBytes,
  parseCkbBytes,
  parseCkbHash,
  parseCkbUint,
  toCkbUint,
} from './uint.js';

describe('CKB JSON uints (util/jsonrpc-types/src/uints.rs)', () => {
  it('reads 0x-hex without leading zeros', () => {
    expect(parseCkbUint('0x0', 'n')).toBe(0n);
    expect(parseCkbUint('0x10', 'n')).toBe(16n);
    expect(parseCkbUint('0xd', 'n')).toBe(13n);
    expect(parseCkbUint('0xFFFFFFFF', 'n', 32)).toBe(0xffffffffn);
    expect(parseCkbUint(`0x${'f'.repeat(32)}`, 'nonce', 128)).toBe((1n << 128n) - 1n);
  });

  it.each([
    ['0x01', 'redundant leading zeros'],
    ['0x00', 'redundant leading zeros'],
    ['10', 'no 0x prefix'],
    ['0x', 'not hex digits'],
    ['0x+1', 'not hex digits'],
    ['0xg', 'not hex digits'],
  ])('refuses %s (%s)', (value, reason) => {
    expect(() => parseCkbUint(value, 'field')).toThrow(CkbEncodingError);
    expect(() => parseCkbUint(value, 'field')).toThrow(reason);
  });

  it('refuses overflow, numbers and null, naming the field', () => {
    expect(() => parseCkbUint('0x100000000', 'compact_target', 32)).toThrow(
      'compact_target: 0x100000000 does not fit in Uint32',
    );
    expect(() => parseCkbUint(16, 'number')).toThrow('number: expected a Uint64 hex string, got number');
    expect(() => parseCkbUint(null, 'number')).toThrow('got null');
  });

  it('writes without leading zeros', () => {
    expect(toCkbUint(0)).toBe('0x0');
    expect(toCkbUint(0x401n)).toBe('0x401');
    expect(() => toCkbUint(-1)).toThrow(RangeError);
    expect(() => toCkbUint(1n << 32n, 32)).toThrow(RangeError);
  });

  it('reads hashes and bytes strictly', () => {
    expect(parseCkbHash(`0x${'AB'.repeat(32)}`, 'h')).toBe(`0x${'ab'.repeat(32)}`);
    expect(() => parseCkbHash(`0x${'ab'.repeat(31)}`, 'h')).toThrow(CkbEncodingError);
    expect(parseCkbBytes('0x', 'b')).toBe('0x');
    expect(() => parseCkbBytes('0xabc', 'b')).toThrow(CkbEncodingError);
    expect(() => parseCkbBytes('0xabcd', 'id', 10)).toThrow('expected 10 bytes, got 2');
  });

  it('reads 16 nonce bytes little-endian, and back', () => {
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => i);
    expect(nonceFromBytes(bytes)).toBe(0x0f0e0d0c0b0a09080706050403020100n);
    expect(nonceToBytes(0x0f0e0d0c0b0a09080706050403020100n)).toEqual(bytes);
    expect(() => nonceFromBytes(new Uint8Array(12))).toThrow(RangeError);
  });
});

describe('compact target (util/types/src/utilities/tests/difficulty.rs)', () => {
  it.each([
    [0x1020000, 0x2n],
    [0x3123456, 0x123456n],
    [0x4123456, 0x12345600n],
    [0x4923456, 0x92345600n],
    [0x4923400, 0x92340000n],
    [0x20123456, 0x1234560000000000000000000000000000000000000000000000000000000000n],
  ])('compact %i ↔ target %s both ways', (compact, target) => {
    expect(ckbTargetFromCompact(compact)).toBe(target);
    expect(ckbCompactFromTarget(target)).toBe(compact);
  });

  it('decodes as the node does and re-encodes with 3 bytes of precision', () => {
    expect(ckbTargetFromCompact(0x2123456)).toBe(0x1234n);
    expect(ckbCompactFromTarget(0x1234n)).toBe(0x2123400);
    expect(ckbTargetFromCompact(0x1803456)).toBe(0x80n);
    expect(ckbTargetFromCompact(0x2800056)).toBe(0x8000n);
    expect(ckbTargetFromCompact(0x4800000)).toBe(0x80000000n);
    expect(ckbCompactFromTarget(0xfen)).toBe(0x1fe0000);
    expect(ckbCompactFromTarget(1n)).toBe(0x1010000);
    expect(ckbCompactFromTarget((1n << 256n) - 1n)).toBe(0x20ffffff);
    expect(ckbTargetFromCompact(0x20010000)).toBe(1n << 248n);
  });

  it('refuses what the node calls an invalid compact_target: zero or overflowing', () => {
    expect(() => ckbTargetFromCompact(0x123456)).toThrow('is zero');
    expect(() => ckbTargetFromCompact(0)).toThrow('is zero');
    expect(() => ckbTargetFromCompact(0xff123456)).toThrow(RangeError);
    expect(() => ckbTargetFromCompact(0x21000001)).toThrow(RangeError);
  });
});
