import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../connection.js';
import { createTestDatabase, insertedRow, testEngines } from '../testing.js';
import { accountOfUser, insertAccount, liveAccountNameExists, softDeleteAccount, usernameTaken } from './accounts.js';
import { insertCoupon, redeemCoupon } from './coupons.js';
import { loginFailureState, releaseLoginAttempt, takeLoginAttempt } from './loginFailures.js';
import { consumePasswordReset, insertPasswordReset } from './passwordResets.js';
import { useCaptchaSolution } from './secrets.js';
import { activeSession, clearSessionsTwoFactor, insertSession, revokeUserSessions } from './sessions.js';
import { appendUserLog } from './userLog.js';
import { insertUser, useTotpStep } from './users.js';

describe.each(testEngines())('account queries (%s)', (engine) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function setup() {
    database = await createTestDatabase({ engine });
    const db = database.db;
    const user = insertedRow(await insertUser(db, { email: 'a@example.com', passwordHash: null }));
    const account = insertedRow(
      await insertAccount(db, {
        userId: user.id,
        username: 'Alice',
        apiKey: 'api-a',
        observerKey: 'obs-a',
        referralCode: 'REFA1234',
      }),
    );
    return { db, user, account };
  }

  it('keeps names unique whatever the case, removed accounts included; stratum matches the exact name', async () => {
    const { db, user, account } = await setup();
    expect(await usernameTaken(db, 'ALICE')).toBe(true);
    const again = { userId: user.id, username: 'alice', apiKey: 'k2', observerKey: 'o2', referralCode: 'REFB1234' };
    expect(await insertAccount(db, again)).toEqual({ ok: false, taken: 'username' });
    expect(await accountOfUser(db, user.id, 'aLiCe')).toMatchObject({ username: 'Alice' });
    expect(await liveAccountNameExists(db, 'Alice')).toBe(true);
    expect(await liveAccountNameExists(db, 'alice')).toBe(false);
    await softDeleteAccount(db, account.id, new Date());
    expect(await liveAccountNameExists(db, 'Alice')).toBe(false);
    expect(await usernameTaken(db, 'alice')).toBe(true);
    expect(await insertAccount(db, again)).toEqual({ ok: false, taken: 'username' });
    const row = await db.selectFrom('accounts').selectAll().where('id', '=', account.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ api_key: null, observer_key: null });
  });

  it('answers a taken e-mail address or name with which one, leaving the transaction usable', async () => {
    const { db, user } = await setup();
    const outcome = await db.transaction().execute(async (trx) => {
      const email = await insertUser(trx, { email: 'a@example.com', passwordHash: null });
      const name = await insertAccount(trx, {
        userId: user.id,
        username: 'ALICE',
        apiKey: 'k3',
        observerKey: 'o3',
        referralCode: 'REFC1234',
      });
      // A refused insert raised no error, so the transaction goes on.
      const other = await insertUser(trx, { email: 'b@example.com', passwordHash: null });
      return { email, name, other };
    });
    expect(outcome.email).toEqual({ ok: false, taken: 'email' });
    expect(outcome.name).toEqual({ ok: false, taken: 'username' });
    expect(outcome.other).toMatchObject({ ok: true, row: { email: 'b@example.com' } });
    expect(await db.selectFrom('users').select('email').orderBy('email').execute()).toEqual([
      { email: 'a@example.com' },
      { email: 'b@example.com' },
    ]);
  });

  it('gives one of two racing inserts of an address the row and the other { taken }', async () => {
    const { db } = await setup();
    const register = () =>
      db.transaction().execute(async (trx) => {
        const result = await insertUser(trx, { email: 'race@example.com', passwordHash: null });
        await sql`select pg_sleep(0.05)`.execute(trx); // the other one starts before this one commits
        return result;
      });
    const results = await Promise.all([register(), register()]);
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
    expect(results.find((r) => !r.ok)).toEqual({ ok: false, taken: 'email' });
  });

  it('keeps the user log append-only', async () => {
    const { db, user } = await setup();
    await appendUserLog(db, { userId: user.id, name: 'login', value: { ip: '1.2.3.4' }, time: new Date() });
    const [entry] = await db.selectFrom('user_log').selectAll().execute();
    expect(entry).toMatchObject({ log_name: 'login', log_value: { ip: '1.2.3.4' } });
    await expect(sql`update user_log set log_name = 'x'`.execute(db)).rejects.toMatchObject({ code: '42501' });
    await expect(sql`delete from user_log`.execute(db)).rejects.toMatchObject({ code: '42501' });
  });

  it('finds only live sessions and revokes all of a user', async () => {
    const { db, user } = await setup();
    const now = new Date();
    const id = 'a'.repeat(64);
    await insertSession(db, { id, userId: user.id, now, expiresAt: new Date(now.getTime() + 60_000) });
    expect((await activeSession(db, id, now))?.user.email).toBe('a@example.com');
    expect(await activeSession(db, id, new Date(now.getTime() + 61_000))).toBeUndefined();
    expect(await revokeUserSessions(db, user.id, now)).toBe(1);
    expect(await activeSession(db, id, now)).toBeUndefined();
  });

  it('records whether a session passed 2FA at login, never for an impersonated one; 2FA off clears it', async () => {
    const { db, user } = await setup();
    const admin = insertedRow(await insertUser(db, { email: 'admin@example.com', passwordHash: null }));
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 60_000);
    const [verified, plain, impersonated] = ['c', 'd', 'e'].map((c) => c.repeat(64)) as [string, string, string];
    await insertSession(db, { id: verified, userId: user.id, twoFactorVerifiedAt: now, now, expiresAt });
    await insertSession(db, { id: plain, userId: user.id, now, expiresAt });
    await insertSession(db, { id: impersonated, userId: user.id, impersonatorUserId: admin.id, now, expiresAt });
    expect((await activeSession(db, verified, now))?.session.two_factor_verified_at).toEqual(now);
    expect((await activeSession(db, plain, now))?.session.two_factor_verified_at).toBeNull();
    await expect(
      insertSession(db, {
        id: 'f'.repeat(64),
        userId: user.id,
        impersonatorUserId: admin.id,
        twoFactorVerifiedAt: now,
        now,
        expiresAt,
      }),
    ).rejects.toMatchObject({ code: '23514' });
    await expect(
      db.updateTable('sessions').set({ two_factor_verified_at: now }).where('id', '=', impersonated).execute(),
    ).rejects.toMatchObject({ code: '23514' });

    expect(await clearSessionsTwoFactor(db, user.id)).toBe(1);
    expect((await activeSession(db, verified, now))?.session.two_factor_verified_at).toBeNull();
  });

  it('uses a TOTP step, a recovery key and a captcha solution once', async () => {
    const { db, user } = await setup();
    expect(await useTotpStep(db, user.id, 100)).toBe(true);
    expect(await useTotpStep(db, user.id, 100)).toBe(false);
    expect(await useTotpStep(db, user.id, 99)).toBe(false);
    expect(await useTotpStep(db, user.id, 101)).toBe(true);

    const now = new Date();
    const keyHash = 'b'.repeat(64);
    await insertPasswordReset(db, { keyHash, userId: user.id, now, expiresAt: new Date(now.getTime() + 60_000) });
    expect(await consumePasswordReset(db, keyHash, user.id + 1n, now)).toBe(false);
    expect(await consumePasswordReset(db, keyHash, user.id, now)).toBe(true);
    expect(await consumePasswordReset(db, keyHash, user.id, now)).toBe(false);

    const expires = new Date(now.getTime() + 60_000);
    expect(await useCaptchaSolution(db, 'sig', expires, now)).toBe(true);
    expect(await useCaptchaSolution(db, 'sig', expires, now)).toBe(false);
  });

  it('counts login attempts, locks by the given back-off, refuses while locked and forgets old failures', async () => {
    const { db } = await setup();
    const t0 = new Date('2030-01-01T00:00:00Z');
    const lock = (n: number) => (n >= 2 ? 1000 * n : 0);
    const forget = new Date(t0.getTime() - 3600_000);
    const take = (at: Date) => takeLoginAttempt(db, 'x@example.com', at, new Date(at.getTime() - 3600_000), lock);
    expect(await takeLoginAttempt(db, 'x@example.com', t0, forget, lock)).toEqual({
      taken: true,
      failures: 1,
      lockedUntil: null,
    });
    const second = await take(t0);
    expect(second).toEqual({ taken: true, failures: 2, lockedUntil: new Date(t0.getTime() + 2000) });
    // Locked: nothing is counted.
    expect(await take(new Date(t0.getTime() + 1000))).toEqual({
      taken: false,
      lockedUntil: new Date(t0.getTime() + 2000),
    });
    expect(await loginFailureState(db, 'x@example.com')).toEqual({
      failures: 2,
      lockedUntil: new Date(t0.getTime() + 2000),
    });
    // Giving the attempt back lowers the count and lifts the lock it set.
    await releaseLoginAttempt(db, 'x@example.com', second.lockedUntil);
    expect(await loginFailureState(db, 'x@example.com')).toEqual({ failures: 1, lockedUntil: null });
    // Much later: the count starts again.
    const later = new Date(t0.getTime() + 2 * 3600_000);
    expect(await take(later)).toEqual({ taken: true, failures: 1, lockedUntil: null });
    expect(await loginFailureState(db, 'x@example.com')).toEqual({ failures: 1, lockedUntil: null });
  });

  it('takes concurrent login attempts one at a time', async () => {
    const { db } = await setup();
    const now = new Date('2030-01-01T00:00:00Z');
    const lock = (n: number) => (n >= 3 ? 60_000 : 0);
    const attempts = await Promise.all(
      Array.from({ length: 10 }, () =>
        takeLoginAttempt(db, 'y@example.com', now, new Date(now.getTime() - 3600_000), lock),
      ),
    );
    expect(attempts.filter((a) => a.taken)).toHaveLength(3);
    expect(await loginFailureState(db, 'y@example.com')).toEqual({
      failures: 3,
      lockedUntil: new Date(now.getTime() + 60_000),
    });
  });

  it('redeems a coupon once per account and never beyond its uses', async () => {
    const { db, account } = await setup();
    const coupon = await insertCoupon(db, { code: 'Two', discount: '0.2', maxUses: 1 });
    expect(await redeemCoupon(db, coupon.id, account.id, new Date())).toBe(true);
    expect(await redeemCoupon(db, coupon.id, account.id, new Date())).toBe(false);
    await expect(sql`update coupons set uses = 2`.execute(db)).rejects.toMatchObject({ code: '23514' });
    await expect(insertCoupon(db, { code: 'TWO', discount: '0.3' })).rejects.toMatchObject({ code: '23505' });
  });
});
