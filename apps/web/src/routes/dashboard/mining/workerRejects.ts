import { fixed } from '@lodestone/domain';
import { REJECTED_DECIMALS } from '../../../lib/format';

/**
 * One worker's refused shares of the last 24 hours by reason, in words (docs/dashboard.md, Workers: "One worker's
 * refusals"). The stratum node names a reason in a short code; a miner reads what went wrong.
 */
const REASON_TEXT: Record<string, string> = {
  stale: 'Stale',
  duplicate: 'Duplicate',
  'low-difficulty': 'Low difficulty',
  'job-not-found': 'Job not found',
  'ntime-out-of-range': 'Time out of range',
  'bad-nonce': 'Bad nonce',
  'bad-extranonce2': 'Bad extranonce',
  'bad-version-bits': 'Bad version bits',
};

/** A reason in words; one the site does not know yet reads as its code with spaces ("new-reason" → "New reason"). */
export function rejectReasonText(reason: string): string {
  const known = REASON_TEXT[reason];
  if (known) return known;
  const words = reason.replace(/[-_]+/g, ' ').trim();
  return words === '' ? reason : words.charAt(0).toUpperCase() + words.slice(1);
}

/** `part` of `total` as a percent with 2 decimals, like the table's Rejected Shares; "0%" of nothing. */
export function percentOf(part: number, total: number): string {
  if (!(total > 0)) return '0%';
  return `${fixed((part / total) * 100, REJECTED_DECIMALS)}%`;
}

export interface RejectLine {
  reason: string;
  text: string;
  count: number;
  /** Of all the worker's shares of the 24 hours. */
  percent: string;
}

export interface RejectBreakdown {
  lines: RejectLine[];
  refused: number;
  /** Accepted + refused: every share the worker sent in the 24 hours. */
  total: number;
  /** Refused ÷ all shares. */
  rate: string;
}

/**
 * The reasons, most frequent first (ties by code, so the order never jumps on refresh), each and all together as a
 * part of every share the worker sent: `accepted` is its accepted shares of the 24 hours from the workers list.
 */
export function rejectBreakdown(rejects: Readonly<Record<string, number>>, accepted: number): RejectBreakdown {
  const entries = Object.entries(rejects).filter(([, count]) => count > 0);
  const refused = entries.reduce((sum, [, count]) => sum + count, 0);
  const total = accepted + refused;
  const lines = entries
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([reason, count]) => ({ reason, text: rejectReasonText(reason), count, percent: percentOf(count, total) }));
  return { lines, refused, total, rate: percentOf(refused, total) };
}
