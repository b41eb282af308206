import type { PoolProfitsResponse } from '@lodestone/contract';
import { fixed } from '@lodestone/domain';

/**
 * The Mining Calculator (docs/website.md, Stats and Profitability), as pure functions so the arithmetic is tested on
 * its own.
 *
 *   revenue = hashrate × 10^factor × (rate ÷ 10^rate factor) × BTC price × (1 − fee ÷ 100)   [USD/day]
 *   costs   = power (W) × 24 ÷ 1000 × energy cost (USD/kWh)                                  [USD/day]
 *   profit  = revenue − costs
 *
 * each converted into the result unit (divided by that unit's US dollar price) and shown for
 * 24 hours, 7 days and 30 days (× 1, × 7, × 30) with 6 decimals.
 *
 * The product writes the unit factors as `1000^factor`; packages/contract defines them as powers of
 * ten of the hashrate units (12 = TH/s). Both read the same whenever the two factors are equal,
 * which is what the server always sends, so the term is 1 and revenue is hashrate × rate in BTC.
 */

export const CALCULATOR_DEFAULTS = {
  hashrate: '0',
  power: '0',
  fee: '1',
  energyCost: '0.16',
  resultUnit: 'btc',
} as const;

/** The BTC price used when the pool has recorded none. */
export const FALLBACK_BTC_PRICE = 100_000;
export const FALLBACK_FIAT_PRICE = 1;

/** Calculator results have 6 decimals. */
export const RESULT_DECIMALS = 6;

export const RESULT_PERIODS = [
  { label: '24 Hours', days: 1 },
  { label: '7 Days', days: 7 },
  { label: '30 Days', days: 30 },
] as const;

/**
 * The Hash Rate units a miner can pick (10^exponent H/s); the field starts in the unit machines of the
 * algorithm report (the answer's calculator_units_factor), so typing a machine's figure just works.
 */
export const HASHRATE_UNIT_CHOICES = [
  { label: 'H/s', exponent: 0 },
  { label: 'KH/s', exponent: 3 },
  { label: 'MH/s', exponent: 6 },
  { label: 'GH/s', exponent: 9 },
  { label: 'TH/s', exponent: 12 },
  { label: 'PH/s', exponent: 15 },
  { label: 'EH/s', exponent: 18 },
] as const;

export interface CalculatorInput {
  /** In the calculator's hashrate unit (e.g. TH/s). */
  hashrate: number;
  /** BTC per day per the profit rate's hashrate unit (e.g. BTC/TH/s). */
  rate: number;
  /** Watts. */
  power: number;
  /** Percent, e.g. 1 for 1%. */
  fee: number;
  /** US dollars per kWh. */
  energyCost: number;
}

export interface CalculatorContext {
  calculatorFactor: number;
  rateFactor: number;
  /** US dollars per BTC. */
  btcPrice: number;
  /** US dollars per one of the result unit (1 for USD, the BTC price for btc). */
  unitPrice: number;
}

export interface PeriodResult {
  label: (typeof RESULT_PERIODS)[number]['label'];
  revenue: number;
  costs: number;
  profit: number;
}

/** Revenue of one day in US dollars. */
export function dailyRevenueUsd(input: CalculatorInput, context: Omit<CalculatorContext, 'unitPrice'>): number {
  // One power of ten for the two factors: 10^12 × x ÷ 10^12 would lose nothing, but 10^(f − rf) never overflows.
  const scale = 10 ** (context.calculatorFactor - context.rateFactor);
  return input.hashrate * scale * input.rate * context.btcPrice * (1 - input.fee / 100);
}

/** Cost of one day of electricity in US dollars. */
export function dailyCostsUsd(input: CalculatorInput): number {
  return ((input.power * 24) / 1000) * input.energyCost;
}

/** Revenue, costs and profit in the result unit for 24 hours, 7 days and 30 days. */
export function calculate(input: CalculatorInput, context: CalculatorContext): PeriodResult[] {
  const revenue = dailyRevenueUsd(input, context) / context.unitPrice;
  const costs = dailyCostsUsd(input) / context.unitPrice;
  return RESULT_PERIODS.map(({ label, days }) => ({
    label,
    revenue: revenue * days,
    costs: costs * days,
    profit: (revenue - costs) * days,
  }));
}

export interface ResultUnit {
  /** What the selector shows and the results are labelled with: `btc`, `ltc`, …, `USD`, `EUR`. */
  id: string;
  /** US dollars per one of this unit. */
  usdPrice: number;
  /** True when the fallback price stands in for one the pool has not recorded. */
  fallback: boolean;
}

/**
 * The price tickers lowercased, then USD and EUR. BTC is always offered (it is the default
 * unit and the revenue's own currency); without a recorded price it and EUR use the fallbacks,
 * which the page says plainly.
 */
export function resultUnits(
  prices: PoolProfitsResponse['prices'],
  fiat: PoolProfitsResponse['fiat_prices'],
): ResultUnit[] {
  const units: ResultUnit[] = [];
  const seen = new Set<string>();
  for (const { ticker, price } of prices) {
    const id = ticker.toLowerCase();
    if (seen.has(id) || !(price > 0)) continue;
    seen.add(id);
    units.push({ id, usdPrice: price, fallback: false });
  }
  if (!seen.has('btc')) units.unshift({ id: 'btc', usdPrice: FALLBACK_BTC_PRICE, fallback: true });
  units.push({ id: 'USD', usdPrice: fiat.USD, fallback: false });
  const eur = fiat.EUR;
  units.push(
    eur !== undefined && eur > 0
      ? { id: 'EUR', usdPrice: eur, fallback: false }
      : { id: 'EUR', usdPrice: FALLBACK_FIAT_PRICE, fallback: true },
  );
  return units;
}

/** The BTC price the revenue is valued at: the recorded one, else the fallback. */
export function btcPriceOf(prices: PoolProfitsResponse['prices']): { price: number; fallback: boolean } {
  const btc = prices.find((p) => p.ticker.toUpperCase() === 'BTC' && p.price > 0);
  return btc ? { price: btc.price, fallback: false } : { price: FALLBACK_BTC_PRICE, fallback: true };
}

export type CalculatorFields = Record<keyof CalculatorInput, string>;
const CALCULATOR_FIELDS = [
  'hashrate',
  'rate',
  'power',
  'fee',
  'energyCost',
] as const satisfies readonly (keyof CalculatorInput)[];

/**
 * The form's text as numbers, or null when any field is empty or not a number (the form's own
 * `required` and `type="number"` stop that before; this is the last guard).
 */
export function parseCalculatorFields(fields: CalculatorFields): CalculatorInput | null {
  const out: Partial<CalculatorInput> = {};
  for (const key of CALCULATOR_FIELDS) {
    const text = fields[key].trim();
    const value = Number(text);
    if (text === '' || !Number.isFinite(value)) return null;
    out[key] = value;
  }
  return out as CalculatorInput;
}

/** A result with 6 decimals and its unit: "0.001188 btc". */
export function formatResult(value: number, unit: string): string {
  return `${fixed(value, RESULT_DECIMALS)} ${unit}`;
}

/** The Rate field's starting text from the API's profit_24h, without exponent notation: 1.2e-7 → "0.00000012". */
export function rateFieldText(rate: number): string {
  if (!Number.isFinite(rate) || rate <= 0) return '0';
  return rate.toFixed(12).replace(/\.?0+$/, '');
}
