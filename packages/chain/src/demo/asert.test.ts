import { describe, expect, it } from 'vitest';
import { bitsFromTarget, targetFromBits } from '../pow.js';
import { AsertSchedule, asertTarget } from './asert.js';

/**
 * Bitcoin Cash Node's aserti3-2d test vectors (bchn-sw/qa-assets `test_vectors/aserti3-2d`, linked from
 * the ASERT specification; read from the mirror in AIBlockOfficial/Network `src/test_data/asert`).
 * Parameters of those runs: 600 s spacing, 2-day half-life, POW limit 0x1d00ffff. Each row is a block
 * (height, time) and the nBits of the block after it. Rows are a selection of each run, verbatim.
 */
const BCH = { spacingSeconds: 600, halfLifeSeconds: 172_800, powLimit: targetFromBits(0x1d00ffff) };

interface Run {
  name: string;
  anchor: { height: number; parentTime: number; bits: number };
  rows: Array<[height: number, time: number, bits: number]>;
}

const RUNS: Run[] = [
  {
    name: 'run1: steady 600 s blocks at the POW limit',
    anchor: { height: 1, parentTime: 0, bits: 0x1d00ffff },
    rows: [
      [2, 1200, 0x1d00ffff],
      [3, 1800, 0x1d00ffff],
      [11, 6600, 0x1d00ffff],
    ],
  },
  {
    name: 'run4: from the minimum target, one half-life late each block, doubling the target',
    anchor: { height: 1, parentTime: 0, bits: 0x01010000 },
    rows: [
      [2, 174000, 0x01020000],
      [3, 347400, 0x01040000],
      [8, 1214400, 0x02008000],
      [9, 1387800, 0x02010000],
      [224, 38668800, 0x1d008000],
      [225, 38842200, 0x1d00ffff],
      [226, 39015600, 0x1d00ffff],
    ],
  },
  {
    name: 'run5: from the POW limit, a half-life of blocks at no time, halving the target',
    anchor: { height: 1, parentTime: 0, bits: 0x1d00ffff },
    rows: [
      [2, 0, 0x1d00fec5],
      [290, 0, 0x1c7f62c0],
      [578, 0, 0x1c3fb160],
      [59906, 0, 0x0300fec5],
      [60194, 0, 0x027f6200],
      [62498, 0, 0x017f0000],
      [64226, 0, 0x01010000],
      [64514, 0, 0x01010000],
    ],
  },
  {
    name: 'run9: 300 s blocks across the signed 32-bit height limit',
    anchor: { height: 2147483642, parentTime: 1234567290, bits: 0x1802aee8 },
    rows: [
      [2147483643, 1234568190, 0x1802ae16],
      [2147483644, 1234568490, 0x1802ad44],
      [2147483645, 1234568790, 0x1802ac71],
      [2147483646, 1234569090, 0x1802ab9e],
      [2147483647, 1234569390, 0x1802aacd],
      [2147483648, 1234569690, 0x1802a9fa],
      [2147483649, 1234569990, 0x1802a929],
      [2147483650, 1234570290, 0x1802a858],
      [2147483651, 1234570590, 0x1802a787],
      [2147483652, 1234570890, 0x1802a6b7],
    ],
  },
];

describe('asertTarget (aserti3-2d)', () => {
  it.each(RUNS)('$name', ({ anchor, rows }) => {
    const from = { height: anchor.height, parentTime: anchor.parentTime, target: targetFromBits(anchor.bits) };
    const got = rows.map(([height, time]) => bitsFromTarget(asertTarget(from, BCH, { height, time })));
    expect(got.map(hex)).toEqual(rows.map(([, , bits]) => hex(bits)));
  });

  it('an early block makes the next one harder by 2^(early / half-life); a late one easier', () => {
    const anchor = { height: 10, parentTime: 1000, target: 1n << 200n };
    const params = { spacingSeconds: 600, halfLifeSeconds: 600, powLimit: 1n << 220n };
    // The anchor's own successor, on schedule: the anchor target.
    expect(asertTarget(anchor, params, { height: 10, time: 1600 })).toBe(1n << 200n);
    // One block at no time: one spacing early = one half-life: half the target.
    expect(asertTarget(anchor, params, { height: 11, time: 1600 })).toBe(1n << 199n);
    // A block one spacing late: twice the target; never past the limit.
    expect(asertTarget(anchor, params, { height: 10, time: 2200 })).toBe(1n << 201n);
    expect(asertTarget(anchor, params, { height: 10, time: 1600 + 600 * 100 })).toBe(1n << 220n);
    // Half a half-life: √2 within the cubic's error.
    const half = Number(asertTarget(anchor, params, { height: 10, time: 1900 }) >> 150n) / 2 ** 50;
    expect(half).toBeCloseTo(Math.SQRT2, 3);
  });

  it('refuses a parent below the anchor and a non-positive half-life', () => {
    const anchor = { height: 10, parentTime: 0, target: 1n << 200n };
    const params = { spacingSeconds: 600, halfLifeSeconds: 600, powLimit: 1n << 220n };
    expect(() => asertTarget(anchor, params, { height: 9, time: 0 })).toThrow(/below the anchor/);
    expect(() => asertTarget(anchor, { ...params, halfLifeSeconds: 0 }, { height: 10, time: 0 })).toThrow(/positive/);
  });
});

describe('AsertSchedule (the demo chains)', () => {
  const params = { spacingSeconds: 600, halfLifeSeconds: 600, powLimit: 1n << 240n };

  it('starts at the limit on the first parent it sees, hardens on early blocks, never passes the limit', () => {
    const schedule = new AsertSchedule(params);
    expect(schedule.next({ height: 5, time: 10_000 })).toBe(1n << 240n);
    expect(schedule.next({ height: 6, time: 10_000 })).toBe(1n << 239n);
    expect(schedule.next({ height: 7, time: 10_000 })).toBe(1n << 238n);
    expect(schedule.next({ height: 7, time: 10_000 + 60_000 })).toBe(1n << 240n);
    // Chains by key are apart: another chain starts at the limit.
    expect(schedule.next({ height: 7, time: 10_000 }, 'other')).toBe(1n << 240n);
  });

  it('with the block’s own time, a block later than one interval eases the target; on time it is plain ASERT', () => {
    const schedule = new AsertSchedule(params);
    schedule.next({ height: 5, time: 10_000 });
    const parent = { height: 7, time: 10_000 };
    expect(schedule.next(parent, 0, 10_000 + 600)).toBe(schedule.next(parent));
    expect(schedule.next(parent, 0, 10_000 + 300)).toBe(1n << 238n);
    expect(schedule.next(parent, 0, 10_000 + 600 + 1200)).toBe(1n << 240n);
    expect(schedule.next(parent, 0, 10_000 + 600 + 600)).toBe(1n << 239n);
  });
});

const hex = (bits: number) => `0x${bits.toString(16).padStart(8, '0')}`;
