import type { SoloBlock, SoloResponse } from '@lodestone/contract';
import { fixed } from '@lodestone/domain';
import { formatBlockReward } from '../../../lib/network';

/**
 * The solo panel's rules (docs/dashboard.md, Solo mining). Every figure is the API's (`soloResponse`): the page only
 * writes them. A solo miner's odds span twenty orders of magnitude (a Bitaxe on Bitcoin, a CPU on the demo chain), so
 * large counts are written in words ("5.97 million") and beyond a quadrillion as a power of ten, and difficulties with
 * SI prefixes ("1.23 M"), the way miners' own screens write them.
 */

const SI_PREFIXES = ['', 'k', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y'] as const;
/** Significant digits of a difficulty and of a large count. */
const SIGNIFICANT = 3;

const significant = (value: number) => value.toLocaleString('en-US', { maximumSignificantDigits: SIGNIFICANT });

/**
 * A share or block difficulty with an SI prefix and 3 significant digits: "512", "1.23 k", "45.6 M", "2.1 T"; below
 * 1 (the demo chains' easy blocks) "0.000244". 999.7 k reads "1 M", never "1,000 k".
 */
export function formatSiDifficulty(value: number): string {
  if (!Number.isFinite(value) || value < 0) return '—';
  const last = SI_PREFIXES.length - 1;
  let step = 0;
  while (step < last && value >= 1000 ** (step + 1)) step += 1;
  let scaled = Number((value / 1000 ** step).toPrecision(SIGNIFICANT));
  if (scaled >= 1000 && step < last) {
    step += 1;
    scaled = Number((value / 1000 ** step).toPrecision(SIGNIFICANT));
  }
  const digits = significant(scaled);
  return step === 0 ? digits : `${digits} ${SI_PREFIXES[step]}`;
}

/** Counts from a million are written in words, smallest first. */
const LARGE_WORDS = [
  { size: 1e6, word: 'million' },
  { size: 1e9, word: 'billion' },
  { size: 1e12, word: 'trillion' },
  { size: 1e15, word: 'quadrillion' },
] as const;

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** "10¹⁸" */
function powerOfTen(exponent: number): string {
  const digits = String(Math.abs(exponent))
    .split('')
    .map((d) => SUPERSCRIPT[Number(d)])
    .join('');
  return `10${exponent < 0 ? '⁻' : ''}${digits}`;
}

/**
 * A count of days or years: below 10 with one decimal ("4.5"), then whole with separators ("12,345"), from a million
 * in words with 3 significant digits ("5.97 million"), from a thousand quadrillion as a power of ten
 * ("1.23 × 10¹⁸", with no-break spaces).
 */
export function formatCount(value: number): string {
  if (Number.isNaN(value) || value < 0) return '—';
  if (!Number.isFinite(value)) return '∞';
  if (value < 10 && Number(fixed(value, 1)) < 10) return fixed(value, 1);
  if (Math.round(value) < 1e6) return Math.round(value).toLocaleString('en-US');
  // From 999,999.5 (which rounds to a million); 999.6 billion reads "1 trillion", 999.6 quadrillion a power of ten.
  let index = Math.max(
    0,
    LARGE_WORDS.findLastIndex((w) => value >= w.size),
  );
  const scaled = (size: number) => Number((value / size).toPrecision(SIGNIFICANT));
  if (scaled(LARGE_WORDS[index]?.size ?? 1) >= 1000) index += 1;
  const words = LARGE_WORDS[index];
  if (words) return `${significant(scaled(words.size))} ${words.word}`;
  let exponent = Math.floor(Math.log10(value));
  let mantissa = Number((value / 10 ** exponent).toPrecision(SIGNIFICANT));
  if (mantissa >= 10) {
    exponent += 1;
    mantissa = Number((value / 10 ** exponent).toPrecision(SIGNIFICANT));
  }
  // No-break spaces: the figure is one word wherever a card wraps its line.
  return `${significant(mantissa)}\u00a0×\u00a0${powerOfTen(exponent)}`;
}

/** Below this daily chance, the odds read "1 in N days"; from it, a percent. */
const ODDS_AS_PERCENT_FROM = 0.01;

/**
 * The chance of at least one block in a day (0–1): "1 in 5.97 million days" while it is below 1 %, then "63.2% a
 * day" (1 decimal, like every percent of a block's effort); "> 99.9% a day" when that would round up to a certainty;
 * "None" at no hashrate.
 */
export function formatDailyOdds(pDay: number): string {
  if (!Number.isFinite(pDay) || pDay <= 0) return 'None';
  if (pDay < ODDS_AS_PERCENT_FROM) return `1 in ${formatCount(1 / pDay)} days`;
  const percent = fixed(pDay * 100, 1);
  if (Number(percent) >= 100) return '> 99.9% a day';
  return `${percent}% a day`;
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;
/** A Julian year, 365.25 days. */
const YEAR = 31_557_600;

/**
 * The mean time to a block (seconds): "45 s", "12 min", "5.5 h" below two days, "4.5 days" or "45 days" below two
 * years, then "16,356 years", "5.97 million years"; "—" without one (no hashrate).
 */
export function formatExpectedTime(seconds: number | null): string {
  if (seconds === null || Number.isNaN(seconds) || seconds < 0) return '—';
  if (seconds < 1) return '< 1 s';
  if (seconds < 2 * MINUTE) return `${Math.round(seconds)} s`;
  if (seconds < 2 * HOUR) return `${Math.round(seconds / MINUTE)} min`;
  if (seconds < 2 * DAY) return `${fixed(seconds / HOUR, 1)} h`;
  if (seconds < 2 * YEAR) return `${formatCount(seconds / DAY)} days`;
  return `${formatCount(seconds / YEAR)} years`;
}

/**
 * What a solo block brought the account: the amount credited at maturity (its reward less the solo fee), "On maturity"
 * while it is pending, "—" for an orphaned block (nothing) or a matured one that was not credited.
 */
export function soloCreditedText(block: Pick<SoloBlock, 'credited' | 'status' | 'coin'>): string {
  if (block.credited !== null) return formatBlockReward(block.credited, block.coin);
  return block.status === 'pending' ? 'On maturity' : '—';
}

/**
 * Whether the Mining tab shows the solo panel: the panel's answer has solo workers, or solo blocks (a removed solo
 * worker's blocks stay the account's). It waits for that answer rather than read the whole workers list, which the
 * table no longer does.
 */
export function showsSoloPanel(solo: Pick<SoloResponse, 'workers' | 'blocks'> | undefined): boolean {
  return solo !== undefined && (solo.workers.length > 0 || solo.blocks.length > 0);
}
