import type { CoinInfo, PaymentConfigResponse } from '@lodestone/contract';
import { PAYOUT_SETTING_MESSAGES } from '@lodestone/contract';
import { Exact } from '@lodestone/domain';

/**
 * The Payout Settings form (docs/money.md, Payout settings): per coin a threshold (bounded by the coin's
 * threshold_min/max, step 0.0001), an interval in hours (interval_min/max, step 0.5) and one or more
 * address rows with a percentage slider (0–100, a new row starts at 100). Removing the last row of a
 * coin removes the coin. Saving sends a map ticker → {threshold, interval, addresses: [{proportion, address}]}.
 */
export const THRESHOLD_STEP = '0.0001';
export const INTERVAL_STEP = '0.5';
export const NEW_ROW_PERCENTAGE = 100;

export interface AddressRow {
  address: string;
  percentage: number;
}

export interface PayoutCoinForm {
  ticker: string;
  /** As typed; stepped when the field is left (`snappedToStep`), refused out of bounds (`boundsProblem`). */
  threshold: string;
  interval: string;
  addresses: AddressRow[];
}

export function formFromConfig(config: PaymentConfigResponse): PayoutCoinForm[] {
  return config.payout_settings.map((s) => ({
    ticker: s.ticker,
    threshold: s.threshold,
    interval: String(s.interval),
    addresses: s.addresses.map((a) => ({ address: a.address, percentage: a.percentage })),
  }));
}

/**
 * A coin just added: the lowest threshold and the shortest interval the coin allows (paid as early
 * and as often as the pool permits — a miner who wants fewer, larger payouts raises them), and one
 * empty address row at 100%.
 */
export function newCoin(ticker: string, info: Pick<CoinInfo, 'threshold_min' | 'interval_min'>): PayoutCoinForm {
  return {
    ticker,
    threshold: info.threshold_min,
    interval: String(info.interval_min),
    addresses: [{ address: '', percentage: NEW_ROW_PERCENTAGE }],
  };
}

export function addCoin(
  coins: readonly PayoutCoinForm[],
  ticker: string,
  info: Pick<CoinInfo, 'threshold_min' | 'interval_min'>,
): PayoutCoinForm[] {
  return coins.some((c) => c.ticker === ticker) ? [...coins] : [...coins, newCoin(ticker, info)];
}

/** The form with each of `tickers` added that the catalogue pays out in and the form lacks. */
export function withCoins(
  coins: readonly PayoutCoinForm[],
  tickers: readonly string[],
  catalogue: Readonly<Record<string, Pick<CoinInfo, 'threshold_min' | 'interval_min' | 'payouts_enabled'>>>,
): PayoutCoinForm[] {
  let form = [...coins];
  for (const ticker of tickers) {
    const info = catalogue[ticker];
    if (info?.payouts_enabled) form = addCoin(form, ticker, info);
  }
  return form;
}

export function addAddressRow(coins: readonly PayoutCoinForm[], ticker: string): PayoutCoinForm[] {
  return coins.map((c) =>
    c.ticker === ticker ? { ...c, addresses: [...c.addresses, { address: '', percentage: NEW_ROW_PERCENTAGE }] } : c,
  );
}

/** Removes one address row; a coin left without rows is removed too (docs/dashboard.md, The screens). */
export function removeAddressRow(coins: readonly PayoutCoinForm[], ticker: string, index: number): PayoutCoinForm[] {
  return coins
    .map((c) => (c.ticker === ticker ? { ...c, addresses: c.addresses.filter((_, i) => i !== index) } : c))
    .filter((c) => c.addresses.length > 0);
}

export function updateAddressRow(
  coins: readonly PayoutCoinForm[],
  ticker: string,
  index: number,
  change: Partial<AddressRow>,
): PayoutCoinForm[] {
  return coins.map((c) =>
    c.ticker === ticker
      ? {
          ...c,
          addresses: c.addresses.map((row, i) =>
            i === index
              ? {
                  ...row,
                  ...change,
                  ...(change.percentage === undefined ? {} : { percentage: clampPercentage(change.percentage) }),
                }
              : row,
          ),
        }
      : c,
  );
}

export function clampPercentage(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, value));
}

function exactOrNull(text: string): Exact | null {
  try {
    return Exact.of(text.trim());
  } catch {
    return null;
  }
}

/**
 * A typed decimal within [min, max] brought down to a multiple of `step`, exactly (no float
 * rounding: 0.0003 stays 0.0003), never below `min`. Anything else is left as typed: a value out of
 * bounds is refused with a message (`boundsProblem`), never silently moved to the bound.
 */
export function snappedToStep(text: string, min: string, max: string, step: string): string {
  const value = exactOrNull(text);
  if (!value || value.compare(min) < 0 || value.compare(max) > 0) return text;
  const steps = value.dividedBy(step, 0).floor();
  let snapped = Exact.of(step).times(steps);
  // The bounds themselves need not be multiples of the step; never leave the range by snapping.
  if (snapped.compare(min) < 0) snapped = Exact.of(min);
  return snapped.toString();
}

export type BoundedField = 'threshold' | 'interval';

/** Why a typed threshold or interval cannot be saved (the server's own wording), or null. */
export function boundsProblem(
  ticker: string,
  field: BoundedField,
  text: string,
  info: Pick<CoinInfo, 'threshold_min' | 'threshold_max' | 'interval_min' | 'interval_max'>,
): string | null {
  const value = exactOrNull(text);
  if (field === 'threshold') {
    if (!value) return PAYOUT_SETTING_MESSAGES.thresholdNotNumber(ticker);
    if (value.compare(info.threshold_min) < 0 || value.compare(info.threshold_max) > 0) {
      return PAYOUT_SETTING_MESSAGES.thresholdBounds(ticker, info.threshold_min, info.threshold_max);
    }
    return null;
  }
  if (!value) return PAYOUT_SETTING_MESSAGES.intervalNotNumber(ticker);
  if (value.compare(String(info.interval_min)) < 0 || value.compare(String(info.interval_max)) > 0) {
    return PAYOUT_SETTING_MESSAGES.intervalBounds(ticker, String(info.interval_min), String(info.interval_max));
  }
  return null;
}

/** The first threshold or interval that cannot be saved, as its message; null when all can. */
export function formProblem(
  coins: readonly PayoutCoinForm[],
  infoOf: (ticker: string) => Parameters<typeof boundsProblem>[3] | undefined,
): string | null {
  for (const coin of coins) {
    const info = infoOf(coin.ticker);
    if (!info) continue;
    const problem =
      boundsProblem(coin.ticker, 'threshold', coin.threshold, info) ??
      boundsProblem(coin.ticker, 'interval', coin.interval, info);
    if (problem) return problem;
  }
  return null;
}

/** The sum of a coin's percentages, for the "Total" hint beside the rows. */
export function percentageTotal(rows: readonly AddressRow[]): number {
  return Math.round(rows.reduce((sum, r) => sum + r.percentage, 0) * 10_000) / 10_000;
}

export type PaymentSettingsPayload = Record<
  string,
  { threshold: string; interval: string; addresses: { proportion: number; address: string }[] }
>;

/** The JSON of `payment_settings` (docs/money.md, Payout settings); the server checks addresses and sums. */
export function paymentPayload(coins: readonly PayoutCoinForm[]): PaymentSettingsPayload {
  const payload: PaymentSettingsPayload = {};
  for (const coin of coins) {
    payload[coin.ticker] = {
      threshold: coin.threshold.trim(),
      interval: coin.interval.trim(),
      addresses: coin.addresses.map((row) => ({ proportion: row.percentage, address: row.address.trim() })),
    };
  }
  return payload;
}

/**
 * Whether saving the form changes where any coin's payouts go, as the server judges it: a coin's
 * addresses or their percentages differ from what is stored (order aside), or a coin is added or
 * removed. Such a save needs the password again (and the 2FA code when 2FA is on); a save that only
 * changes thresholds or intervals does not, so the modal asks only then.
 */
export function addressesChanged(config: PaymentConfigResponse, coins: readonly PayoutCoinForm[]): boolean {
  const canonical = (rows: readonly AddressRow[]) =>
    rows
      .filter((row) => row.percentage !== 0)
      .map((row) => `${row.address.trim()}\u0000${row.percentage}`)
      .sort()
      .join('\u0001');
  const stored = new Map(config.payout_settings.map((s) => [s.ticker, canonical(s.addresses)]));
  const edited = new Map(coins.map((c) => [c.ticker, canonical(c.addresses)]));
  for (const ticker of new Set([...stored.keys(), ...edited.keys()])) {
    if (stored.get(ticker) !== edited.get(ticker)) return true;
  }
  return false;
}

/** What the save asks again when addresses change: the password as typed, and the 2FA code. */
export interface Reauthentication {
  password: string;
  code: string;
}

/**
 * The body of POST user/payment_config/update: `payment_settings` (paymentPayload's JSON), and the
 * password and code only when given (a save of thresholds alone sends neither).
 */
export function paymentForm(coins: readonly PayoutCoinForm[], reauth?: Reauthentication): FormData {
  const form = new FormData();
  form.set('payment_settings', JSON.stringify(paymentPayload(coins)));
  if (reauth && reauth.password !== '') form.set('password', reauth.password);
  if (reauth && reauth.code.trim() !== '') form.set('code', reauth.code.trim());
  return form;
}

/** Coins the search offers to add: payable, not already in the form, matching ticker or name. */
export function addableCoins(
  catalogue: Record<string, Pick<CoinInfo, 'name' | 'payouts_enabled'>>,
  present: readonly string[],
  query: string,
): string[] {
  const needle = query.trim().toLowerCase();
  return Object.entries(catalogue)
    .filter(([ticker, info]) => info.payouts_enabled && !present.includes(ticker))
    .filter(([ticker, info]) => needle === '' || `${ticker} ${info.name}`.toLowerCase().includes(needle))
    .map(([ticker]) => ticker);
}
