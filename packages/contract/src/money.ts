import { ALGORITHM_KEYS, type AlgorithmKey } from '@lodestone/domain';
import { z } from 'zod';
import { currentPassword, currentTotpCode } from './account.js';

/**
 * Money calls (docs/money.md, Settings and conversion API): the coin catalogue, conversion and payout settings,
 * balance conversion and the pool's payouts. Conventions (docs/money.md):
 *
 * - coin amounts (thresholds and their bounds) are exact decimal strings ("0.001"), never floats;
 * - smallest-unit amounts (payouts) are integer strings with the coin's decimals beside them;
 * - percentages, hours and US dollar figures for display are JSON numbers;
 * - refusals answer the API's usual `{ error, code }` with a 4xx status, successes `{ result: true }`.
 */

/**
 * A decimal as a client may send it: a JSON number or decimal text. The server parses it exactly
 * (numbers by their shortest text, so 33.33 stays 33.33) before any rule is checked.
 */
export const decimalInput = z.union([z.number(), z.string().trim().min(1)], { error: 'Expected a number' });

const formBoolean = z.preprocess(
  (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
  z.boolean({ error: 'Expected true or false' }),
);

/** A field that is a JSON text in a multipart form; JSON API clients may send the value itself. */
function jsonField(name: string) {
  return z.unknown().transform((value, ctx) => {
    if (value === undefined || value === '') {
      ctx.addIssue({ code: 'custom', message: `${name} is required` });
      return z.NEVER;
    }
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: `${name} must be JSON` });
      return z.NEVER;
    }
  });
}

// ── coin catalogue ──────────────────────────────────────────────────────────────────────────────

export const coinInfo = z.object({
  name: z.string(),
  /** US dollars per coin from the newest recorded price; null when none was ever recorded. */
  coin_price: z.number().nullable(),
  /** Payout threshold bounds, coin amounts as decimal text. */
  threshold_min: z.string(),
  threshold_max: z.string(),
  /** Payout interval bounds in hours. */
  interval_min: z.number(),
  interval_max: z.number(),
  /** Smallest unit = 10^-decimals coin. */
  decimals: z.number().int(),
  /** The chain payouts are sent on (USDC: ethereum). */
  network: z.string(),
  /** Explorer links with a {txid} / {address} placeholder, or null. */
  explorer_tx_url: z.string().nullable(),
  explorer_address_url: z.string().nullable(),
  payouts_enabled: z.boolean(),
});
export type CoinInfo = z.infer<typeof coinInfo>;

/** GET /v1/coins — the payout coin catalogue (docs/money.md, Coin catalogue), keyed by ticker in catalogue order. */
export const coinsResponse = z.record(z.string(), coinInfo);
export type CoinsResponse = z.infer<typeof coinsResponse>;

// ── conversion settings ─────────────────────────────────────────────────────────────────────────

export const conversionEntry = z.object({
  ticker: z.string(),
  /** Percent of the earnings credited in this coin, 0–100 (decimals allowed); a list adds up to 100. */
  proportion: z.number().min(0).max(100),
});
export type ConversionEntry = z.infer<typeof conversionEntry>;
export const conversionList = z.array(conversionEntry);

/** GET /v1/user/conversion_config?account_name= — one list per algorithm plus the shared list. */
export const conversionConfigResponse = z.object({
  ...(Object.fromEntries(ALGORITHM_KEYS.map((k) => [k, conversionList])) as Record<
    AlgorithmKey,
    typeof conversionList
  >),
  /** True when every algorithm is credited by `all_algorithms` (the per-algorithm lists are copies of it). */
  all_algorithms_setting: z.boolean(),
  all_algorithms: conversionList,
});
export type ConversionConfigResponse = z.infer<typeof conversionConfigResponse>;

/** One coin of a conversion list as clients send it (rules are checked by the server). */
export const conversionEntryInput = z.object({
  ticker: z.string({ error: 'Each coin needs a ticker' }),
  proportion: decimalInput,
});
export const conversionListInput = z.array(conversionEntryInput, { error: 'Expected a list of coins' });

/**
 * POST /v1/user/conversion_config/update?account_name= — `conversion_settings` is JSON: with
 * `all_algorithms` true the shared list (`[{ticker, proportion}]`), else a map algorithm → list
 * (algorithms left out keep their list).
 */
export const conversionConfigUpdateBody = z.object({
  conversion_settings: jsonField('conversion_settings'),
  all_algorithms: formBoolean.default(false),
});

// ── payout settings ─────────────────────────────────────────────────────────────────────────────

export const payoutAddress = z.object({
  address: z.string(),
  /** Percent of each payout of the coin sent to this address. */
  percentage: z.number().min(0).max(100),
});

export const payoutSetting = z.object({
  ticker: z.string(),
  /** Coin amount (decimal text): the balance at which the coin is paid out. */
  threshold: z.string(),
  /** Hours: the coin is paid out at most once per interval. */
  interval: z.number(),
  addresses: z.array(payoutAddress),
  /** ISO time until which payouts of the coin are paused after an address change; null when not paused. */
  paused_until: z.string().nullable(),
});

/** GET /v1/user/payment_config?account_name= — the account's payout settings in catalogue order. */
export const paymentConfigResponse = z.object({ payout_settings: z.array(payoutSetting) });
export type PaymentConfigResponse = z.infer<typeof paymentConfigResponse>;

/**
 * The save payload (docs/money.md, Payout settings): map ticker → {threshold, interval, addresses: [{proportion,
 * address}]}.
 */
export const paymentSettingsInput = z.record(
  z.string(),
  z.object(
    {
      threshold: decimalInput,
      interval: decimalInput,
      addresses: z.array(
        z.object({ proportion: decimalInput, address: z.string({ error: 'Each address row needs an address' }) }),
        { error: 'Each coin needs a list of addresses' },
      ),
    },
    { error: 'Each coin needs a threshold, an interval and addresses' },
  ),
  { error: 'Expected a map of coin ticker to payout settings' },
);

/**
 * POST /v1/user/payment_config/update?account_name= — replaces the account's whole payout settings.
 * A save that changes any coin's addresses (or their shares) needs the current password, and the
 * current 2FA code when the user has 2FA on; threshold and interval changes alone need neither.
 */
export const paymentConfigUpdateBody = z.object({
  payment_settings: jsonField('payment_settings'),
  password: currentPassword,
  code: currentTotpCode,
});

// ── conversion ──────────────────────────────────────────────────────────────────────────────────

/** POST /v1/user/convert?account_name= — converts the whole balance of base_coin into target_coin. */
export const convertBody = z.object({
  base_coin: z
    .string({ error: 'No coin to convert selected' })
    .trim()
    .toUpperCase()
    .min(1, 'No coin to convert selected'),
  target_coin: z.string({ error: 'No target coin selected' }).trim().toUpperCase().min(1, 'No target coin selected'),
});

export const convertResponse = z.object({
  result: z.literal(true),
  base_coin: z.string(),
  /** Coin amount taken from the base balance (decimal text). */
  base_amount: z.string(),
  target_coin: z.string(),
  /** Coin amount credited in the target coin (decimal text). */
  target_amount: z.string(),
});
export type ConvertResponse = z.infer<typeof convertResponse>;

// ── pool payouts ────────────────────────────────────────────────────────────────────────────────

export const poolPayout = z.object({
  /** ISO time the payout was made (balances debited). */
  payout_date: z.string(),
  /** Smallest units as integer text: the amount is coin_balance × 10^-coin_decimals coin_ticker. */
  coin_balance: z.string().regex(/^\d+$/),
  coin_decimals: z.number().int(),
  coin_ticker: z.string(),
  /** The transaction id, or 'Pending' while it is not sent yet. */
  payout_txid: z.string(),
  /** Explorer link of the transaction; null while pending, for demo transactions and coins without an explorer. */
  payout_txid_url: z.string().nullable(),
});
export type PoolPayout = z.infer<typeof poolPayout>;

export const payoutChartEntry = z.object({
  coin_ticker: z.string(),
  /** US dollars at the coin's current price, two decimals. */
  usd_value: z.number(),
});
export const payoutChart = z.array(payoutChartEntry);

/** GET /v1/pool/payouts — the newest payouts and the paid value per coin (24 h, 30 days, all time). */
export const poolPayoutsResponse = z.object({
  latest: z.array(poolPayout),
  charts: z.object({ day: payoutChart, month: payoutChart, all_time: payoutChart }),
});
export type PoolPayoutsResponse = z.infer<typeof poolPayoutsResponse>;
