import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatDailyOdds,
  formatExpectedTime,
  formatSiDifficulty,
  showsSoloPanel,
  soloCreditedText,
} from './solo';

describe('difficulties with SI prefixes', () => {
  it('keeps 3 significant digits in the prefix that suits the value', () => {
    expect(formatSiDifficulty(0)).toBe('0');
    expect(formatSiDifficulty(512)).toBe('512');
    expect(formatSiDifficulty(1.5)).toBe('1.5');
    expect(formatSiDifficulty(1000)).toBe('1 k');
    expect(formatSiDifficulty(1234)).toBe('1.23 k');
    expect(formatSiDifficulty(30_000_000)).toBe('30 M');
    expect(formatSiDifficulty(45_678_901)).toBe('45.7 M');
    expect(formatSiDifficulty(2.1e12)).toBe('2.1 T');
    expect(formatSiDifficulty(126.98e12)).toBe('127 T');
    expect(formatSiDifficulty(3.3e18)).toBe('3.3 E');
  });

  it('writes the demo chains’ easy difficulties below 1 with 3 significant digits', () => {
    expect(formatSiDifficulty(0.000244140625)).toBe('0.000244');
  });

  it('moves to the next prefix when rounding reaches a thousand', () => {
    expect(formatSiDifficulty(999.7)).toBe('1 k');
    expect(formatSiDifficulty(999_700)).toBe('1 M');
    expect(formatSiDifficulty(999_400)).toBe('999 k');
  });

  it('writes a dash for what is not a difficulty', () => {
    expect(formatSiDifficulty(Number.NaN)).toBe('—');
    expect(formatSiDifficulty(-1)).toBe('—');
  });
});

describe('large counts', () => {
  it('one decimal below 10, whole with separators below a million', () => {
    expect(formatCount(4.54)).toBe('4.5');
    expect(formatCount(9.96)).toBe('10');
    expect(formatCount(45.3)).toBe('45');
    expect(formatCount(123_456.4)).toBe('123,456');
  });

  it('in words from a million, 3 significant digits', () => {
    expect(formatCount(999_999.6)).toBe('1 million');
    expect(formatCount(5_965_232.86)).toBe('5.97 million');
    expect(formatCount(12_345_678_901)).toBe('12.3 billion');
    expect(formatCount(999_600_000_000)).toBe('1 trillion');
    expect(formatCount(4.2e15)).toBe('4.2 quadrillion');
  });

  it('as a power of ten from a thousand quadrillion', () => {
    expect(formatCount(999.6e15)).toBe('1\u00a0×\u00a010¹⁸');
    expect(formatCount(5.004e18)).toBe('5\u00a0×\u00a010¹⁸');
    expect(formatCount(1.234e21)).toBe('1.23\u00a0×\u00a010²¹');
  });

  it('says what cannot be counted', () => {
    expect(formatCount(Number.POSITIVE_INFINITY)).toBe('∞');
    expect(formatCount(Number.NaN)).toBe('—');
  });
});

describe('the daily odds', () => {
  it('reads "1 in N days" below 1 %', () => {
    // 1 TH/s on a SHA256 chain of difficulty 120 T (docs/research/solo-mining.md, §2).
    const pDay = -Math.expm1(-(1e12 * 86_400) / (120e12 * 2 ** 32));
    expect(formatDailyOdds(pDay)).toBe('1 in 5.97 million days');
    expect(formatDailyOdds(1 / 250)).toBe('1 in 250 days');
    expect(formatDailyOdds(0.009_99)).toBe('1 in 100 days');
  });

  it('reads a percent a day from 1 %', () => {
    expect(formatDailyOdds(0.01)).toBe('1.0% a day');
    expect(formatDailyOdds(1 - Math.exp(-1))).toBe('63.2% a day');
    expect(formatDailyOdds(0.9994)).toBe('99.9% a day');
  });

  it('never promises a certainty', () => {
    expect(formatDailyOdds(0.9996)).toBe('> 99.9% a day');
    expect(formatDailyOdds(1)).toBe('> 99.9% a day');
  });

  it('reads "None" at no hashrate', () => {
    expect(formatDailyOdds(0)).toBe('None');
  });
});

describe('the expected time to a block', () => {
  it('in the unit that suits it', () => {
    expect(formatExpectedTime(0.4)).toBe('< 1 s');
    expect(formatExpectedTime(45.4)).toBe('45 s');
    expect(formatExpectedTime(12 * 60 + 10)).toBe('12 min');
    expect(formatExpectedTime(5.5 * 3600)).toBe('5.5 h');
    expect(formatExpectedTime(4.5 * 86_400)).toBe('4.5 days');
    expect(formatExpectedTime(45 * 86_400)).toBe('45 days');
    expect(formatExpectedTime(16_356 * 31_557_600)).toBe('16,356 years');
    expect(formatExpectedTime(5.97e6 * 31_557_600)).toBe('5.97 million years');
  });

  it('a dash at no hashrate', () => {
    expect(formatExpectedTime(null)).toBe('—');
  });
});

describe('solo blocks', () => {
  it('what was credited, or that it comes at maturity', () => {
    expect(soloCreditedText({ credited: '6.1875', status: 'confirmed', coin: 'LTC' })).toBe('6.18750000 LTC');
    expect(soloCreditedText({ credited: null, status: 'pending', coin: 'LTC' })).toBe('On maturity');
    expect(soloCreditedText({ credited: null, status: 'orphaned', coin: 'LTC' })).toBe('—');
    expect(soloCreditedText({ credited: null, status: 'confirmed', coin: 'LTC' })).toBe('—');
  });
});

describe('when the Mining tab shows the panel', () => {
  const none = { workers: [], blocks: [] };
  it('with solo workers', () => {
    expect(showsSoloPanel({ workers: [{} as never], blocks: [] })).toBe(true);
  });

  it('with solo blocks of workers since removed', () => {
    expect(showsSoloPanel({ workers: [], blocks: [{} as never] })).toBe(true);
  });

  it('not for an account that never mined solo, nor before the answer is in', () => {
    expect(showsSoloPanel(none)).toBe(false);
    expect(showsSoloPanel(undefined)).toBe(false);
  });
});
