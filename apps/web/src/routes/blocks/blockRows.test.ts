import { describe, expect, it } from 'vitest';
import { blocksSearch, coinFromSearch, effortTone, luckRows, luckTone, pageFromSearch } from './blockRows';

describe('effort and luck figures', () => {
  it('read an effort below 100% as lucky and above as unlucky, by the figure as shown', () => {
    expect(effortTone(0.5)).toBe('lucky');
    expect(effortTone(1.5)).toBe('unlucky');
    expect(effortTone(1)).toBe('even');
    // 99.96% is shown as 100.0%: neither colour.
    expect(effortTone(0.9996)).toBe('even');
    expect(effortTone(0.9994)).toBe('lucky');
    expect(effortTone(null)).toBeNull();
  });

  it('read luck the other way round: above 100% is lucky', () => {
    expect(luckTone(2)).toBe('lucky');
    expect(luckTone(0.5)).toBe('unlucky');
    expect(luckTone(1.0004)).toBe('even');
    expect(luckTone(null)).toBeNull();
  });

  it('give one luck row per period, newest first, with dashes for a period without blocks', () => {
    const rows = luckRows({
      h24: { blocks: 0, effort: null, luck: null },
      d7: { blocks: 2, effort: 0.75, luck: 4 / 3 },
      d30: { blocks: 1234, effort: 1.25, luck: 0.8 },
    });
    expect(rows).toEqual([
      { period: '24 hours', luck: '—', luckTone: null, effort: '—', effortTone: null, blocks: '0' },
      { period: '7 days', luck: '133.3%', luckTone: 'lucky', effort: '75.0%', effortTone: 'lucky', blocks: '2' },
      {
        period: '30 days',
        luck: '80.0%',
        luckTone: 'unlucky',
        effort: '125.0%',
        effortTone: 'unlucky',
        blocks: '1,234',
      },
    ]);
  });
});

describe('the address of a chain and page', () => {
  it('reads ?page= as a whole page number from 1', () => {
    expect(pageFromSearch('3')).toBe(3);
    expect(pageFromSearch(null)).toBe(1);
    expect(pageFromSearch('0')).toBe(1);
    expect(pageFromSearch('-2')).toBe(1);
    expect(pageFromSearch('2.5')).toBe(1);
    expect(pageFromSearch('abc')).toBe(1);
    expect(pageFromSearch('99999999')).toBe(1_000_000);
  });

  it('reads ?coin= as a ticker in upper case, or none', () => {
    expect(coinFromSearch('doge')).toBe('DOGE');
    expect(coinFromSearch(' LTC ')).toBe('LTC');
    expect(coinFromSearch('')).toBeUndefined();
    expect(coinFromSearch(null)).toBeUndefined();
  });

  it('writes the chain and page, leaving the first page out', () => {
    expect(blocksSearch('DOGE', 1)).toBe('?coin=DOGE');
    expect(blocksSearch('DOGE', 2)).toBe('?coin=DOGE&page=2');
    expect(blocksSearch(undefined, 3)).toBe('?page=3');
    expect(blocksSearch(undefined, 1)).toBe('');
  });
});
