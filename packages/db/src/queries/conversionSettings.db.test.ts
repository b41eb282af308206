import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../connection.js';
import { createTestDatabase, insertedRow, testEngines } from '../testing.js';
import { insertAccount } from './accounts.js';
import { conversionSettingsOf, replaceConversionSettings } from './conversionSettings.js';
import { creditAccounts } from './ppsCredits.js';
import { insertUser } from './users.js';

describe.each(testEngines())('conversion settings queries (%s)', (engine) => {
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
    const user = insertedRow(await insertUser(database.db, { email: `c${accounts}@example.com`, passwordHash: null }));
    return insertedRow(
      await insertAccount(database.db, {
        userId: user.id,
        username: `conv${accounts}`,
        apiKey: `api-c${accounts}`,
        observerKey: `obs-c${accounts}`,
        referralCode: `CONV${accounts}`.padEnd(8, 'X'),
      }),
    );
  }

  it('reads nothing for a new account', async () => {
    const account = await newAccount();
    const stored = await conversionSettingsOf(database.db, account.id);
    expect(stored.allAlgorithms).toBe(false);
    expect(stored.lists.size).toBe(0);
  });

  it('replaces only the lists given, in catalogue order, and sets the shared-list flag', async () => {
    const account = await newAccount();
    const db = database.db;
    await db.transaction().execute((trx) =>
      replaceConversionSettings(
        trx,
        account.id,
        new Map([
          [
            'scrypt',
            [
              { ticker: 'DOGE', proportion: '66.67' },
              { ticker: 'BTC', proportion: '33.33' },
            ],
          ],
          ['sha256', [{ ticker: 'BTC', proportion: '100' }]],
        ]),
        false,
      ),
    );
    await db
      .transaction()
      .execute((trx) =>
        replaceConversionSettings(
          trx,
          account.id,
          new Map([['sha256', [{ ticker: 'LTC', proportion: '100' }]]]),
          false,
        ),
      );
    let stored = await conversionSettingsOf(db, account.id);
    expect(Object.fromEntries(stored.lists)).toEqual({
      scrypt: [
        { ticker: 'BTC', proportion: '33.33' },
        { ticker: 'DOGE', proportion: '66.67' },
      ],
      sha256: [{ ticker: 'LTC', proportion: '100' }],
    });

    await db
      .transaction()
      .execute((trx) =>
        replaceConversionSettings(trx, account.id, new Map([['all', [{ ticker: 'KAS', proportion: '100' }]]]), true),
      );
    stored = await conversionSettingsOf(db, account.id);
    expect(stored.allAlgorithms).toBe(true);
    expect(stored.lists.get('all')).toEqual([{ ticker: 'KAS', proportion: '100' }]);
    // Crediting reads the same rows: the shared list once the flag is set.
    const credit = await creditAccounts(db, [account.username], 'scrypt');
    expect(credit.get(account.username)?.conversion).toEqual([{ ticker: 'KAS', proportion: '100' }]);
  });

  it('never touches another account’s lists', async () => {
    const a = await newAccount();
    const b = await newAccount();
    const list = new Map([['x11', [{ ticker: 'DASH', proportion: '100' }]]] as const);
    await replaceConversionSettings(database.db, a.id, list, false);
    await replaceConversionSettings(
      database.db,
      b.id,
      new Map([['x11', [{ ticker: 'BTC', proportion: '100' }]]]),
      true,
    );
    expect((await conversionSettingsOf(database.db, a.id)).lists.get('x11')).toEqual([
      { ticker: 'DASH', proportion: '100' },
    ]);
    expect((await conversionSettingsOf(database.db, a.id)).allAlgorithms).toBe(false);
  });
});
