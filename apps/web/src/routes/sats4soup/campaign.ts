/**
 * Sats4Soup, the charity campaign (docs/website.md, Lottery and Sats4Soup): 40% of the pool fees earned in September
 * 2025 go, in BTC, to a food-assistance group in Ohio, in two contributions. The data is static.
 * A contribution is 'Sent' once its transaction id is filled in here and 'Pending'
 * until then: the operator adds each id when the transaction is broadcast. No id is made up.
 */

export interface Contribution {
  /** As shown: "15 September 2025". */
  date: string;
  /** The Bitcoin transaction id, or null until it is sent. */
  tx: string | null;
  /** BTC, as text, or null until it is published. */
  amount: string | null;
}

export const CAMPAIGN = {
  feeShare: '40%',
  month: 'September 2025',
  region: 'Ohio',
} as const;

export const CONTRIBUTIONS: readonly Contribution[] = [
  { date: '15 September 2025', tx: null, amount: '0.0461475' },
  { date: '30 September 2025', tx: null, amount: '0.0357209' },
];

/** Impact figures of the campaign. */
export const IMPACT = [
  { value: '1,500+', label: 'meals' },
  { value: '19,300+', label: 'people helped' },
  { value: '$3500', label: 'food value' },
  { value: '200 TH', label: 'hashrate dedicated' },
] as const;

/**
 * Direct donations. Left empty until the operator publishes the group's own Bitcoin address,
 * Lightning link and a QR image of the address (a file under apps/web/public): the page then shows
 * them; until then it says they will be published, rather than showing an address nobody checked.
 */
export const DONATION: { btcAddress: string | null; lightning: string | null; qrImage: string | null } = {
  btcAddress: null,
  lightning: null,
  qrImage: null,
};

/** The public block explorer the page links to. */
export const EXPLORER = 'https://mempool.space';

export type ContributionStatus = 'sent' | 'pending';

export function contributionStatus(c: Contribution): ContributionStatus {
  return c.tx !== null && c.tx.trim() !== '' ? 'sent' : 'pending';
}

/** Progress is the count of contributions with a transaction id out of all of them. */
export function progress(contributions: readonly Contribution[]): {
  done: number;
  total: number;
  text: string;
  percent: number;
} {
  const done = contributions.filter((c) => contributionStatus(c) === 'sent').length;
  const total = contributions.length;
  return {
    done,
    total,
    text: `${done}/${total} completed`,
    percent: total === 0 ? 0 : Math.round((done / total) * 100),
  };
}

export function txUrl(tx: string): string {
  return `${EXPLORER}/tx/${encodeURIComponent(tx.trim())}`;
}

export function addressUrl(address: string): string {
  return `${EXPLORER}/address/${encodeURIComponent(address.trim())}`;
}
