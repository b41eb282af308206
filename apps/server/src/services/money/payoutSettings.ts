import { ADDRESS_FORMATS, type AddressFormat, validatePayoutAddress } from '@lodestone/chain';
import { PAYOUT_SETTING_MESSAGES, type PaymentConfigResponse, paymentSettingsInput } from '@lodestone/contract';
import {
  type Account,
  type Coin,
  lockAccount,
  PAYOUT_SETTINGS_EVENT,
  type PayoutAddressRow,
  type PayoutSettingRow,
  payoutSettingsEverSaved,
  payoutSettingsOf,
  replacePayoutSettings,
  type User,
} from '@lodestone/db';
import { decimalToNumber, Exact } from '@lodestone/domain';
import { REAUTH_MESSAGES, type Reauthentication, reauthenticate } from '../accounts/reauth.js';
import { errors } from '../errors.js';
import { logEvent } from '../userLog.js';
import { catalogueByTicker, type MoneyContext } from './coinCatalogue.js';

/** Payouts of a coin wait this long after its addresses change (docs/money.md, "Payouts": an address change pauses them for 24 hours). */
export const ADDRESS_CHANGE_PAUSE_MS = 24 * 3600_000;

/** Thresholds move in steps of 0.0001 coin and intervals in half hours (docs/money.md, "Payout settings"). */
const THRESHOLD_STEP_DECIMALS = 4;
const INTERVAL_STEP = Exact.of('0.5');

/** Enough for any sensible split; keeps one save from writing thousands of rows. */
export const MAX_ADDRESSES_PER_COIN = 10;

/** Percent with at most this many decimals, like conversion proportions. */
const PERCENT_DECIMALS = 4;

type AddressNetwork = MoneyContext['addressNetwork'];

export interface ValidatedPayoutSetting {
  ticker: string;
  /** Coin amount, canonical decimal text. */
  threshold: string;
  /** Hours, canonical decimal text. */
  intervalHours: string;
  /** Addresses above 0%, in the order given (0% rows are dropped: they would never be paid). */
  addresses: PayoutAddressRow[];
}

function exactOrRefuse(value: string | number, message: string): Exact {
  try {
    return Exact.of(value);
  } catch {
    throw errors.invalid(message);
  }
}

const isMultipleOf = (value: Exact, step: Exact) => value.dividedBy(step, 0).times(step).compare(value) === 0;

/** Long inputs are cut in messages, so an error stays readable. */
const quoted = (address: string) => JSON.stringify(address.length > 64 ? `${address.slice(0, 61)}...` : address);

const isAddressFormat = (format: string): format is AddressFormat =>
  (ADDRESS_FORMATS as readonly string[]).includes(format);

function checkAddress(coin: Coin, address: string, network: AddressNetwork): void {
  // An operator-added coin whose format this build cannot check is refused: an unchecked address
  // could lose the miner's coins.
  if (!isAddressFormat(coin.address_format)) {
    throw errors.refused('ADDRESS_FORMAT_UNKNOWN', `${coin.ticker} payout addresses cannot be checked by this pool`);
  }
  const check = validatePayoutAddress(coin.address_format, address, network);
  if (!check.ok) throw errors.invalid(`Invalid ${coin.ticker} address ${quoted(address)}: ${check.reason}`);
}

/** A readable message for a payload of the wrong shape, naming the coin and the field. */
function shapeMessage(issue: { path: PropertyKey[]; message: string } | undefined): string {
  if (!issue) return 'Invalid payment settings';
  const [key, field, , rowField] = issue.path;
  const ticker = typeof key === 'string' ? key.trim().toUpperCase() : '';
  if (field === 'threshold') return PAYOUT_SETTING_MESSAGES.thresholdNotNumber(ticker);
  if (field === 'interval') return PAYOUT_SETTING_MESSAGES.intervalNotNumber(ticker);
  if (field === 'addresses' && rowField === 'proportion') {
    return `${ticker} address percentages are numbers from 0 to 100`;
  }
  return ticker && field !== undefined ? `${ticker}: ${issue.message}` : issue.message;
}

/**
 * Pure (apart from address checksums): the save payload → the settings to store, in catalogue order.
 * Every coin must be in the catalogue with payouts enabled; its threshold within the coin's bounds in
 * steps of 0.0001; its interval within bounds in steps of 0.5 hours; 1–10 addresses, each valid for
 * the coin on `network` and listed once, with percentages 0–100 adding up to exactly 100.
 */
export function parsePaymentSettings(
  raw: unknown,
  catalogue: ReadonlyMap<string, Coin>,
  network: AddressNetwork,
): ValidatedPayoutSetting[] {
  const parsed = paymentSettingsInput.safeParse(raw);
  if (!parsed.success) throw errors.invalid(shapeMessage(parsed.error.issues[0]));
  const out = new Map<string, ValidatedPayoutSetting>();
  for (const [key, setting] of Object.entries(parsed.data)) {
    const ticker = key.trim().toUpperCase();
    const coin = catalogue.get(ticker);
    if (!coin) throw errors.invalid(`Unknown coin: ${key}`);
    if (out.has(ticker)) throw errors.invalid(`${ticker} is listed twice`);
    if (!coin.payouts_enabled) throw errors.refused('PAYOUTS_DISABLED', `Payouts in ${ticker} are not available`);

    const threshold = exactOrRefuse(setting.threshold, PAYOUT_SETTING_MESSAGES.thresholdNotNumber(ticker));
    if (threshold.compare(coin.threshold_min) < 0 || threshold.compare(coin.threshold_max) > 0) {
      const [min, max] = [Exact.of(coin.threshold_min), Exact.of(coin.threshold_max)];
      throw errors.invalid(PAYOUT_SETTING_MESSAGES.thresholdBounds(ticker, String(min), String(max)));
    }
    if (threshold.shifted(THRESHOLD_STEP_DECIMALS).scale !== 0) {
      throw errors.invalid(`The ${ticker} threshold must be a multiple of 0.0001`);
    }

    const interval = exactOrRefuse(setting.interval, PAYOUT_SETTING_MESSAGES.intervalNotNumber(ticker));
    if (interval.compare(coin.interval_min) < 0 || interval.compare(coin.interval_max) > 0) {
      const [min, max] = [Exact.of(coin.interval_min), Exact.of(coin.interval_max)];
      throw errors.invalid(PAYOUT_SETTING_MESSAGES.intervalBounds(ticker, String(min), String(max)));
    }
    if (!isMultipleOf(interval, INTERVAL_STEP)) {
      throw errors.invalid(`The ${ticker} payout interval must be in steps of 0.5 hours`);
    }

    if (setting.addresses.length === 0) throw errors.invalid(`Add a ${ticker} payout address`);
    if (setting.addresses.length > MAX_ADDRESSES_PER_COIN) {
      throw errors.invalid(`At most ${MAX_ADDRESSES_PER_COIN} ${ticker} payout addresses`);
    }
    const seen = new Set<string>();
    const addresses: PayoutAddressRow[] = [];
    let total = Exact.ZERO;
    for (const row of setting.addresses) {
      const address = row.address.trim();
      if (address === '') throw errors.invalid(`Enter the ${ticker} payout address`);
      checkAddress(coin, address, network);
      // Bech32 and hex addresses may be written in either case; the same address twice is a mistake.
      if (seen.has(address.toLowerCase())) throw errors.invalid(`${ticker} address ${quoted(address)} is listed twice`);
      seen.add(address.toLowerCase());
      const percent = exactOrRefuse(row.proportion, `${ticker} address percentages are numbers from 0 to 100`);
      if (percent.isNegative() || percent.compare(100) > 0) {
        throw errors.invalid(`${ticker} address percentages are numbers from 0 to 100`);
      }
      if (percent.shifted(PERCENT_DECIMALS).scale !== 0) {
        throw errors.invalid(`${ticker} address percentages have at most ${PERCENT_DECIMALS} decimals`);
      }
      if (percent.isZero()) continue;
      total = total.plus(percent);
      addresses.push({ address, proportion: percent.toString() });
    }
    if (total.compare(100) !== 0) {
      throw errors.invalid(`The ${ticker} address percentages add up to ${total}, not 100`);
    }
    out.set(ticker, { ticker, threshold: threshold.toString(), intervalHours: interval.toString(), addresses });
  }
  return [...catalogue.keys()].flatMap((ticker) => {
    const setting = out.get(ticker);
    return setting ? [setting] : [];
  });
}

/** Pure: whether two address lists send the same shares to the same addresses (order aside). */
export function sameAddresses(a: readonly PayoutAddressRow[], b: readonly PayoutAddressRow[]): boolean {
  const canonical = (rows: readonly PayoutAddressRow[]) =>
    rows
      .map((r) => `${r.address}\u0000${Exact.of(r.proportion)}`)
      .sort()
      .join('\u0001');
  return canonical(a) === canonical(b);
}

/**
 * Pure: whether a save changes where any coin's payouts go — a coin's addresses or their shares
 * differ from what is stored, or a coin with addresses is added or removed. Such a save needs the
 * password again (reauth.ts); one that changes only thresholds and intervals does not.
 */
export function changesPayoutAddresses(
  stored: readonly Pick<PayoutSettingRow, 'ticker' | 'addresses'>[],
  next: readonly Pick<ValidatedPayoutSetting, 'ticker' | 'addresses'>[],
): boolean {
  const before = new Map(stored.map((s) => [s.ticker, s.addresses]));
  const after = new Map(next.map((s) => [s.ticker, s.addresses]));
  for (const ticker of new Set([...before.keys(), ...after.keys()])) {
    if (!sameAddresses(before.get(ticker) ?? [], after.get(ticker) ?? [])) return true;
  }
  return false;
}

/**
 * Pure: until when payouts of a coin wait after a save. Unchanged addresses keep the pause they had;
 * changed ones pause the coin for 24 hours from now. A coin that is new to the account pauses too,
 * unless this is the account's first payout setup ever: once an account has had payout addresses,
 * adding a coin is a change of where its money goes (a balance can be converted into the new coin),
 * so it waits like any other change.
 */
export function pausedUntilAfterSave(
  previous: PayoutSettingRow | undefined,
  addresses: readonly PayoutAddressRow[],
  everSaved: boolean,
  now: Date,
): Date | null {
  if (previous) {
    return sameAddresses(previous.addresses, addresses)
      ? previous.pausedUntil
      : new Date(now.getTime() + ADDRESS_CHANGE_PAUSE_MS);
  }
  return everSaved ? new Date(now.getTime() + ADDRESS_CHANGE_PAUSE_MS) : null;
}

const logShape = (s: { threshold: string; intervalHours: string; addresses: readonly PayoutAddressRow[] }) => ({
  threshold: Exact.of(s.threshold).toString(),
  interval: Exact.of(s.intervalHours).toString(),
  addresses: s.addresses.map((a) => ({ address: a.address, percentage: Exact.of(a.proportion).toString() })),
});

/** GET user/payment_config */
export async function readPaymentConfig(ctx: MoneyContext, account: Account): Promise<PaymentConfigResponse> {
  const now = ctx.now();
  const rows = await payoutSettingsOf(ctx.db, account.id);
  return {
    payout_settings: rows.map((r) => ({
      ticker: r.ticker,
      threshold: Exact.of(r.threshold).toString(),
      interval: decimalToNumber(r.intervalHours),
      addresses: r.addresses.map((a) => ({ address: a.address, percentage: decimalToNumber(a.proportion) })),
      paused_until: r.pausedUntil && r.pausedUntil > now ? r.pausedUntil.toISOString() : null,
    })),
  };
}

/**
 * POST user/payment_config/update: replaces the account's payout settings, pausing coins whose
 * addresses changed (see pausedUntilAfterSave), and writes one user-log entry per coin that changed
 * with its old and new settings. A save that changes addresses (changesPayoutAddresses) needs the
 * password, and the current 2FA code when the user has 2FA on (reauth.ts); the check runs before
 * the write transaction, so a failed attempt is counted even though nothing is written.
 */
export async function updatePaymentConfig(
  ctx: MoneyContext,
  user: User,
  account: Account,
  raw: unknown,
  reauth: Reauthentication,
): Promise<void> {
  const catalogue = await catalogueByTicker(ctx.db);
  const settings = parsePaymentSettings(raw, catalogue, ctx.addressNetwork);
  let reauthenticated = false;
  if (changesPayoutAddresses(await payoutSettingsOf(ctx.db, account.id), settings)) {
    await reauthenticate(ctx, user, 'payout_addresses', reauth);
    reauthenticated = true;
  }
  await ctx.db.transaction().execute(async (trx) => {
    await lockAccount(trx, account.id);
    const now = ctx.now();
    const stored = await payoutSettingsOf(trx, account.id);
    // Addresses changed by another save since the check above: this save changes them too.
    if (!reauthenticated && changesPayoutAddresses(stored, settings)) {
      throw errors.refused('PASSWORD_REQUIRED', REAUTH_MESSAGES.passwordRequired);
    }
    const previous = new Map(stored.map((s) => [s.ticker, s]));
    const everSaved = await payoutSettingsEverSaved(trx, account.id);
    const rows: PayoutSettingRow[] = settings.map((s) => ({
      ...s,
      pausedUntil: pausedUntilAfterSave(previous.get(s.ticker), s.addresses, everSaved, now),
    }));
    await replacePayoutSettings(trx, account.id, rows, now);

    const next = new Map(rows.map((r) => [r.ticker, r]));
    for (const ticker of catalogue.keys()) {
      const before = previous.get(ticker);
      const after = next.get(ticker);
      const oldShape = before ? logShape(before) : null;
      const newShape = after ? logShape(after) : null;
      if (JSON.stringify(oldShape) === JSON.stringify(newShape)) continue;
      await logEvent(trx, now, {
        userId: user.id,
        accountId: account.id,
        name: PAYOUT_SETTINGS_EVENT,
        value: {
          ticker,
          old: oldShape,
          new: newShape,
          paused_until: after?.pausedUntil && after.pausedUntil > now ? after.pausedUntil.toISOString() : null,
        },
      });
    }
  });
}
