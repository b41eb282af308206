import { describe, expect, it } from 'vitest';
import { Exact } from './exact.js';
import { averageFeePerBlock, blockValue, feeDay, feeShare, type NetworkBlockFees } from './fpps.js';
import { shareValue } from './pps.js';

const at = new Date('2026-11-30T12:00:00Z');
const block = (height: number, time: string, totalFees: bigint): NetworkBlockFees => ({
  height,
  time: new Date(time),
  totalFees,
});

// A Litecoin-sized case worked by hand: 6.25 LTC subsidy (625,000,000 litoshi), three blocks in the day.
const blocks = [
  block(100, '2026-11-29T11:59:59Z', 9_999n), // before the day
  block(101, '2026-11-29T12:00:00Z', 7_777n), // its first instant: the day is (at − 24 h, at]
  block(102, '2026-11-29T12:00:01Z', 1_000n),
  block(103, '2026-11-30T06:00:00Z', 2_500n),
  block(104, '2026-11-30T12:00:00Z', 0n), // its last instant: in
  block(105, '2026-11-30T12:00:01Z', 5_555n), // after `at`
];

describe('feeDay', () => {
  it('takes the blocks stamped in the 24 hours up to the instant, ends as the bounds say', () => {
    expect(feeDay(blocks, at)).toEqual({
      from: new Date('2026-11-29T12:00:00Z'),
      to: at,
      blocks: 3,
      firstHeight: 102,
      lastHeight: 104,
      totalFees: 3_500n,
    });
  });

  it('knows nothing of a day without blocks, rather than calling it zero fees', () => {
    expect(feeDay(blocks, new Date('2026-12-05T00:00:00Z'))).toBeUndefined();
  });

  it('refuses a height counted twice and negative fees', () => {
    expect(() => feeDay([block(1, '2026-11-30T01:00:00Z', 1n), block(1, '2026-11-30T02:00:00Z', 2n)], at)).toThrow(
      /twice/,
    );
    expect(() => feeDay([block(1, '2026-11-30T01:00:00Z', -1n)], at)).toThrow(/negative/);
  });
});

describe('averageFeePerBlock', () => {
  it('divides the day’s fees by its blocks, 18 decimals toward zero', () => {
    expect(averageFeePerBlock({ blocks: 3, totalFees: 3_500n }).toString()).toBe('1166.666666666666666666');
    expect(() => averageFeePerBlock({ blocks: 0, totalFees: 0n })).toThrow(RangeError);
  });
});

describe('blockValue', () => {
  const template = { reward: 625_012_345n, fees: 12_345n };
  const day = { blocks: 3, totalFees: 3_500n };

  it('PPS pays the template’s coinbase value, its fees part as the template gave them', () => {
    expect(blockValue('pps', template, day)).toEqual({
      value: { scheme: 'pps', value: Exact.of(625_012_345n), fees: Exact.of(12_345n) },
    });
    expect(blockValue('pps', { reward: 5n }, day).value.fees).toBeUndefined();
  });

  it('FPPS pays the subsidy plus the day’s average fee per block (hand-computed)', () => {
    const { value, fallback } = blockValue('fpps', template, day);
    expect(fallback).toBeUndefined();
    expect(value.scheme).toBe('fpps');
    // 625,012,345 − 12,345 = 625,000,000 subsidy; + 3,500 ÷ 3 fees.
    expect(value.value.toString()).toBe('625001166.666666666666666666');
    expect(value.fees?.toString()).toBe('1166.666666666666666666');
    // 1,000 of difficulty at a network difficulty of 25,000,000: 1 ÷ 25,000 of that block.
    expect(shareValue(1000, value.value, '25000000').toString()).toBe('25000.046666666666666666');
  });

  it('falls back to PPS with its reason when FPPS lacks the template’s fees or a fee day', () => {
    expect(blockValue('fpps', { reward: 100n }, day)).toEqual({
      value: { scheme: 'pps', value: Exact.of(100n), fees: undefined },
      fallback: "the template did not give every transaction's fee",
    });
    expect(blockValue('fpps', template, undefined)).toEqual({
      value: { scheme: 'pps', value: Exact.of(625_012_345n), fees: Exact.of(12_345n) },
      fallback: 'no fee day of the network is known',
    });
  });

  it('refuses template fees that are not part of the reward', () => {
    expect(() => blockValue('pps', { reward: 10n, fees: 11n }, day)).toThrow(RangeError);
    expect(() => blockValue('pps', { reward: 10n, fees: -1n }, day)).toThrow(RangeError);
  });
});

describe('feeShare', () => {
  it('is the fee part of a block value, 18 decimals toward zero; unknown without fees', () => {
    // 15,150 of 5,000,015,150 (fpps.db.test.ts's block): 0.000003029990819127…
    expect(feeShare({ value: Exact.of(5_000_015_150n), fees: Exact.of(15_150n) })?.toString()).toBe(
      '0.000003029990819127',
    );
    expect(feeShare({ value: Exact.of(100n), fees: undefined })).toBeUndefined();
    expect(feeShare({ value: Exact.ZERO, fees: Exact.ZERO })).toBeUndefined();
  });
});
