import type {
  MiningSummaryResponse,
  PoolStatsResponse,
  UserConfigResponse,
  UserInfoResponse,
} from '@lodestone/contract';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { getUserConfig, login, logOutSession, register } from './account';
import { call, callResult, getPoolStats, getUserInfo, logout, routeUrl } from './client';
import { getMiningSummary } from './dashboard';
import { ApiError } from './errors';
import { setLoginRedirect } from './unauthorized';

/**
 * The client layer's side effects (docs/website.md, Session) with fetch, local storage and location stubbed:
 * the logged-in flag and the redirect to /login are decided here once for every call.
 */
let stored: Map<string, string>;
let pathname: string;
let redirects: number;
let calls: { url: string; init: RequestInit }[];
let answer: { status: number; body: unknown };

beforeEach(() => {
  stored = new Map([['isLoggedIn', 'true']]);
  pathname = '/settings';
  redirects = 0;
  calls = [];
  answer = { status: 200, body: { result: true } };
  vi.stubGlobal('window', {
    localStorage: {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => stored.set(k, v),
      removeItem: (k: string) => stored.delete(k),
    },
    location: {
      get pathname() {
        return pathname;
      },
      assign: () => {
        redirects += 1;
      },
    },
    addEventListener: () => {},
  });
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const flag = () => stored.get('isLoggedIn');

describe('routeUrl', () => {
  it("puts the contract's path under /v1, fills its parameters and leaves out undefined query values", () => {
    expect(routeUrl('userConfig')).toBe('/v1/user/config');
    expect(routeUrl('userReferrals', { query: { account_name: 'miner 01' } })).toBe(
      '/v1/user/referrals?account_name=miner+01',
    );
    expect(routeUrl('poolStatsChart', { params: { algorithm: 'scrypt' }, query: { timezone: undefined } })).toBe(
      '/v1/pool/stats/scrypt/chart',
    );
    expect(routeUrl('signature', { params: { signature: 'a/b c' } })).toBe('/v1/signatures/a%2Fb%20c');
  });

  it('refuses to build a path without its parameters', () => {
    expect(() => routeUrl('twoFactorQr', {} as never)).toThrow('twoFactorQr needs the path parameter secret');
  });
});

describe('call', () => {
  it("sends the contract's method, credentials and the multipart body", async () => {
    const form = new FormData();
    form.set('a', '1');
    await call('userConfigUpdate', { form });
    expect(calls[0]?.url).toBe('/v1/user/config/update');
    expect(calls[0]?.init.credentials).toBe('include');
    expect(calls[0]?.init.method).toBe('POST');
    expect(calls[0]?.init.body).toBe(form);
  });

  it('on a 401 clears the flag and goes to /login', async () => {
    answer = { status: 401, body: { error: 'Log in first', code: 'unauthorized' } };
    await expect(call('userConfig')).rejects.toMatchObject({ status: 401, message: 'Log in first' });
    expect(flag()).toBe('false');
    expect(redirects).toBe(1);
  });

  it('uses the redirect the router installed', async () => {
    let routed = 0;
    const uninstall = setLoginRedirect(() => {
      routed += 1;
    });
    answer = { status: 401, body: {} };
    await expect(call('userReferrals', { query: { account_name: 'miner01' } })).rejects.toBeInstanceOf(ApiError);
    uninstall();
    expect(routed).toBe(1);
    expect(redirects).toBe(0);
  });

  it('does not redirect from the login page itself', async () => {
    pathname = '/login';
    answer = { status: 401, body: {} };
    await expect(call('userConfig')).rejects.toBeInstanceOf(ApiError);
    expect(flag()).toBe('false');
    expect(redirects).toBe(0);
  });

  it('leaves the flag alone on other errors', async () => {
    answer = { status: 403, body: { error: 'Not yours', code: 'forbidden' } };
    await expect(call('userReferrals', { query: { account_name: 'miner01' } })).rejects.toMatchObject({ status: 403 });
    expect(flag()).toBe('true');
    expect(redirects).toBe(0);
  });

  it('turns { result: false, error } into an error with the server text', async () => {
    answer = { status: 200, body: { result: false, error: 'Name taken' } };
    await expect(callResult('userNewAccount', { form: new FormData() })).rejects.toMatchObject({
      message: 'Name taken',
      fromServer: true,
    });
  });
});

describe('user info', () => {
  it('success sets the flag', async () => {
    stored.set('isLoggedIn', 'false');
    answer = { status: 200, body: { result: true, email: 'a@b.co', accounts: [] } };
    expect(await getUserInfo()).toMatchObject({ email: 'a@b.co' });
    expect(flag()).toBe('true');
  });

  it('a 401 clears the flag without a redirect and means "nobody"', async () => {
    answer = { status: 401, body: { error: 'Not logged in' } };
    expect(await getUserInfo()).toBeNull();
    expect(flag()).toBe('false');
    expect(redirects).toBe(0);
  });

  it('any other failure clears the flag too', async () => {
    answer = { status: 500, body: { error: 'Boom' } };
    await expect(getUserInfo()).rejects.toMatchObject({ status: 500 });
    expect(flag()).toBe('false');
    expect(redirects).toBe(0);
  });
});

describe('login, register and logout', () => {
  it('login and register success set the flag', async () => {
    stored.set('isLoggedIn', 'false');
    await login(new FormData());
    expect(flag()).toBe('true');
    stored.set('isLoggedIn', 'false');
    await register(new FormData());
    expect(flag()).toBe('true');
  });

  it('a refused login leaves the flag false, shows no redirect, and keeps the server text', async () => {
    stored.set('isLoggedIn', 'false');
    pathname = '/login';
    answer = { status: 401, body: { error: 'Wrong e-mail or password', code: 'bad_credentials' } };
    await expect(login(new FormData())).rejects.toMatchObject({ message: 'Wrong e-mail or password' });
    expect(flag()).toBe('false');
    expect(redirects).toBe(0);
  });

  it('logout result true clears the flag; false keeps it', async () => {
    answer = { status: 200, body: { result: false } };
    expect(await logout()).toBe(false);
    expect(flag()).toBe('true');
    answer = { status: 200, body: { result: true } };
    expect(await logout()).toBe(true);
    expect(flag()).toBe('false');
  });

  it('logging out everywhere is its own call, and clears the flag', async () => {
    expect(await logout(true)).toBe(true);
    expect(calls.map((c) => [c.init.method, c.url])).toEqual([['POST', '/v1/user/sessions/logout_all']]);
    expect(flag()).toBe('false');
  });
});

describe('logging out another session', () => {
  it('sends the session id as a form field', async () => {
    await logOutSession('a'.repeat(64));
    expect(calls.map((c) => [c.init.method, c.url])).toEqual([['POST', '/v1/user/sessions/logout']]);
    const body = calls[0]?.init.body;
    expect(body instanceof FormData ? body.get('id') : body).toBe('a'.repeat(64));
  });

  it('takes a session that has ended already (404) as ended', async () => {
    answer = { status: 404, body: { error: 'Session not found', code: 'NOT_FOUND' } };
    await expect(logOutSession('b'.repeat(64))).resolves.toBeUndefined();
  });

  it("fails on any other refusal, with the server's text", async () => {
    answer = {
      status: 400,
      body: { error: 'This is the session you are using: log out instead.', code: 'CURRENT_SESSION' },
    };
    await expect(logOutSession('c'.repeat(64))).rejects.toMatchObject({
      code: 'CURRENT_SESSION',
      message: 'This is the session you are using: log out instead.',
    });
    expect(flag()).toBe('true');
  });
});

describe('types from the contract', () => {
  // Checked by tsc (npm run check): an answer typed `any` would pass every page's type check unseen.
  it('types each answer with its route schema', () => {
    expectTypeOf(getUserConfig).returns.resolves.toEqualTypeOf<UserConfigResponse>();
    expectTypeOf(getMiningSummary).returns.resolves.toEqualTypeOf<MiningSummaryResponse>();
    expectTypeOf(getPoolStats).returns.resolves.toEqualTypeOf<PoolStatsResponse>();
    expectTypeOf(call<'userInfo'>).returns.resolves.toEqualTypeOf<UserInfoResponse>();
    expectTypeOf(call<'userInfo'>).returns.resolves.not.toBeAny();
  });
});
