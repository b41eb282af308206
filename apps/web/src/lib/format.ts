import { coinDisplayDecimals, Exact, fixed, formatAmount, formatUnits } from '@lodestone/domain';

// The figures the server also writes (the workers list's search) are the domain's; the dashboard imports them from here.
export {
  ageText,
  formatHashrate,
  hashrateInBaseUnits,
  REJECTED_DECIMALS,
  rejectedPercent,
} from '@lodestone/domain';

/**
 * The dashboard's display rules (docs/website.md, Figures; docs/dashboard.md, The screens), in one place: hashrate 2
 * decimals, estimated revenue 2, price 4 in the animated balances table, lifetime earnings 5, coin amounts at the
 * coin's display precision plus ticker (docs/website.md, "Coin amounts"), rejected-share percent with 2 decimals ('0%'
 * without shares).
 */
export const REVENUE_DECIMALS = 2;
export const BALANCE_PRICE_DECIMALS = 4;
export const LIFETIME_DECIMALS = 5;

/** US dollars with thousands separators: "$1,234.50". */
export function formatUsd(value: number, decimals = REVENUE_DECIMALS): string {
  const safe = Number.isFinite(value) ? value : 0;
  const text = Math.abs(safe).toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
  // "-$0.00" would read as a loss where there is none.
  return safe < 0 && text !== fixed(0, decimals) ? `-$${text}` : `$${text}`;
}

/** A coin price, or a dash when the pool has recorded none. */
export function formatPrice(price: number | null, decimals: number): string {
  return price === null ? '—' : formatUsd(price, decimals);
}

/**
 * Smallest units (integer text, never a float) as a coin amount at the coin's display precision
 * (coinDisplayDecimals: BTC 8, ETH 6, USDC 2, …), cut toward zero; a non-zero amount too small for it
 * reads "< 0.000001", never zero. The API's amounts stay exact; only the screen rounds.
 */
export function coinAmountText(units: string, decimals: number, ticker: string): string {
  return formatUnits(units, decimals, coinDisplayDecimals(ticker, decimals));
}

/** "1.50000000 LTC": a balance, payout or earning amount with its ticker (coinAmountText). */
export function formatCoinAmount(units: string, decimals: number, ticker: string): string {
  return `${coinAmountText(units, decimals, ticker)} ${ticker}`;
}

/** Smallest units as a JavaScript number of coins, for animation and dollar values only — never for money. */
export function unitsToNumber(units: string, decimals: number): number {
  return Exact.fromUnits(BigInt(units), decimals).toNumber();
}

/**
 * The lifetime earnings amount (5 decimals, docs/website.md, Figures), cut toward zero like every money figure; a
 * non-zero amount below 0.00001 reads "< 0.00001".
 */
export function formatLifetime(amount: string): string {
  return formatAmount(amount, LIFETIME_DECIMALS);
}

/**
 * A date or time the API wrote with its offset ("2025-06-15T14:00:00+02:00") or a plain day
 * ("2025-06-15"), shown as written: the server already put it in the miner's time zone, so it is not
 * converted again by the browser.
 */
export function formatApiDate(text: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}))?/.exec(text);
  if (!match) return text;
  return match[2] ? `${match[1]} ${match[2]}` : (match[1] ?? text);
}

/** The browser's IANA time zone (charts and listings are bucketed in the miner's zone). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** A moment as "2025-06-15 14:05" in the browser's own time zone, like the API's dates (formatApiDate). */
export function formatLocalDateTime(time: number): string {
  const date = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
