import { ALGORITHM_KEYS, type AlgorithmKey } from '@lodestone/domain';
import { z } from 'zod';
import { captchaToken } from './account.js';
import { algorithmKey } from './common.js';
import { miningSummaryResponse, miningWorker } from './mining.js';
import { CHART_PERIODS, type ChartPeriod, chartPeriod, chartQuery } from './pool.js';
import { VIP_DIAL_CODES, VIP_MESSAGES } from './vip.js';

/**
 * The public website's calls and the public API: profitability, the FAQ's pool fees, signature
 * verification, Home's VIP application and the API docs' three calls. docs/public-api.md says
 * where every figure comes from.
 *
 * Number conventions: profitability figures are BTC per day per the unit they name (BTC/TH/s, a JSON
 * number for display); prices are US dollars per unit of the ticker (JSON numbers); coin amounts are
 * exact decimal text ("0.0015"), smallest-unit amounts integer text with the coin's decimals beside
 * them, as in the money calls (docs/money.md).
 */

function perAlgorithm<T extends z.ZodType>(schema: T) {
  return z.object(Object.fromEntries(ALGORITHM_KEYS.map((k) => [k, schema])) as Record<AlgorithmKey, T>);
}

/** Smallest units as integer text (never a float). */
const smallestUnits = z.string().regex(/^\d+$/);
/** A coin amount as exact decimal text, e.g. "0.0015". */
const coinAmount = z.string().regex(/^\d+(\.\d+)?$/);

// ── profitability (the Profitability page and its calculator) ──────────────────────────────────

/**
 * Path of the profitability calls: the algorithm's key (`scrypt`), name (`SCRYPT`, any case) or
 * index in the usual order (0 = SCRYPT … 5 = KHEAVYHASH). Anything else is 404.
 */
export const profitAlgorithmParams = z.object({ algorithm: z.string().min(1).max(32) });

/** The periods of the comparison tables and of the average-profit chart. */
export const PROFIT_PERIODS = CHART_PERIODS;
export type ProfitPeriod = ChartPeriod;
export const profitPeriod = chartPeriod;

/**
 * One comparison row, five values in this order (docs/public-api.md, Profitability): pool name, pool URL, profitability
 * (BTC per day per the unit of the fourth value), that unit (`BTC/TH/s`), and the percent difference of this row's
 * profitability from ours: (row − ours) ÷ ours × 100, rounded to 0.1 — positive when the row's pool pays more than we
 * do, negative when it pays less, 0 on our own row; null when we have no profitability for the period (nothing to
 * compare with).
 */
export const comparisonRow = z.tuple([
  z.string(),
  z.string(),
  z.number().nonnegative(),
  z.string(),
  z.number().nullable(),
]);
export type ComparisonRow = z.infer<typeof comparisonRow>;
/** Our own row plus one per other pool with a figure for the period, most profitable first. */
export const comparisonTable = z.array(comparisonRow);

/** Sample comparison rows for the documentation. */
const exampleRows = (ours: number, units: string): ComparisonRow[] => [
  ['Other Pool', 'https://pool.example.org', ours * 1.021, units, 2.1],
  ['Lodestone', 'https://lodestone.example', ours, units, 0],
  ['Third Pool', 'https://third.example.net', ours * 0.95, units, -5],
];

export const tickerPrice = z.object({
  ticker: z.string(),
  /** US dollars per coin. */
  price: z.number().positive(),
});
export type TickerPrice = z.infer<typeof tickerPrice>;

/**
 * GET /v1/pool/profits/{algorithm} (docs/public-api.md, Profitability): the comparison tables of the last
 * 24 hours, 7 days and 30 days, and what the Mining Calculator needs.
 *
 * Calculator (docs/website.md, Stats and Profitability): the two factors are powers of ten of the hashrate units, and
 * always equal (12 = tera for SCRYPT, EAGLESONG, BLAKE2S and X11; 15 = peta for SHA256 and KHEAVYHASH), so the
 * product's `hashrate × 1000^factor × rate ÷ 1000^rate factor` reduces to `hashrate × rate`: Hash Rate is entered in
 * `calculator_units` (TH/s) and Rate in `profit_rate_units` (BTC/TH/s per day). A value in US dollars becomes a value
 * in a result unit by dividing by that unit's US dollar price: `prices` for coins, `fiat_prices` for USD (1) and EUR
 * (US dollars per euro, e.g. 1.08).
 */
export const poolProfitsResponse = z
  .object({
    profit_table_24h: comparisonTable,
    profit_table_7d: comparisonTable,
    profit_table_30d: comparisonTable,
    /** Power of ten of the calculator's hashrate unit (12 → TH/s). */
    calculator_units_factor: z.number().int(),
    /** Power of ten of the hashrate in the profit rate's unit (12 → BTC/TH/s); equals calculator_units_factor. */
    profit_rate_units_factor: z.number().int(),
    /** The calculator's hashrate unit, e.g. `TH/s`. */
    calculator_units: z.string(),
    /** The profit rate's unit, e.g. `BTC/TH/s` (BTC per day per TH/s). */
    profit_rate_units: z.string(),
    /** US dollars per coin, catalogue order, coins with a recorded price only. */
    prices: z.array(tickerPrice),
    /** US dollars per unit of the currency: USD is 1; EUR is left out while no euro rate was recorded. */
    fiat_prices: z.object({ USD: z.literal(1), EUR: z.number().positive().optional() }),
    /** Our profitability over the last 24 hours in profit_rate_units: the calculator's default Rate. */
    profit_24h: z.number().nonnegative(),
  })
  .meta({
    examples: [
      {
        profit_table_24h: exampleRows(0.0031, 'BTC/TH/s'),
        profit_table_7d: exampleRows(0.00313, 'BTC/TH/s'),
        profit_table_30d: exampleRows(0.00304, 'BTC/TH/s'),
        calculator_units_factor: 12,
        profit_rate_units_factor: 12,
        calculator_units: 'TH/s',
        profit_rate_units: 'BTC/TH/s',
        prices: [
          { ticker: 'BTC', price: 100000 },
          { ticker: 'LTC', price: 85.12 },
          { ticker: 'DOGE', price: 0.162 },
        ],
        fiat_prices: { USD: 1, EUR: 1.08 },
        profit_24h: 0.0031,
      },
    ],
  });
export type PoolProfitsResponse = z.infer<typeof poolProfitsResponse>;

/**
 * GET /v1/pool/profits/{algorithm}/chart?timezone=&period= — our average profitability over the
 * period in the chart shape (label `AVG Profit (BTC/TH/s)`): 24h in hourly points labelled HH:mm,
 * 7d in 4-hour points labelled MM-DD HH:mm, 30d (the default) in daily points labelled YYYY-MM-DD,
 * days and clock times in `timezone`. A point without data is 0.
 */
export const profitChartQuery = chartQuery.extend({ period: profitPeriod.default('30d') });

/** The profit chart's label for a unit: `AVG Profit (BTC/TH/s)`. */
export function profitChartLabel(profitUnits: string): string {
  return `AVG Profit (${profitUnits})`;
}

// ── pool fees (the FAQ's fee answer) ─────────────────────────────────────────────────────────────

/**
 * GET /v1/pool/fees (docs/public-api.md, Pool fees): per payout coin (catalogue order, coins whose payouts are
 * enabled), the pool fee as a fraction (0.01 = 1%). The fee is the same on every algorithm.
 */
export const poolFeesResponse = z
  .object({ pools: z.record(z.string(), z.object({ fee: z.number().min(0).max(1) })) })
  .meta({ examples: [{ pools: { BTC: { fee: 0.01 }, LTC: { fee: 0.01 }, DOGE: { fee: 0.01 } } }] });
export type PoolFeesResponse = z.infer<typeof poolFeesResponse>;

// ── payout schemes (docs/money.md, "FPPS") ──────────────────────────────────────────────────────────────────────

/** The network's day of fees an FPPS coin is valued with: its blocks and what their fees add up to. */
export const feeDay = z.object({
  blocks: z.number().int().positive(),
  first_height: z.number().int().nonnegative(),
  last_height: z.number().int().nonnegative(),
  /** Coin amounts, exact decimal text. */
  total_fees: z.string(),
  /** total_fees ÷ blocks, to the coin's decimals (rounded down). */
  average_fee: z.string(),
  /** The day is (from, to]; ISO instants. */
  from: z.string(),
  to: z.string(),
});

/** One mined coin of GET /v1/pool/schemes. */
const payoutSchemeCoin = z.object({
  coin: z.string(),
  algorithm: algorithmKey,
  /** The coin it is merge-mined with; null for a parent coin. */
  merged_with: z.string().nullable(),
  scheme: z.enum(['pps', 'fpps']),
  /** What the newest credit in this coin was valued by; null before its first credit. */
  valued_by: z.enum(['pps', 'fpps']).nullable(),
  fallback: z.string().nullable(),
  fee_day: feeDay.nullable(),
});
export type PayoutSchemeCoin = z.infer<typeof payoutSchemeCoin>;

/** An answer: Litecoin on FPPS, Dogecoin merge-mined beside it on PPS (the OpenAPI document's example). */
export const PAYOUT_SCHEMES_EXAMPLE: { coins: PayoutSchemeCoin[] } = {
  coins: [
    {
      coin: 'LTC',
      algorithm: 'scrypt',
      merged_with: null,
      scheme: 'fpps',
      valued_by: 'fpps',
      fallback: null,
      fee_day: {
        blocks: 576,
        first_height: 2_900_001,
        last_height: 2_900_576,
        total_fees: '1.23456789',
        average_fee: '0.00214334',
        from: '2026-11-29T12:00:00.000Z',
        to: '2026-11-30T12:00:00.000Z',
      },
    },
    {
      coin: 'DOGE',
      algorithm: 'scrypt',
      merged_with: 'LTC',
      scheme: 'pps',
      valued_by: 'pps',
      fallback: null,
      fee_day: null,
    },
  ],
};

/**
 * GET /v1/pool/schemes: how each mined coin's shares are valued — the operator's scheme, what the newest
 * credit was valued by (`valued_by`: FPPS falls back to PPS without fee figures, `fallback` says why), and
 * an FPPS coin's newest fee day. Demo coins are valued by PPS.
 */
export const payoutSchemesResponse = z
  .object({ coins: z.array(payoutSchemeCoin) })
  .meta({ examples: [PAYOUT_SCHEMES_EXAMPLE] });
export type PayoutSchemesResponse = z.infer<typeof payoutSchemesResponse>;

// ── public API (docs/public-api.md, The public API; CORS open, rate-limited) ─────────────────────────────────────

export const publicApiAlgorithm = z.object({
  /** Pool hashrate in `speedUnits` (0 while the statistics are stale, as on the home page). */
  hashrate: z.number().nonnegative(),
  speedUnits: z.string(),
  /** Current PPS rate: BTC per day per `payRateUnits`. */
  BTCpayRate: z.number().nonnegative(),
  /** The same on the high-speed (marketplace) port: every port pays the same rate per share difficulty. */
  BTCpayRateSpeedPort: z.number().nonnegative(),
  /** Mean PPS rate of the last 24 hours, BTC per day per `payRateUnits`. */
  BTCaveragePayRate: z.number().nonnegative(),
  /** The hashrate unit of the pay rates, e.g. `TH/s`. */
  payRateUnits: z.string(),
  /** Accounts with accepted shares in the statistics window. */
  miners: z.number().int().nonnegative(),
  /** Pool fee in percent (1 = 1%), before any account's discount. */
  fee: z.number().min(0).max(100),
  /** Blocks found on the algorithm and not rejected. */
  blocks: z.number().int().nonnegative(),
});
export type PublicApiAlgorithm = z.infer<typeof publicApiAlgorithm>;

export const publicApiPoolExample = {
  algorithms: Object.fromEntries(
    ALGORITHM_KEYS.map((k) => [
      k,
      {
        hashrate: k === 'sha256' || k === 'kheavyhash' ? 1.25 : 512.4,
        speedUnits: k === 'sha256' || k === 'kheavyhash' ? 'Ph/s' : 'Gh/s',
        BTCpayRate: k === 'sha256' || k === 'kheavyhash' ? 0.04812 : 0.00311,
        BTCpayRateSpeedPort: k === 'sha256' || k === 'kheavyhash' ? 0.04812 : 0.00311,
        BTCaveragePayRate: k === 'sha256' || k === 'kheavyhash' ? 0.04795 : 0.00308,
        payRateUnits: k === 'sha256' || k === 'kheavyhash' ? 'PH/s' : 'TH/s',
        miners: 42,
        fee: 1,
        blocks: 17,
      },
    ]),
  ) as Record<AlgorithmKey, PublicApiAlgorithm>,
  prices: { BTC: 100000, LTC: 85.12, DOGE: 0.162 },
};

/** GET /v1/api/pool — the pool per algorithm and the coins' prices (US dollars per coin). */
export const publicApiPoolResponse = z
  .object({
    algorithms: perAlgorithm(publicApiAlgorithm),
    /** Ticker → US dollars per coin, catalogue coins with a recorded price. */
    prices: z.record(z.string(), z.number().positive()),
  })
  .meta({ examples: [publicApiPoolExample] });
export type PublicApiPoolResponse = z.infer<typeof publicApiPoolResponse>;

export const publicApiProfits = z.object({
  /** Our mean profitability over each period, BTC per day per the hashrate of `profit_units`. */
  profit_24h: z.number().nonnegative(),
  profit_7d: z.number().nonnegative(),
  profit_30d: z.number().nonnegative(),
  /** e.g. `BTC/TH/s`. */
  profit_units: z.string(),
  /** The comparison tables of the Profitability page (rows as in `comparisonRow`). */
  comparison_24h: comparisonTable,
  comparison_7d: comparisonTable,
  comparison_30d: comparisonTable,
});
export type PublicApiProfits = z.infer<typeof publicApiProfits>;

export const publicApiProfitsExample = {
  algorithms: Object.fromEntries(
    ALGORITHM_KEYS.map((k) => {
      const units = k === 'sha256' || k === 'kheavyhash' ? 'BTC/PH/s' : 'BTC/TH/s';
      const ours = k === 'sha256' || k === 'kheavyhash' ? 0.048 : 0.0031;
      return [
        k,
        {
          profit_24h: ours,
          profit_7d: ours * 1.01,
          profit_30d: ours * 0.98,
          profit_units: units,
          comparison_24h: exampleRows(ours, units),
          comparison_7d: exampleRows(ours * 1.01, units),
          comparison_30d: exampleRows(ours * 0.98, units),
        },
      ];
    }),
  ) as Record<AlgorithmKey, PublicApiProfits>,
};

/** GET /v1/api/profits — per algorithm, our mean profitability and the comparison with other pools. */
export const publicApiProfitsResponse = z
  .object({ algorithms: perAlgorithm(publicApiProfits) })
  .meta({ examples: [publicApiProfitsExample] });
export type PublicApiProfitsResponse = z.infer<typeof publicApiProfitsResponse>;

/** GET /v1/api/user?apiKey= — the account's read-only API key (Settings shows it). */
export const publicApiUserQuery = z.object({
  apiKey: z
    .string()
    .min(1, 'apiKey is required')
    .max(200)
    .meta({ examples: ['3f9c…your API key…'] }),
});

export const publicApiBalance = z.object({
  /** The coin's name, e.g. `Bitcoin`. */
  coin: z.string(),
  coinTicker: z.string(),
  /** Coin amount, exact decimal text. */
  balance: coinAmount,
});

export const publicApiPayment = z.object({
  address: z.string(),
  /** Coin amount paid to the address, exact decimal text. */
  value: coinAmount,
  /** The transaction id, or `Pending` while the payout is not sent yet. */
  txID: z.string(),
  ticker: z.string(),
  /** The coin's name. */
  coin: z.string(),
  /** ISO 8601 time (UTC) the payout was made. */
  date: z.string(),
  /** The same instant in Unix seconds. */
  timestamp: z.number().int(),
});

export const publicApiWorker = miningWorker.omit({ id: true }).extend({ algorithm: algorithmKey });

export const publicApiEarningCoin = z.object({
  /** The coin's identifier: in Lodestone, its ticker. */
  coin_id: z.string(),
  coin_ticker: z.string(),
  coin_balance: smallestUnits,
  coin_decimals: z.number().int(),
});

export const publicApiEarning = z.object({
  /** The UTC day, YYYY-MM-DD. */
  earning_timestamp: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  algorithm: algorithmKey,
  /** The day's earnings valued at the coins' newest prices, US dollars with cents. */
  usd_value: z.number().nonnegative(),
  /** The account's average hashrate on the algorithm that day, in `speed_units`. */
  speed: z.number().nonnegative(),
  speed_units: z.string(),
  coins: z.array(publicApiEarningCoin),
});

/** Days of earnings the public API lists (today included). */
export const PUBLIC_API_EARNINGS_DAYS = 30;
/** Newest payments the public API lists. */
export const PUBLIC_API_PAYMENTS_LIMIT = 100;

const summaryExample = {
  hashrate: 0,
  hashrate_units: 'H/s',
  hashrate_avg: 0,
  hashrate_avg_units: 'H/s',
  window_minutes: 10,
  active_workers: 0,
  total_workers: 0,
  estimated_revenue: 0,
};

export const publicApiUserExample = {
  username: 'miner01',
  hashrate: {
    ...Object.fromEntries(ALGORITHM_KEYS.map((k) => [k, summaryExample])),
    scrypt: {
      hashrate: 9.52,
      hashrate_units: 'Gh/s',
      hashrate_avg: 9.47,
      hashrate_avg_units: 'Gh/s',
      window_minutes: 10,
      active_workers: 2,
      total_workers: 3,
      estimated_revenue: 2.93,
    },
  } as Record<AlgorithmKey, z.infer<typeof miningSummaryResponse>>,
  balances: [{ coin: 'Litecoin', coinTicker: 'LTC', balance: '0.03481277' }],
  payments: [
    {
      address: 'ltc1qg82tf4z5l0d8n9w7r0u0xzk2mrr5rd3m5w2z0m',
      value: '0.1',
      txID: '9f2c41e5b0d0a3c1c5e8d1f0b8f7c0e1d2a3b4c5d6e7f8091a2b3c4d5e6f7a8b',
      ticker: 'LTC',
      coin: 'Litecoin',
      date: '2025-06-14T09:00:12.000Z',
      timestamp: 1749891612,
    },
  ],
  workers: [
    {
      algorithm: 'scrypt' as const,
      name: 'rig01',
      label: null,
      group: null,
      solo: false,
      hashrate: 4.81,
      hashrate_units: 'Gh/s',
      hashrate_avg: 4.77,
      hashrate_avg_units: 'Gh/s',
      online: true,
      state: 'online' as const,
      last_share_at: '2025-06-14T08:59:41.512Z',
      valid_shares: 15321,
      invalid_shares: 3,
      stale_shares: 12,
    },
  ],
  earnings: [
    {
      earning_timestamp: '2025-06-14',
      algorithm: 'scrypt' as const,
      usd_value: 2.91,
      speed: 9.49,
      speed_units: 'Gh/s',
      coins: [{ coin_id: 'LTC', coin_ticker: 'LTC', coin_balance: '3418810', coin_decimals: 8 }],
    },
  ],
};

/**
 * GET /v1/api/user?apiKey= — the account of the key, read-only: per algorithm the dashboard's
 * summary cards, every worker, the balances, the newest PUBLIC_API_PAYMENTS_LIMIT payments and the
 * earnings of the last PUBLIC_API_EARNINGS_DAYS UTC days (one record per day and algorithm).
 */
export const publicApiUserResponse = z
  .object({
    username: z.string(),
    hashrate: perAlgorithm(miningSummaryResponse),
    workers: z.array(publicApiWorker),
    /** Present when the key shows revenue: the account's own API key, or a watcher link of scope revenue or payouts. */
    balances: z.array(publicApiBalance).optional(),
    earnings: z.array(publicApiEarning).optional(),
    /** Present when the key shows payouts: the account's own API key, or a watcher link of scope payouts. */
    payments: z.array(publicApiPayment).optional(),
  })
  .meta({ examples: [publicApiUserExample] });
export type PublicApiUserResponse = z.infer<typeof publicApiUserResponse>;

// ── signatures (the Signature verification page) ─────────────────────────────────────────────────

/** A signature the pool issues: 64 lowercase hex digits (HMAC-SHA256). Other text is answered 404. */
export const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;
export const signatureParams = z.object({ signature: z.string().max(200) });

/**
 * GET /v1/signatures/{signature} (docs/public-api.md, Signatures): `result` is the SHA-256 (hex) of the document
 * the pool signed with this signature; the page hashes the visitor's document and compares. Unknown
 * signatures are 404 `{error, code}`.
 */
export const signatureResponse = z
  .object({
    result: z.string().regex(SIGNATURE_PATTERN),
    /** What was signed: `statement` (a monthly earnings statement), `payout` (a payout receipt). */
    kind: z.string(),
    /** ISO time the signature was issued. */
    issued_at: z.string(),
  })
  .meta({
    examples: [
      {
        result: '5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef',
        kind: 'statement',
        issued_at: '2025-07-01T08:30:00.000Z',
      },
    ],
  });
export type SignatureResponse = z.infer<typeof signatureResponse>;

// ── VIP application (Home's modal) ─────────────────────────────────────────────────────────────

// The dial codes and messages are plain constants in vip.ts, so the website can import them without
// bundling zod.
export { VIP_DIAL_CODES, VIP_MESSAGES } from './vip.js';

const DIAL_CODES_LONGEST_FIRST = [...new Set(VIP_DIAL_CODES.map((d) => d.code))].sort((a, b) => b.length - a.length);

/**
 * A phone number as the form sends it: a dial code of VIP_DIAL_CODES followed (with or without a
 * space) by 7 to 15 digits, e.g. `+44 7911123456`. Empty, or a dial code alone, means none. Returns `+44 7911123456` or
 * null; undefined when the text is not a valid number.
 */
export function parseVipPhone(text: string): string | null | undefined {
  const compact = text.replace(/\s+/g, '');
  if (compact === '') return null;
  const code = DIAL_CODES_LONGEST_FIRST.find((c) => compact.startsWith(c));
  if (!code) return undefined;
  const digits = compact.slice(code.length);
  // A dial code alone is the selector's value with the number left empty: no phone.
  if (digits === '') return null;
  return /^\d{7,15}$/.test(digits) ? `${code} ${digits}` : undefined;
}

/** One line of text: no control characters (line breaks, tabs). */
const ONE_LINE = /^[^\p{Cc}]*$/u;

/**
 * POST /v1/email/hashrate (multipart form, JSON also accepted) (docs/public-api.md, VIP applications). Answers
 * `{ result: true }` once the application is stored; refusals are 400 with the form's messages.
 */
export const vipApplicationBody = z
  .object({
    name: z
      .string({ error: VIP_MESSAGES.nameRequired })
      .trim()
      .min(1, VIP_MESSAGES.nameRequired)
      .max(200, VIP_MESSAGES.nameTooLong)
      .regex(ONE_LINE, VIP_MESSAGES.nameOneLine),
    email: z
      .string({ error: VIP_MESSAGES.invalidEmail })
      .trim()
      .pipe(z.email(VIP_MESSAGES.invalidEmail).max(254, VIP_MESSAGES.invalidEmail)),
    /** Optional: dial code and 7–15 digits (`+44 7911123456`); empty or absent when not given. */
    phone: z
      .string({ error: VIP_MESSAGES.invalidPhone })
      .max(40, VIP_MESSAGES.invalidPhone)
      .default('')
      .transform((value, ctx) => {
        const phone = parseVipPhone(value);
        if (phone === undefined) {
          ctx.addIssue({ code: 'custom', message: VIP_MESSAGES.invalidPhone });
          return z.NEVER;
        }
        return phone;
      }),
    /** The "hashrate" field: free text on the operation and its total hashrate per algorithm. */
    operations: z
      .string({ error: VIP_MESSAGES.hashrateRequired })
      .trim()
      .min(1, VIP_MESSAGES.hashrateRequired)
      .max(5000, VIP_MESSAGES.hashrateTooLong),
    captchaToken,
  })
  .meta({
    examples: [
      {
        name: 'Jane Miner',
        email: 'jane@example.com',
        phone: '+44 7911123456',
        operations: 'SCRYPT: 40 L9 units, 640 GH/s in total; SHA256: 2 PH/s from next month.',
        captchaToken: 'eyJhbGdvcml0aG0iOiJTSEEtMjU2Ii…(the solved ALTCHA payload)',
      },
    ],
  });

// ── OpenAPI ────────────────────────────────────────────────────────────────────────────────────

/** GET /v1/openapi.json — the OpenAPI 3.1 document generated from this package's route table. */
export const openApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});
export type OpenApiDocument = z.infer<typeof openApiDocument>;
