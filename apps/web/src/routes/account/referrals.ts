import type { ReferralsResponse } from '@lodestone/contract';
import { algorithmByKey } from '@lodestone/domain';

/** Page size of the referral list (docs/website.md, Lists, refresh and copying). */
export const REFERRALS_PAGE_SIZE = 10;

export type Referral = ReferralsResponse['referals'][number];

/** "SHA256 1.25 Th/s" — one hashrate of a referred account, as the table shows it. */
export function formatReferralHashrate(h: { algorithm: string; hashrate: number; units: string }): string {
  const name = algorithmByKey(h.algorithm)?.name ?? h.algorithm.toUpperCase();
  return `${name} ${h.hashrate.toFixed(2)} ${h.units}`;
}

/**
 * Client-side search: a row matches when the query, trimmed and lower-cased, is
 * contained in its username, its revenue or any of its hashrates as shown. An empty query keeps all.
 */
export function filterReferrals(rows: readonly Referral[], query: string): Referral[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [...rows];
  return rows.filter((row) =>
    [row.username, row.revenue, ...row.hashrates.map(formatReferralHashrate)].some((text) =>
      text.toLowerCase().includes(needle),
    ),
  );
}
