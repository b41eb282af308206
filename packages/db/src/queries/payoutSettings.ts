import type { Executor } from '../schema.js';

export interface PayoutAddressRow {
  address: string;
  /** Percent, exact decimal text. */
  proportion: string;
}

export interface PayoutSettingRow {
  ticker: string;
  /** Coin amount, exact decimal text. */
  threshold: string;
  /** Hours, exact decimal text. */
  intervalHours: string;
  /** No payout of this coin before this time (set by an address change). */
  pausedUntil: Date | null;
  /** In the order the miner gave them. */
  addresses: PayoutAddressRow[];
}

/** The user-log event every change of payout settings writes (the history the 24-hour pause reads). */
export const PAYOUT_SETTINGS_EVENT = 'payout_settings_changed';

/** An account's payout settings with their addresses, in catalogue order. */
export async function payoutSettingsOf(db: Executor, accountId: bigint): Promise<PayoutSettingRow[]> {
  const settings = await db
    .selectFrom('payout_settings as s')
    .innerJoin('coins as c', 'c.ticker', 's.ticker')
    .select(['s.ticker', 's.threshold', 's.interval_hours', 's.paused_until'])
    .where('s.account_id', '=', accountId)
    .orderBy('c.position')
    .execute();
  const addresses = await db
    .selectFrom('payout_addresses')
    .select(['ticker', 'address', 'proportion'])
    .where('account_id', '=', accountId)
    .orderBy('ticker')
    .orderBy('position')
    .execute();
  return settings.map((s) => ({
    ticker: s.ticker,
    threshold: s.threshold,
    intervalHours: s.interval_hours,
    pausedUntil: s.paused_until,
    addresses: addresses
      .filter((a) => a.ticker === s.ticker)
      .map((a) => ({ address: a.address, proportion: a.proportion })),
  }));
}

/**
 * Replaces an account's payout settings with `settings` (coins left out are removed with their
 * addresses). Run it in a transaction with the account locked, so two saves cannot interleave.
 */
export async function replacePayoutSettings(
  db: Executor,
  accountId: bigint,
  settings: readonly PayoutSettingRow[],
  now: Date,
): Promise<void> {
  // The addresses go with their settings row (on delete cascade).
  await db.deleteFrom('payout_settings').where('account_id', '=', accountId).execute();
  if (settings.length === 0) return;
  await db
    .insertInto('payout_settings')
    .values(
      settings.map((s) => ({
        account_id: accountId,
        ticker: s.ticker,
        threshold: s.threshold,
        interval_hours: s.intervalHours,
        paused_until: s.pausedUntil,
        updated_at: now,
      })),
    )
    .execute();
  const addresses = settings.flatMap((s) =>
    s.addresses.map((a, position) => ({
      account_id: accountId,
      ticker: s.ticker,
      position,
      address: a.address,
      proportion: a.proportion,
    })),
  );
  if (addresses.length > 0) await db.insertInto('payout_addresses').values(addresses).execute();
}

/**
 * Whether the account's payout settings were ever saved before (its append-only user log holds a
 * PAYOUT_SETTINGS_EVENT). Removing every coin and adding it back must not look like a first setup.
 */
export async function payoutSettingsEverSaved(db: Executor, accountId: bigint): Promise<boolean> {
  const row = await db
    .selectFrom('user_log')
    .select('id')
    .where('account_id', '=', accountId)
    .where('log_name', '=', PAYOUT_SETTINGS_EVENT)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
