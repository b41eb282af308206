import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../connection.js';
import { createTestDatabase, insertedRow, testEngines } from '../testing.js';
import { insertAccount } from './accounts.js';
import {
  PAYOUT_SETTINGS_EVENT,
  type PayoutSettingRow,
  payoutSettingsEverSaved,
  payoutSettingsOf,
  replacePayoutSettings,
} from './payoutSettings.js';
import { appendUserLog } from './userLog.js';
import { insertUser } from './users.js';

describe.each(testEngines())('payout settings queries (%s)', (engine) => {
  let database: Database;
  let accounts = 0;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });

  async function newAccount() {
    accounts += 1;
    const user = insertedRow(await insertUser(database.db, { email: `p${accounts}@example.com`, passwordHash: null }));
    const account = insertedRow(
      await insertAccount(database.db, {
        userId: user.id,
        username: `pay${accounts}`,
        apiKey: `api-p${accounts}`,
        observerKey: `obs-p${accounts}`,
        referralCode: `PAY${accounts}`.padEnd(8, 'X'),
      }),
    );
    return { user, account };
  }

  const now = new Date('2025-03-01T12:00:00Z');
  const ltc: PayoutSettingRow = {
    ticker: 'LTC',
    threshold: '0.5',
    intervalHours: '12.5',
    pausedUntil: new Date('2025-03-02T12:00:00Z'),
    addresses: [
      { address: 'ltc-second', proportion: '25' },
      { address: 'ltc-first', proportion: '75' },
    ],
  };
  const btc: PayoutSettingRow = {
    ticker: 'BTC',
    threshold: '0.001',
    intervalHours: '24',
    pausedUntil: null,
    addresses: [{ address: 'btc-only', proportion: '100' }],
  };

  it('stores and reads settings in catalogue order with addresses in the order given', async () => {
    const { account } = await newAccount();
    await database.db.transaction().execute((trx) => replacePayoutSettings(trx, account.id, [ltc, btc], now));
    expect(await payoutSettingsOf(database.db, account.id)).toEqual([btc, ltc]);
  });

  it('replaces everything: coins left out go with their addresses', async () => {
    const { account } = await newAccount();
    await replacePayoutSettings(database.db, account.id, [ltc, btc], now);
    await replacePayoutSettings(
      database.db,
      account.id,
      [{ ...btc, addresses: [{ address: 'btc-new', proportion: '100' }] }],
      now,
    );
    expect(await payoutSettingsOf(database.db, account.id)).toEqual([
      { ...btc, addresses: [{ address: 'btc-new', proportion: '100' }] },
    ]);
    const orphans = await database.db
      .selectFrom('payout_addresses')
      .select('address')
      .where('account_id', '=', account.id)
      .where('ticker', '=', 'LTC')
      .execute();
    expect(orphans).toEqual([]);
    await replacePayoutSettings(database.db, account.id, [], now);
    expect(await payoutSettingsOf(database.db, account.id)).toEqual([]);
  });

  it('knows whether an account ever saved payout settings (its user log)', async () => {
    const { user, account } = await newAccount();
    expect(await payoutSettingsEverSaved(database.db, account.id)).toBe(false);
    await appendUserLog(database.db, { userId: user.id, accountId: account.id, name: 'login', time: now });
    expect(await payoutSettingsEverSaved(database.db, account.id)).toBe(false);
    await appendUserLog(database.db, {
      userId: user.id,
      accountId: account.id,
      name: PAYOUT_SETTINGS_EVENT,
      time: now,
    });
    expect(await payoutSettingsEverSaved(database.db, account.id)).toBe(true);
  });
});
