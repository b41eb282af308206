import type { BlocksResponse } from '@lodestone/contract';
import { fixed } from '@lodestone/domain';
import { EFFORT_DECIMALS, formatRatioPercent } from '../../lib/network';

/**
 * The Blocks page's rules (docs/website.md, Blocks): effort and luck are ratios from the API (1 = 100 %), shown as
 * percents with 1 decimal; an effort below 100 % is lucky (the block took less work than expected), above it
 * unlucky; luck reads the other way round (above 100 %, more blocks than the work should have found).
 */
/** The largest page the API takes (the contract's page number). */
const MAX_PAGE = 1_000_000;

export type Tone = 'lucky' | 'unlucky' | 'even';

/** How an effort reads, by the figure as shown (so 99.96 %, shown as 100.0 %, is even). */
export function effortTone(effort: number | null): Tone | null {
  if (effort === null || !Number.isFinite(effort)) return null;
  const shown = Number(fixed(effort * 100, EFFORT_DECIMALS));
  return shown < 100 ? 'lucky' : shown > 100 ? 'unlucky' : 'even';
}

/** How a luck figure reads: above 100 % the pool found more blocks than its work should have. */
export function luckTone(luck: number | null): Tone | null {
  if (luck === null || !Number.isFinite(luck)) return null;
  const shown = Number(fixed(luck * 100, EFFORT_DECIMALS));
  return shown > 100 ? 'lucky' : shown < 100 ? 'unlucky' : 'even';
}

export interface LuckRow {
  period: string;
  luck: string;
  luckTone: Tone | null;
  effort: string;
  effortTone: Tone | null;
  blocks: string;
}

const LUCK_PERIODS = [
  { key: 'h24', label: '24 hours' },
  { key: 'd7', label: '7 days' },
  { key: 'd30', label: '30 days' },
] as const;

/** The luck table: one row per period, newest first; a period without blocks reads '—'. */
export function luckRows(luck: BlocksResponse['luck']): LuckRow[] {
  return LUCK_PERIODS.map(({ key, label }) => {
    const figures = luck[key];
    return {
      period: label,
      luck: formatRatioPercent(figures.luck),
      luckTone: luckTone(figures.luck),
      effort: formatRatioPercent(figures.effort),
      effortTone: effortTone(figures.effort),
      blocks: figures.blocks.toLocaleString('en-US'),
    };
  });
}

/** `?page=` as a page number: a whole number from 1; anything else is the first page. */
export function pageFromSearch(text: string | null): number {
  if (text === null || !/^\s*\d+\s*$/.test(text)) return 1;
  return Math.min(Math.max(1, Number(text)), MAX_PAGE);
}

/** `?coin=` as the API takes it (upper case), or undefined for the algorithm's own coin. */
export function coinFromSearch(text: string | null): string | undefined {
  const coin = text?.trim().toUpperCase();
  return coin ? coin : undefined;
}

/** The page's query string: `?coin=DOGE&page=2`; the first page is left out. */
export function blocksSearch(coin: string | undefined, page: number): string {
  const search = new URLSearchParams();
  if (coin) search.set('coin', coin);
  if (page > 1) search.set('page', String(page));
  const text = search.toString();
  return text ? `?${text}` : '';
}
