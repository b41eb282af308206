import { encodeSegwitAddress, NETWORKS, p2pkhAddress } from '@lodestone/chain';
import { conversionConfigResponse, paymentConfigResponse } from '@lodestone/contract';
import { saveNetworkState, userLogOfAccount } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, nextAddress, post, registerUser, type TestUser, totpCode } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

const program = (seed: number) => Uint8Array.from({ length: 20 }, (_, i) => (seed * 37 + i) & 255);
const btc = (seed: number) => encodeSegwitAddress('bc', 0, program(seed));
const btcLegacy = (seed: number) => p2pkhAddress(program(seed), NETWORKS.bitcoin);
const ltc = (seed: number) => encodeSegwitAddress('ltc', 0, program(seed));

describe.each(testEngines())('conversion and payout settings on %s', (engine) => {
  let t: TestApp;
  let clock = Date.now();
  beforeAll(async () => {
    t = await createTestApp({}, undefined, engine, { now: () => new Date(clock) });
  });
  afterAll(async () => {
    await t?.close();
  });

  const accountOf = async (user: TestUser) =>
    t.database.db.selectFrom('accounts').selectAll().where('username', '=', user.username).executeTakeFirstOrThrow();

  const conversionConfig = async (user: TestUser) => {
    const res = await get(t.app, '/v1/user/conversion_config', {
      cookie: user.cookie,
      query: { account_name: user.username },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return conversionConfigResponse.parse(res.json());
  };
  const saveConversion = (user: TestUser, settings: unknown, allAlgorithms?: boolean, json = false) =>
    post(
      t.app,
      '/v1/user/conversion_config/update',
      json
        ? ({ conversion_settings: settings, all_algorithms: allAlgorithms } as unknown as Record<string, string>)
        : {
            conversion_settings: typeof settings === 'string' ? settings : JSON.stringify(settings),
            ...(allAlgorithms === undefined ? {} : { all_algorithms: String(allAlgorithms) }),
          },
      { cookie: user.cookie, query: { account_name: user.username }, json },
    );

  const paymentConfig = async (user: TestUser) => {
    const res = await get(t.app, '/v1/user/payment_config', {
      cookie: user.cookie,
      query: { account_name: user.username },
    });
    expect(res.statusCode, res.body).toBe(200);
    return paymentConfigResponse.parse(res.json());
  };
  /** Saves as the website does; with the user's password unless `reauth` says otherwise. */
  const savePayment = (user: TestUser, settings: unknown, reauth: { password?: string; code?: string } = {}) =>
    post(
      t.app,
      '/v1/user/payment_config/update',
      {
        payment_settings: typeof settings === 'string' ? settings : JSON.stringify(settings),
        ...(reauth.password === undefined
          ? { password: user.password }
          : reauth.password
            ? { password: reauth.password }
            : {}),
        ...(reauth.code ? { code: reauth.code } : {}),
      },
      { cookie: user.cookie, query: { account_name: user.username }, remoteAddress: nextAddress() },
    );

  describe('conversion config', () => {
    it('gives a new account the coin each algorithm mines, and an empty shared list', async () => {
      const user = await registerUser(t.app);
      expect(await conversionConfig(user)).toEqual({
        scrypt: [{ ticker: 'LTC', proportion: 100 }],
        sha256: [{ ticker: 'BTC', proportion: 100 }],
        eaglesong: [{ ticker: 'CKB', proportion: 100 }],
        blake2s: [{ ticker: 'KDA', proportion: 100 }],
        x11: [{ ticker: 'DASH', proportion: 100 }],
        kheavyhash: [{ ticker: 'KAS', proportion: 100 }],
        all_algorithms_setting: false,
        all_algorithms: [],
      });
    });

    it('saves per-algorithm lists (decimals allowed, 0% dropped); algorithms left out keep theirs; logs it', async () => {
      const user = await registerUser(t.app);
      const res = await saveConversion(
        user,
        {
          scrypt: [
            { ticker: 'DOGE', proportion: 33.33 },
            { ticker: 'LTC', proportion: 33.33 },
            { ticker: 'BTC', proportion: 33.34 },
            { ticker: 'KAS', proportion: 0 },
          ],
          sha256: [{ ticker: 'usdc', proportion: 100 }],
        },
        false,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ result: true });
      const config = await conversionConfig(user);
      expect(config.scrypt).toEqual([
        { ticker: 'BTC', proportion: 33.34 },
        { ticker: 'LTC', proportion: 33.33 },
        { ticker: 'DOGE', proportion: 33.33 },
      ]);
      expect(config.sha256).toEqual([{ ticker: 'USDC', proportion: 100 }]);
      expect(config.x11).toEqual([{ ticker: 'DASH', proportion: 100 }]);
      expect(config.all_algorithms_setting).toBe(false);

      const account = await accountOf(user);
      const [entry] = await userLogOfAccount(t.database.db, account.id);
      expect(entry).toMatchObject({
        log_name: 'conversion_settings_changed',
        log_value: {
          all_algorithms: false,
          conversion_settings: {
            scrypt: [
              { ticker: 'DOGE', proportion: '33.33' },
              { ticker: 'LTC', proportion: '33.33' },
              { ticker: 'BTC', proportion: '33.34' },
            ],
            sha256: [{ ticker: 'USDC', proportion: '100' }],
          },
        },
      });
    });

    it('with all algorithms: stores the shared list and copies it into every algorithm; can be turned off', async () => {
      const user = await registerUser(t.app);
      const shared = [
        { ticker: 'BTC', proportion: 50 },
        { ticker: 'KAS', proportion: 50 },
      ];
      // A JSON API client may send the fields as JSON values rather than multipart text.
      const res = await saveConversion(user, shared, true, true);
      expect(res.statusCode, res.body).toBe(200);
      const config = await conversionConfig(user);
      expect(config.all_algorithms_setting).toBe(true);
      expect(config.all_algorithms).toEqual(shared);
      for (const key of ['scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash'] as const) {
        expect(config[key], key).toEqual(shared);
      }
      const account = await accountOf(user);
      const rows = await t.database.db
        .selectFrom('conversion_settings')
        .select(['algorithm'])
        .where('account_id', '=', account.id)
        .execute();
      expect(new Set(rows.map((r) => r.algorithm))).toEqual(
        new Set(['all', 'scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash']),
      );

      const off = await saveConversion(user, { scrypt: [{ ticker: 'LTC', proportion: 100 }] }, false);
      expect(off.statusCode, off.body).toBe(200);
      const after = await conversionConfig(user);
      expect(after.all_algorithms_setting).toBe(false);
      expect(after.scrypt).toEqual([{ ticker: 'LTC', proportion: 100 }]);
      // The other algorithms keep the copies; the shared list is remembered for the next time.
      expect(after.sha256).toEqual(shared);
      expect(after.all_algorithms).toEqual(shared);
    });

    it('refuses invalid lists with a message and changes nothing', async () => {
      const user = await registerUser(t.app);
      const cases: [unknown, boolean, string][] = [
        [{ scrypt: [] }, false, 'You must select at least one coin before saving.'],
        [[{ ticker: 'BTC', proportion: 0 }], true, 'You must select at least one coin before saving.'],
        [
          {
            scrypt: [
              { ticker: 'BTC', proportion: 60 },
              { ticker: 'LTC', proportion: 30 },
            ],
          },
          false,
          'The proportions for SCRYPT add up to 90, not 100',
        ],
        [
          [
            { ticker: 'BTC', proportion: 60 },
            { ticker: 'LTC', proportion: 60 },
          ],
          true,
          'The proportions add up to 120, not 100',
        ],
        [{ x11: [{ ticker: 'BTC', proportion: 120 }] }, false, 'Proportions are numbers from 0 to 100'],
        [{ x11: [{ ticker: 'BTC', proportion: -5 }] }, false, 'Proportions are numbers from 0 to 100'],
        [{ x11: [{ ticker: 'NOPE', proportion: 100 }] }, false, 'Unknown coin: NOPE'],
        [
          {
            x11: [
              { ticker: 'BTC', proportion: 50 },
              { ticker: 'BTC', proportion: 50 },
            ],
          },
          false,
          'BTC is listed twice for X11',
        ],
        [{ ethash: [{ ticker: 'BTC', proportion: 100 }] }, false, 'Unknown algorithm: ethash'],
        [{ scrypt: [{ ticker: 'BTC', proportion: 100 }] }, true, 'Expected a list of coins'],
        ['{not json', false, 'conversion_settings must be JSON'],
      ];
      for (const [settings, all, message] of cases) {
        const res = await saveConversion(user, settings, all);
        expect(res.statusCode, message).toBe(400);
        expect(res.json(), message).toEqual({ error: message, code: 'VALIDATION_FAILED' });
      }
      const missing = await post(
        t.app,
        '/v1/user/conversion_config/update',
        { all_algorithms: 'false' },
        { cookie: user.cookie, query: { account_name: user.username } },
      );
      expect(missing.json().error).toBe('conversion_settings is required');
      const account = await accountOf(user);
      const rows = await t.database.db
        .selectFrom('conversion_settings')
        .select('ticker')
        .where('account_id', '=', account.id)
        .execute();
      expect(rows).toEqual([]);
    });
  });

  describe('conversion defaults', () => {
    it('follow the coin an algorithm actually mines, as crediting does (BTC if it cannot be paid out)', async () => {
      const observed = { height: 1, reward: 1n, difficulty: '1', demo: true, observedAt: new Date(clock) };
      await saveNetworkState(t.database.db, { ...observed, algorithm: 'scrypt', coin: 'DOGE' });
      await saveNetworkState(t.database.db, { ...observed, algorithm: 'x11', coin: 'NOTPAID' });
      const config = await conversionConfig(await registerUser(t.app));
      expect(config.scrypt).toEqual([{ ticker: 'DOGE', proportion: 100 }]);
      expect(config.x11).toEqual([{ ticker: 'BTC', proportion: 100 }]);
      expect(config.sha256).toEqual([{ ticker: 'BTC', proportion: 100 }]);
    });
  });

  describe('payment config', () => {
    const btcSetting = (addresses: { address: string; proportion: number }[], threshold = '0.01', interval = 24) => ({
      threshold,
      interval,
      addresses,
    });

    it('starts empty; the first setup is stored unpaused and logged', async () => {
      const user = await registerUser(t.app);
      expect(await paymentConfig(user)).toEqual({ payout_settings: [] });
      const res = await savePayment(user, {
        LTC: { threshold: 2.5, interval: '12.5', addresses: [{ address: ltc(1), proportion: 100 }] },
        btc: btcSetting([
          { address: btc(1), proportion: 60 },
          { address: btcLegacy(2), proportion: 40 },
        ]),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ result: true });
      expect(await paymentConfig(user)).toEqual({
        payout_settings: [
          {
            ticker: 'BTC',
            threshold: '0.01',
            interval: 24,
            addresses: [
              { address: btc(1), percentage: 60 },
              { address: btcLegacy(2), percentage: 40 },
            ],
            paused_until: null,
          },
          {
            ticker: 'LTC',
            threshold: '2.5',
            interval: 12.5,
            addresses: [{ address: ltc(1), percentage: 100 }],
            paused_until: null,
          },
        ],
      });
      const account = await accountOf(user);
      const stored = await t.database.db
        .selectFrom('payout_settings')
        .select(['ticker', 'paused_until'])
        .where('account_id', '=', account.id)
        .orderBy('ticker')
        .execute();
      expect(stored).toEqual([
        { ticker: 'BTC', paused_until: null },
        { ticker: 'LTC', paused_until: null },
      ]);
      const log = (await userLogOfAccount(t.database.db, account.id)).filter((e) => e.log_name.startsWith('payout'));
      expect(log.map((e) => e.log_name)).toEqual(['payout_settings_changed', 'payout_settings_changed']);
      expect(log.find((e) => (e.log_value as { ticker: string }).ticker === 'LTC')?.log_value).toEqual({
        ticker: 'LTC',
        old: null,
        new: { threshold: '2.5', interval: '12.5', addresses: [{ address: ltc(1), percentage: '100' }] },
        paused_until: null,
      });
    });

    it('pauses a coin for 24 hours when its addresses change, not when only its threshold does', async () => {
      const user = await registerUser(t.app);
      const first = btcSetting([{ address: btc(1), proportion: 100 }]);
      expect((await savePayment(user, { BTC: first })).statusCode).toBe(200);
      const account = await accountOf(user);
      const pausedUntil = async (ticker: string) =>
        (
          await t.database.db
            .selectFrom('payout_settings')
            .select('paused_until')
            .where('account_id', '=', account.id)
            .where('ticker', '=', ticker)
            .executeTakeFirst()
        )?.paused_until;

      // Threshold and interval changes move no money elsewhere: no pause.
      expect((await savePayment(user, { BTC: { ...first, threshold: '0.02', interval: 6 } })).statusCode).toBe(200);
      expect(await pausedUntil('BTC')).toBeNull();

      clock += 60_000;
      const changed = btcSetting([{ address: btc(2), proportion: 100 }], '0.02', 6);
      expect((await savePayment(user, { BTC: changed })).statusCode).toBe(200);
      expect(await pausedUntil('BTC')).toEqual(new Date(clock + 24 * 3600_000));
      const shown = (await paymentConfig(user)).payout_settings[0];
      expect(shown?.paused_until).toBe(new Date(clock + 24 * 3600_000).toISOString());
      const [entry] = await userLogOfAccount(t.database.db, account.id);
      expect(entry?.log_value).toMatchObject({
        ticker: 'BTC',
        old: { addresses: [{ address: btc(1), percentage: '100' }] },
        new: { addresses: [{ address: btc(2), percentage: '100' }] },
      });

      // Saving again unchanged keeps the pause where it was.
      const pause = await pausedUntil('BTC');
      clock += 60_000;
      expect((await savePayment(user, { BTC: changed })).statusCode).toBe(200);
      expect(await pausedUntil('BTC')).toEqual(pause);

      // A coin added after the first setup waits too (a balance could be converted into it)...
      expect(
        (
          await savePayment(user, {
            BTC: changed,
            LTC: { threshold: 1, interval: 1, addresses: [{ address: ltc(3), proportion: 100 }] },
          })
        ).statusCode,
      ).toBe(200);
      expect(await pausedUntil('LTC')).toEqual(new Date(clock + 24 * 3600_000));
      // ...and so does a coin removed and added back (removing every coin is no fresh start).
      expect((await savePayment(user, {})).statusCode).toBe(200);
      expect((await paymentConfig(user)).payout_settings).toEqual([]);
      clock += 60_000;
      expect((await savePayment(user, { BTC: first })).statusCode).toBe(200);
      expect(await pausedUntil('BTC')).toEqual(new Date(clock + 24 * 3600_000));
    });

    it('asks for the password whenever addresses change, not for threshold or interval changes', async () => {
      const user = await registerUser(t.app);
      const first = { BTC: btcSetting([{ address: btc(1), proportion: 100 }]) };
      const noPassword = { password: '' };

      // The first setup sets where the money goes: it needs the password too.
      const missing = await savePayment(user, first, noPassword);
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({
        error: 'Enter your password to confirm this change',
        code: 'PASSWORD_REQUIRED',
      });
      const wrong = await savePayment(user, first, { password: 'not the password' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ error: 'Wrong password', code: 'INVALID_PASSWORD' });
      expect(await paymentConfig(user)).toEqual({ payout_settings: [] });
      expect((await savePayment(user, first)).statusCode).toBe(200);

      // Threshold and interval alone: no password.
      const cheaper = { BTC: btcSetting([{ address: btc(1), proportion: 100 }], '0.02', 6) };
      const thresholdOnly = await savePayment(user, cheaper, noPassword);
      expect(thresholdOnly.statusCode, thresholdOnly.body).toBe(200);
      expect((await paymentConfig(user)).payout_settings[0]).toMatchObject({ threshold: '0.02', interval: 6 });

      // Another address, another split, a coin added or removed: each needs it, and nothing changes without it.
      const changes: unknown[] = [
        { BTC: btcSetting([{ address: btc(2), proportion: 100 }], '0.02', 6) },
        {
          BTC: btcSetting(
            [
              { address: btc(1), proportion: 50 },
              { address: btc(2), proportion: 50 },
            ],
            '0.02',
            6,
          ),
        },
        { ...cheaper, LTC: { threshold: 1, interval: 1, addresses: [{ address: ltc(1), proportion: 100 }] } },
        {},
      ];
      for (const change of changes) {
        const refused = await savePayment(user, change, noPassword);
        expect(refused.json(), JSON.stringify(change)).toEqual({
          error: 'Enter your password to confirm this change',
          code: 'PASSWORD_REQUIRED',
        });
      }
      expect((await paymentConfig(user)).payout_settings).toEqual([
        expect.objectContaining({ ticker: 'BTC', addresses: [{ address: btc(1), percentage: 100 }] }),
      ]);
      expect((await savePayment(user, changes[0])).statusCode).toBe(200);
      expect((await paymentConfig(user)).payout_settings[0]?.addresses).toEqual([{ address: btc(2), percentage: 100 }]);

      const account = await accountOf(user);
      const failed = (
        await t.database.db
          .selectFrom('user_log')
          .select('log_value')
          .where('user_id', '=', account.user_id)
          .where('log_name', '=', 'reauth_failed')
          .execute()
      ).map((r) => r.log_value);
      expect(failed).toEqual([expect.objectContaining({ action: 'payout_addresses', reason: 'password' })]);
    });

    it('with 2FA on, an address change needs the current code as well', async () => {
      const user = await registerUser(t.app);
      const first = { BTC: btcSetting([{ address: btc(1), proportion: 100 }]) };
      expect((await savePayment(user, first)).statusCode).toBe(200);
      const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
      await t.database.db.updateTable('users').set({ totp_secret: secret }).where('email', '=', user.email).execute();
      const changed = { BTC: btcSetting([{ address: btc(3), proportion: 100 }]) };

      const noCode = await savePayment(user, changed);
      expect(noCode.statusCode).toBe(400);
      expect(noCode.json()).toEqual({
        error: 'Enter the 6-digit code from your authenticator app',
        code: 'TOTP_REQUIRED',
      });
      const wrongCode = await savePayment(user, changed, { password: user.password, code: '000000' });
      expect(wrongCode.statusCode).toBe(400);
      expect(wrongCode.json()).toEqual({ error: 'Invalid 2FA code', code: 'INVALID_2FA_CODE' });
      const code = await totpCode(secret, Math.floor(clock / 1000));
      const codeWithoutPassword = await savePayment(user, changed, { password: '', code });
      expect(codeWithoutPassword.json().code).toBe('PASSWORD_REQUIRED');
      expect((await paymentConfig(user)).payout_settings[0]?.addresses).toEqual([{ address: btc(1), percentage: 100 }]);

      const ok = await savePayment(user, changed, { password: user.password, code });
      expect(ok.statusCode, ok.body).toBe(200);
      // The code is used up: the same code cannot confirm another change.
      const replay = await savePayment(user, first, { password: user.password, code });
      expect(replay.json().code).toBe('INVALID_2FA_CODE');
      // Threshold and interval alone still need nothing.
      const thresholdOnly = await savePayment(
        user,
        { BTC: btcSetting([{ address: btc(3), proportion: 100 }], '0.03', 12) },
        { password: '' },
      );
      expect(thresholdOnly.statusCode, thresholdOnly.body).toBe(200);
    });

    it('refuses invalid settings with a message naming the coin, and changes nothing', async () => {
      const user = await registerUser(t.app);
      const good = btcSetting([{ address: btc(1), proportion: 100 }]);
      const cases: [unknown, string | RegExp][] = [
        [{ NOPE: good }, 'Unknown coin: NOPE'],
        [{ BTC: { ...good, threshold: '0.0001' } }, 'The BTC threshold must be between 0.001 and 0.5'],
        [{ BTC: { ...good, threshold: '0.6' } }, 'The BTC threshold must be between 0.001 and 0.5'],
        [{ BTC: { ...good, threshold: '0.01005' } }, 'The BTC threshold must be a multiple of 0.0001'],
        [{ BTC: { ...good, interval: 0.5 } }, 'The BTC payout interval must be between 1 and 48 hours'],
        [{ BTC: { ...good, interval: 49 } }, 'The BTC payout interval must be between 1 and 48 hours'],
        [{ BTC: { ...good, interval: 2.25 } }, 'The BTC payout interval must be in steps of 0.5 hours'],
        [{ BTC: { ...good, addresses: [] } }, 'Add a BTC payout address'],
        [
          { BTC: btcSetting([{ address: 'bc1qnotanaddress', proportion: 100 }]) },
          /^Invalid BTC address "bc1qnotanaddress": .+/,
        ],
        [{ BTC: btcSetting([{ address: ltc(1), proportion: 100 }]) }, /^Invalid BTC address "ltc1.+": .+/],
        [
          { BTC: btcSetting([{ address: encodeSegwitAddress('tb', 0, program(1)), proportion: 100 }]) },
          /^Invalid BTC address .+testnet/,
        ],
        [
          {
            BTC: btcSetting([
              { address: btc(1), proportion: 50 },
              { address: btc(1), proportion: 50 },
            ]),
          },
          /^BTC address ".+" is listed twice$/,
        ],
        [
          {
            BTC: btcSetting([
              { address: btc(1), proportion: 50 },
              { address: btc(2), proportion: 40 },
            ]),
          },
          'The BTC address percentages add up to 90, not 100',
        ],
        [
          { BTC: btcSetting([{ address: btc(1), proportion: 101 }]) },
          'BTC address percentages are numbers from 0 to 100',
        ],
        ['[oops', 'payment_settings must be JSON'],
      ];
      for (const [settings, message] of cases) {
        const res = await savePayment(user, settings);
        expect(res.statusCode, String(message)).toBe(400);
        expect(res.json().error, String(message)).toMatch(message);
      }
      // A coin the operator stopped paying out cannot be set up.
      await t.database.db.updateTable('coins').set({ payouts_enabled: false }).where('ticker', '=', 'SOL').execute();
      try {
        const res = await savePayment(user, {
          SOL: { threshold: 1, interval: 1, addresses: [{ address: 'x', proportion: 100 }] },
        });
        expect(res.json()).toEqual({ error: 'Payouts in SOL are not available', code: 'PAYOUTS_DISABLED' });
      } finally {
        await t.database.db.updateTable('coins').set({ payouts_enabled: true }).where('ticker', '=', 'SOL').execute();
      }
      expect(await paymentConfig(user)).toEqual({ payout_settings: [] });
    });
  });

  describe('access', () => {
    const calls = [
      ['GET', '/v1/user/conversion_config', {}],
      ['POST', '/v1/user/conversion_config/update', { conversion_settings: '[]', all_algorithms: 'true' }],
      ['GET', '/v1/user/payment_config', {}],
      ['POST', '/v1/user/payment_config/update', { payment_settings: '{}' }],
      ['POST', '/v1/user/convert', { base_coin: 'BTC', target_coin: 'LTC' }],
    ] as const;

    it('needs a session (401) and one of the user’s own accounts (404, as every account call)', async () => {
      const me = await registerUser(t.app);
      const other = await registerUser(t.app);
      for (const [method, url, fields] of calls) {
        const anonymous =
          method === 'GET'
            ? await get(t.app, url, { query: { account_name: me.username } })
            : await post(t.app, url, fields, { query: { account_name: me.username } });
        expect(anonymous.statusCode, url).toBe(401);
        for (const name of [other.username, 'nobody_here']) {
          const res =
            method === 'GET'
              ? await get(t.app, url, { cookie: me.cookie, query: { account_name: name } })
              : await post(t.app, url, fields, { cookie: me.cookie, query: { account_name: name } });
          expect(res.statusCode, url).toBe(404);
          expect(res.json(), url).toEqual({ error: 'Account not found', code: 'NOT_FOUND' });
        }
      }
      // Nothing was written for the other user's account (registration's own entries aside).
      const theirs = await accountOf(other);
      const names = (await userLogOfAccount(t.database.db, theirs.id)).map((e) => e.log_name);
      expect(names.filter((n) => /conversion|payout|convert/.test(n))).toEqual([]);
    });

    it('refuses the POSTs from other sites (the cross-site guard covers them)', async () => {
      const me = await registerUser(t.app);
      const res = await post(
        t.app,
        '/v1/user/payment_config/update',
        { payment_settings: '{}' },
        { cookie: me.cookie, query: { account_name: me.username }, origin: 'https://evil.example' },
      );
      expect(res.statusCode).toBe(403);
    });
  });
});
