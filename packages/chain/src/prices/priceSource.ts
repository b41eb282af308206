import { plainDecimal } from '@lodestone/domain';

/**
 * Prices in US dollars: coin tickers ('BTC', 'LTC', …) and fiat ('EUR' = USD per 1 EUR; 'USD' is always 1).
 * Values are exact decimal strings ("64123.5"), never floats: they end up in NUMERIC columns and in the
 * PPS conversion between coins, where a float would round.
 */
export interface PriceQuote {
  ticker: string;
  usd: string;
}

export interface PriceSnapshot {
  source: string;
  takenAt: Date;
  quotes: PriceQuote[];
}

export interface PriceSource {
  readonly name: string;
  fetch(): Promise<PriceSnapshot>;
}

/** A price feed that cannot be built from its settings, or that did not deliver a full, sane snapshot. */
export class PriceFeedError extends Error {
  override readonly name = 'PriceFeedError';
}

/** Every snapshot carries the dollar itself, so a consumer converts to USD and EUR the same way. */
export const USD_QUOTE: Readonly<PriceQuote> = Object.freeze({ ticker: 'USD', usd: '1' });

/** Fiat currencies a source can quote besides USD. */
export const SUPPORTED_FIAT = ['EUR'] as const;
export type Fiat = (typeof SUPPORTED_FIAT)[number];

/** Upper-case letters and digits, starting with a letter: 'BTC', 'USDC', 'BEL'. */
const TICKER = /^[A-Z][A-Z0-9]{1,11}$/;

/** Refuses ticker spellings that would make two settings look different for the same coin ('btc' vs 'BTC'). */
export function checkTicker(ticker: string, where: string): void {
  if (!TICKER.test(ticker)) {
    throw new PriceFeedError(`${where}: ticker ${JSON.stringify(ticker)} must be upper-case letters and digits`);
  }
  if (ticker === 'USD' || ticker === 'EUR') {
    throw new PriceFeedError(`${where}: ${ticker} is a fiat currency, not a coin ticker`);
  }
}

/**
 * A price as a canonical plain decimal string ("064.50" → "64.5", "1.5e-5" → "0.000015"), or a
 * PriceFeedError saying why it is not a positive decimal. Numbers are read through their shortest
 * round-trip text, which is what an operator wrote in a config file; exponent forms are expanded exactly.
 */
export function positiveDecimal(value: string | number, what: string): string {
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new PriceFeedError(`${what} is not a number: ${describe(value)}`);
  }
  const text = typeof value === 'number' ? String(value) : value.trim();
  // Bounded exponent: a price of 1e400 is a broken feed, and expanding it would build a huge string.
  const exponent = /e([+-]?\d+)$/i.exec(text);
  if (exponent && Math.abs(Number(exponent[1])) > 60) {
    throw new PriceFeedError(`${what} is out of range: ${text}`);
  }
  let plain: string;
  try {
    plain = plainDecimal(text);
  } catch {
    throw new PriceFeedError(`${what} is not a positive decimal: ${describe(value)}`);
  }
  if (plain === '0') throw new PriceFeedError(`${what} is not a positive decimal: ${describe(value)}`);
  return plain;
}

function describe(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

interface Scaled {
  /** value = n / 10^scale, n ≥ 0 */
  n: bigint;
  scale: number;
}

function toScaled(plain: string): Scaled {
  const [whole = '0', fraction = ''] = plain.split('.');
  return { n: BigInt(whole + fraction), scale: fraction.length };
}

/**
 * numerator ÷ denominator (positive plain decimals) rounded half-up to `significant` significant digits,
 * exactly: both operands become integers over powers of ten and the division is one bigint division, so
 * no digit is lost to binary floating point on the way.
 */
export function divideDecimals(numerator: string, denominator: string, significant = 12): string {
  const a = toScaled(numerator);
  const b = toScaled(denominator);
  if (b.n === 0n) throw new RangeError('division by zero');
  if (a.n === 0n) return '0';
  // a / b = (a.n · 10^b.scale) / (b.n · 10^a.scale)
  const num = a.n * 10n ** BigInt(b.scale);
  const den = b.n * 10n ** BigInt(a.scale);
  // Choose the power of ten p so that num · 10^p / den has exactly `significant` integer digits.
  let p = significant - (num.toString().length - den.toString().length) - 1;
  const low = 10n ** BigInt(significant - 1);
  const high = low * 10n;
  for (;;) {
    const [q] = divideScaled(num, den, p);
    if (q >= high) p -= 1;
    else if (q < low) p += 1;
    else break;
  }
  const [q, remainder, divisor] = divideScaled(num, den, p);
  const rounded = remainder * 2n >= divisor ? q + 1n : q;
  return formatScaled(rounded, p);
}

/** floor(num · 10^p / den) with its remainder and the divisor the remainder is relative to. */
function divideScaled(num: bigint, den: bigint, p: number): [bigint, bigint, bigint] {
  const n = p >= 0 ? num * 10n ** BigInt(p) : num;
  const d = p >= 0 ? den : den * 10n ** BigInt(-p);
  return [n / d, n % d, d];
}

/** value · 10^-p as a plain decimal string without trailing zeros. */
function formatScaled(value: bigint, p: number): string {
  if (p <= 0) return (value * 10n ** BigInt(-p)).toString();
  const digits = value.toString().padStart(p + 1, '0');
  const whole = digits.slice(0, digits.length - p);
  const fraction = digits.slice(digits.length - p).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}
