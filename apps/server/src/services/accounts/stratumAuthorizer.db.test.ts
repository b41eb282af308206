import { type Database, insertAccount, insertUser, liveAccountNameExists } from '@lodestone/db';
import { createTestDatabase, insertedRow, testEngines } from '@lodestone/db/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { SILENT_LOG } from '../../stratum/log.js';
import { type Harness, startHarness } from '../../stratum/testing/harness.js';
import { verifyPassword } from '../auth/passwords.js';
import { DEMO_USER_EMAIL, ensureDemoAccounts } from './demo.js';
import { accountAuthorizer } from './stratumAuthorizer.js';

describe.each(testEngines())('stratum authorize and demo accounts (%s)', (engine) => {
  let database: Database | undefined;
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    await database?.close();
    database = undefined;
  });

  async function addAccount(db: Database, username: string) {
    const user = insertedRow(
      await insertUser(db.db, { email: `${username.toLowerCase()}@example.com`, passwordHash: null }),
    );
    return insertedRow(
      await insertAccount(db.db, {
        userId: user.id,
        username,
        apiKey: `api-${username}`,
        observerKey: `obs-${username}`,
        referralCode: `REF${username.toUpperCase().replace(/[^A-Z0-9]/g, '')}`.slice(0, 32),
      }),
    );
  }

  it('creates the demo user and demo1…demoN once; the demo user has no password', async () => {
    database = await createTestDatabase({ engine });
    await ensureDemoAccounts(database.db, 3, SILENT_LOG);
    await ensureDemoAccounts(database.db, 4, SILENT_LOG); // again, with one more: idempotent
    const accounts = await database.db
      .selectFrom('accounts as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select(['a.username', 'u.email', 'u.password_hash', 'u.anonymous'])
      .orderBy('a.username')
      .execute();
    expect(accounts.map((a) => a.username)).toEqual(['demo1', 'demo2', 'demo3', 'demo4']);
    for (const a of accounts)
      expect(a).toMatchObject({ email: DEMO_USER_EMAIL, password_hash: null, anonymous: false });
    expect(await verifyPassword(null, '')).toBe(false);
  });

  it('leaves a demo name that a registered user owns to that user', async () => {
    database = await createTestDatabase({ engine });
    const taken = await addAccount(database, 'demo2');
    const warnings: object[] = [];
    await ensureDemoAccounts(database.db, 3, { ...SILENT_LOG, warn: (fields: object) => warnings.push(fields) });
    const owner = await database.db
      .selectFrom('accounts')
      .select('user_id')
      .where('username', '=', 'demo2')
      .executeTakeFirstOrThrow();
    expect(owner.user_id).toBe(taken.user_id);
    expect(warnings).toEqual([{ username: 'demo2' }]);
  });

  it('lets only live accounts mine, by their exact name, and caches the answer briefly', async () => {
    database = await createTestDatabase({ engine });
    await addAccount(database, 'Alice');
    let now = 0;
    const authorize = accountAuthorizer(database.db, { allowTtlMs: 1000, denyTtlMs: 100, now: () => now });
    expect(await authorize('Alice')).toBe(true);
    expect(await authorize('alice')).toBe(false);
    expect(await authorize('nobody')).toBe(false);

    await database.db
      .updateTable('accounts')
      .set({ deleted_at: new Date(), api_key: null, observer_key: null })
      .execute();
    expect(await liveAccountNameExists(database.db, 'Alice')).toBe(false);
    expect(await authorize('Alice')).toBe(true); // still cached
    now += 1001;
    expect(await authorize('Alice')).toBe(false);
  });

  it('lets an account it allowed before log in again while the database is out of reach, and no other', async () => {
    database = await createTestDatabase({ engine });
    await addAccount(database, 'Alice');
    let now = 0;
    const authorize = accountAuthorizer(database.db, { allowTtlMs: 1000, now: () => now });
    expect(await authorize('Alice')).toBe(true);
    await database.close();
    now += 5000;
    expect(await authorize('Alice')).toBe(true);
    await expect(authorize('Bob')).rejects.toThrow();
  });

  it('refuses a stratum login for an unknown account and accepts a registered one', async () => {
    database = await createTestDatabase({ engine });
    await addAccount(database, 'miner_one');
    harness = await startHarness({ authorize: accountAuthorizer(database.db) });
    const client = await harness.connect();
    await client.subscribe();
    expect(await client.authorize('miner_one.rig1')).toMatchObject({ result: true, error: null });
    const refused = await client.authorize('stranger.rig1');
    expect(refused.result).not.toBe(true);
    expect(JSON.stringify(refused.error)).toContain('Unknown account');
  });
});
