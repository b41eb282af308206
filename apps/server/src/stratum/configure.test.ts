import { describe, expect, it } from 'vitest';
import { negotiateExtensions } from './configure.js';

const port = { min: 1, max: 1e6, extranonceSubscribe: false };

describe('negotiateExtensions (BIP 310)', () => {
  it('answers version-rolling with the requested mask ∩ 1fffe000', () => {
    const outcome = negotiateExtensions(
      ['version-rolling'],
      { 'version-rolling.mask': 'ffffffff', 'version-rolling.min-bit-count': 2 },
      port,
    );
    expect(outcome).toEqual({
      result: { 'version-rolling': true, 'version-rolling.mask': '1fffe000' },
      versionMask: 0x1fffe000,
    });
    expect(negotiateExtensions(['version-rolling'], { 'version-rolling.mask': '00fff000' }, port).result).toEqual({
      'version-rolling': true,
      'version-rolling.mask': '00ffe000',
    });
  });

  it('refuses version rolling when too few bits remain', () => {
    const outcome = negotiateExtensions(
      ['version-rolling'],
      { 'version-rolling.mask': '00006000', 'version-rolling.min-bit-count': 4 },
      port,
    );
    expect(outcome).toEqual({ result: { 'version-rolling': false }, versionMask: 0 });
    expect(negotiateExtensions(['version-rolling'], { 'version-rolling.mask': 'e0000fff' }, port).versionMask).toBe(0);
  });

  it('accepts a minimum difficulty within bounds, extranonce subscription where offered, and refuses the rest', () => {
    const outcome = negotiateExtensions(
      ['minimum-difficulty', 'subscribe-extranonce', 'info'],
      { 'minimum-difficulty.value': 1e9 },
      port,
    );
    expect(outcome).toEqual({
      result: { 'minimum-difficulty': true, 'subscribe-extranonce': false, info: false },
      minimumDifficulty: 1e6,
    });
    expect(negotiateExtensions(['subscribe-extranonce'], {}, { ...port, extranonceSubscribe: true })).toEqual({
      result: { 'subscribe-extranonce': true },
      extranonceSubscribe: true,
    });
  });
});
