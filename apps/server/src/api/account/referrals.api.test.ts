import {
  mostUsedAlgoResponse,
  redirectConfigResponse,
  referralsResponse,
  userConfigResponse,
} from '@lodestone/contract';
import { balancesOfAccount, insertCoupon, reconcileLedger, savePrices, userLogOfUser } from '@lodestone/db';
import type { AlgorithmKey } from '@lodestone/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, nextAddress, post, registerUser, solveCaptcha, type TestUser } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { applyShareBatch } from '../../jobs/accounting.js';
import { shareBatch, shareCounts } from '../../jobs/testing.js';

describe('referrals, coupons, redirects and the most used algorithm', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function settings(user: TestUser) {
    return userConfigResponse.parse((await get(t.app, '/v1/user/config', { cookie: user.cookie })).json())
      .account_specific;
  }

  /** Minutes of accepted shares for an account's worker, ending now: one share batch per minute. */
  async function mine(account: string, algorithm: AlgorithmKey, minutes: number, difficulty: string, daysAgo = 0) {
    const end = new Date(Date.now() - daysAgo * 24 * 3600_000);
    end.setUTCSeconds(0, 0);
    for (let i = 0; i < minutes; i++) {
      const at = new Date(end.getTime() - i * 60_000 + 30_000).toISOString();
      await applyShareBatch(
        t.database.db,
        shareBatch(at, [shareCounts(account, 'rig1', { acceptedDifficulty: Number(difficulty), valid: 1 })], {
          algorithm,
        }),
      );
    }
  }

  it('reports the referral rewards the ledger credited, valued in BTC', async () => {
    const referrer = await registerUser(t.app);
    const [own] = await settings(referrer);
    const referred = await registerUser(t.app, { referral: own?.referral_code });
    const now = new Date();
    await savePrices(t.database.db, {
      source: 'test',
      takenAt: now,
      quotes: [
        { ticker: 'LTC', usd: '80' },
        { ticker: 'BTC', usd: '100000' },
      ],
    });
    // 10 LTC of PPS value (1,600,000 × 6.25 LTC ÷ 1,000,000); the 1% fee is 0.1 LTC, 20% of it 0.02 LTC.
    const batch = shareBatch(new Date(now.getTime() - 1000).toISOString(), [
      shareCounts(referred.username, 'rig1', { acceptedDifficulty: 1_600_000, valid: 1 }),
    ]);
    batch.network = { coin: 'LTC', height: 1, reward: '625000000', difficulty: '1000000', demo: false };
    const applied = await applyShareBatch(t.database.db, batch, { feePercent: 1, priceMaxAgeMs: 600_000 });
    expect(applied.credit).toEqual({ kind: 'credited' });

    const body = referralsResponse.parse(
      (
        await get(t.app, '/v1/user/referrals', { cookie: referrer.cookie, query: { account_name: referrer.username } })
      ).json(),
    );
    // 0.02 LTC × $80 ÷ $100,000 = 0.000016 BTC
    expect(body.revenue).toBe('0.00001600');
    expect(body.referals).toEqual([expect.objectContaining({ username: referred.username, revenue: '0.00001600' })]);
    const referrerAccount = await t.database.db
      .selectFrom('accounts')
      .select('id')
      .where('username', '=', referrer.username)
      .executeTakeFirstOrThrow();
    expect(await balancesOfAccount(t.database.db, referrerAccount.id)).toEqual([{ coin: 'LTC', amount: 2_000_000n }]);
    expect(await reconcileLedger(t.database.db)).toEqual([]);
  });

  it('registers with a referral code: the new account is referred and listed with its hashrate', async () => {
    const referrer = await registerUser(t.app);
    const [own] = await settings(referrer);
    const referred = await registerUser(t.app, { referral: own?.referral_code.toLowerCase() });
    await mine(referred.username, 'sha256', 3, '600');

    const res = await get(t.app, '/v1/user/referrals', {
      cookie: referrer.cookie,
      query: { account_name: referrer.username },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = referralsResponse.parse(res.json());
    expect(body.referral_count).toBe(1);
    expect(body.revenue).toBe('0.00000000');
    expect(body.hashrates.map((h) => h.algorithm)).toEqual([
      'scrypt',
      'sha256',
      'eaglesong',
      'blake2s',
      'x11',
      'kheavyhash',
    ]);
    expect(body.hashrates.find((h) => h.algorithm === 'sha256')?.value).toBeGreaterThan(0);
    expect(body.hashrates.find((h) => h.algorithm === 'scrypt')).toMatchObject({ value: 0, units: 'H/s' });
    expect(body.referals).toHaveLength(1);
    expect(body.referals[0]).toMatchObject({ username: referred.username, revenue: '0.00000000' });
    expect(body.referals[0]?.hashrates.map((h) => h.algorithm)).toEqual(['sha256']);

    const row = await t.database.db
      .selectFrom('accounts')
      .select(['referred_by'])
      .where('username', '=', referred.username)
      .executeTakeFirstOrThrow();
    expect(row.referred_by).not.toBeNull();
  });

  it('registers with a coupon code as the discount, and refuses an unknown code', async () => {
    await insertCoupon(t.database.db, { code: 'WELCOME25', discount: '0.25' });
    const user = await registerUser(t.app, { referral: 'welcome25' });
    expect((await settings(user))[0]?.fee_discount).toBe(0.25);

    const address = nextAddress();
    const res = await post(
      t.app,
      '/v1/user/register',
      {
        username: 'unknown_code',
        email: 'unknown.code@example.com',
        password: 'a long enough password',
        referral: 'NOPE1234',
        captchaToken: await solveCaptcha(t.app, address),
      },
      { remoteAddress: address },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Unknown referral or discount code', code: 'UNKNOWN_REFERRAL_CODE' });
    // Nothing was created.
    const users = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'unknown.code@example.com')
      .execute();
    expect(users).toEqual([]);
  });

  it('redeems coupons: the larger discount wins; unknown, expired, used-up and repeated ones are refused', async () => {
    const user = await registerUser(t.app);
    const redeem = (coupon: string) =>
      post(t.app, '/v1/user/coupon', { coupon }, { cookie: user.cookie, query: { account_name: user.username } });
    const hour = 3600_000;
    await insertCoupon(t.database.db, { code: 'TEN', discount: '0.1' });
    await insertCoupon(t.database.db, { code: 'FIFTY', discount: '0.5', validUntil: new Date(Date.now() + hour) });
    await insertCoupon(t.database.db, { code: 'OLD', discount: '0.9', validUntil: new Date(Date.now() - hour) });
    await insertCoupon(t.database.db, { code: 'SOON', discount: '0.9', validFrom: new Date(Date.now() + hour) });
    await insertCoupon(t.database.db, { code: 'ONCE', discount: '0.9', maxUses: 1 });
    await t.database.db.updateTable('coupons').set({ uses: 1 }).where('code', '=', 'ONCE').execute();

    const fifty = await redeem('fifty');
    expect(fifty.statusCode, fifty.body).toBe(200);
    expect(fifty.json()).toEqual({ result: true });
    expect((await settings(user))[0]?.fee_discount).toBe(0.5);
    expect((await redeem('TEN')).statusCode).toBe(200);
    expect((await settings(user))[0]?.fee_discount).toBe(0.5);

    const refusals: [string, string, string][] = [
      ['NOSUCH', 'Unknown coupon code', 'UNKNOWN_COUPON'],
      ['OLD', 'This coupon has expired', 'COUPON_EXPIRED'],
      ['SOON', 'This coupon is not valid yet', 'COUPON_NOT_YET_VALID'],
      ['ONCE', 'This coupon has been used up', 'COUPON_USED_UP'],
      ['TEN', 'This coupon was already redeemed for this account', 'COUPON_ALREADY_REDEEMED'],
    ];
    for (const [code, error, errorCode] of refusals) {
      const res = await redeem(code);
      expect(res.statusCode, code).toBe(400);
      expect(res.json()).toEqual({ error, code: errorCode });
    }
    expect((await redeem('')).json().error).toBe('Coupon code is required');
    const uses = await t.database.db
      .selectFrom('coupons')
      .select(['code', 'uses'])
      .where('code', 'in', ['TEN', 'FIFTY'])
      .orderBy('code')
      .execute();
    expect(uses).toEqual([
      { code: 'FIFTY', uses: 1 },
      { code: 'TEN', uses: 1 },
    ]);
    const row = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    const log = await userLogOfUser(t.database.db, row.id);
    expect(log.filter((e) => e.log_name === 'coupon_redeemed').map((e) => e.log_value.code)).toEqual(['TEN', 'FIFTY']);
  });

  it('saves redirect settings (a JSON map in the form), reads them back, and refuses more than 100% in total', async () => {
    const owner = await registerUser(t.app);
    const friend = await registerUser(t.app);
    const other = await registerUser(t.app);
    const save = (map: unknown) =>
      post(
        t.app,
        '/v1/user/redirect_config/update',
        { redirect_settings: typeof map === 'string' ? map : JSON.stringify(map) },
        { cookie: owner.cookie, query: { account_name: owner.username } },
      );
    const read = async () =>
      redirectConfigResponse.parse(
        (
          await get(t.app, '/v1/user/redirect_config', {
            cookie: owner.cookie,
            query: { account_name: owner.username },
          })
        ).json(),
      );

    expect(await read()).toEqual({ redirect_settings: [] });
    const ok = await save({ [friend.username]: 30, [other.username]: 12.5 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ result: true });
    expect((await read()).redirect_settings).toEqual(
      expect.arrayContaining([
        { username: friend.username, percentage: 30 },
        { username: other.username, percentage: 12.5 },
      ]),
    );

    const cases: [unknown, string][] = [
      [{ [friend.username]: 60, [other.username]: 50 }, 'The percentages add up to more than 100'],
      // Within the contract's float tolerance, refused by the exact sum in the database.
      [{ [friend.username]: 50, [other.username]: 50.0000000001 }, 'The percentages add up to more than 100'],
      [{ [friend.username]: 101 }, 'Percentages are 0 to 100'],
      [{ [friend.username]: -1 }, 'Percentages are 0 to 100'],
      [{ [owner.username]: 10 }, 'An account cannot redirect to itself'],
      [{ no_such_account: 10 }, 'Unknown account: no_such_account'],
      ['{not json', 'redirect_settings must be JSON'],
    ];
    for (const [map, error] of cases) {
      const res = await save(map);
      expect(res.statusCode, JSON.stringify(map)).toBe(400);
      expect(res.json().error).toBe(error);
    }
    // Refused saves changed nothing; 0 removes a target; JSON API clients may send the map itself.
    expect((await read()).redirect_settings).toHaveLength(2);
    expect((await save({ [friend.username]: 100, [other.username]: 0 })).statusCode).toBe(200);
    expect((await read()).redirect_settings).toEqual([{ username: friend.username, percentage: 100 }]);
    const json = await post(
      t.app,
      '/v1/user/redirect_config/update',
      { redirect_settings: { [other.username]: 5 } } as unknown as Record<string, string>,
      { cookie: owner.cookie, query: { account_name: owner.username }, json: true },
    );
    expect(json.statusCode, json.body).toBe(200);
    expect((await read()).redirect_settings).toEqual([{ username: other.username, percentage: 5 }]);
  });

  it('the database itself refuses redirect percentages above 100 in total', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const c = await registerUser(t.app);
    const id = async (u: TestUser) =>
      (
        await t.database.db
          .selectFrom('accounts')
          .select('id')
          .where('username', '=', u.username)
          .executeTakeFirstOrThrow()
      ).id;
    const [ia, ib, ic] = [await id(a), await id(b), await id(c)];
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('redirect_settings')
          .values({ account_id: ia, target_account_id: ib, percentage: '70' })
          .execute();
        await trx
          .insertInto('redirect_settings')
          .values({ account_id: ia, target_account_id: ic, percentage: '40' })
          .execute();
      }),
    ).rejects.toMatchObject({ code: '23514' });
  });

  it('answers the most used algorithm of the last 30 days, SCRYPT when the account never mined', async () => {
    const user = await registerUser(t.app);
    const ask = async () =>
      mostUsedAlgoResponse.parse(
        (
          await get(t.app, '/v1/user/mostUsedAlgo', { cookie: user.cookie, query: { account_name: user.username } })
        ).json(),
      ).algorithm;
    expect(await ask()).toBe('SCRYPT');
    await mine(user.username, 'x11', 5, '1');
    await mine(user.username, 'sha256', 2, '1000');
    expect(await ask()).toBe('X11');
    // Older than 30 days does not count.
    await mine(user.username, 'sha256', 20, '1', 40);
    expect(await ask()).toBe('X11');
  });

  it('records the landing route a visitor came from and keeps it on the user who registers', async () => {
    const res = await get(t.app, '/v1/user/set_referral', { query: { code: 'Reddit' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ result: true });
    const cookie = res.cookies.find((c) => c.name === 'lodestone_ref');
    expect(cookie).toMatchObject({ value: 'reddit', httpOnly: true, sameSite: 'Lax' });
    expect((await get(t.app, '/v1/user/set_referral', { query: { code: '../etc' } })).statusCode).toBe(400);

    const address = nextAddress();
    const reg = await t.app.inject({
      method: 'POST',
      url: '/v1/user/register',
      remoteAddress: address,
      cookies: { lodestone_ref: 'reddit' },
      headers: { origin: 'http://localhost:8080' },
      payload: {
        username: 'from_reddit',
        email: 'reddit@example.com',
        password: 'a long enough password',
        captchaToken: await solveCaptcha(t.app, address),
      },
    });
    expect(reg.statusCode, reg.body).toBe(200);
    const user = await t.database.db
      .selectFrom('users')
      .select('referral_source')
      .where('email', '=', 'reddit@example.com')
      .executeTakeFirstOrThrow();
    expect(user.referral_source).toBe('reddit');
    const visits = await t.database.db.selectFrom('referral_visits').selectAll().execute();
    expect(visits).toEqual([{ source: 'reddit', day: new Date().toISOString().slice(0, 10), visits: 1 }]);
  });
});
