import {
  errorResponse,
  MAX_WATCHER_LINKS,
  paths,
  publicApiUserResponse,
  watcherCreateResponse,
  watcherLinksResponse,
} from '@lodestone/contract';
import { userLogOfUser } from '@lodestone/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, registerUser, type TestUser } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

const START = Date.parse('2024-05-06T12:00:00Z');
const DAY_MS = 86_400_000;

/**
 * Every observer read and what a link must cover to open it. One worker's reads name a worker the
 * account does not have: past the link's checks they answer 404 'Worker not found', not 'Account not found'.
 */
const OBSERVER_READS = [
  ['/v1/observer/mining', 'mining'],
  ['/v1/observer/mining/chart', 'mining'],
  ['/v1/observer/mining/workers', 'mining'],
  ['/v1/observer/mining/workers/page', 'mining'],
  ['/v1/observer/mining/workers/one', 'mining'],
  ['/v1/observer/mining/workers/rejects', 'mining'],
  ['/v1/observer/mining/workers/chart', 'mining'],
  ['/v1/observer/mining/workers/connections', 'mining'],
  ['/v1/observer/mining/solo', 'mining'],
  ['/v1/observer/revenue/balance', 'revenue'],
  ['/v1/observer/revenue/earnings', 'revenue'],
  ['/v1/observer/revenue/lifetimeearnings', 'revenue'],
  ['/v1/observer/revenue/chart', 'revenue'],
  ['/v1/observer/revenue/payouts', 'payouts'],
] as const;
const COVERS = { mining: ['mining'], revenue: ['mining', 'revenue'], payouts: ['mining', 'revenue', 'payouts'] };

describe('watcher links: several scoped, expiring, revocable observer links per account', () => {
  let t: TestApp;
  let clock = START;
  beforeAll(async () => {
    t = await createTestApp({}, undefined, undefined, { now: () => new Date(clock) });
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = async (user: TestUser) => {
    const res = await get(t.app, '/v1/user/watchers', { cookie: user.cookie, query: { account_name: user.username } });
    expect(res.statusCode, res.body).toBe(200);
    return watcherLinksResponse.parse(res.json()).links;
  };
  const create = (user: TestUser, fields: Record<string, string>) =>
    post(t.app, '/v1/user/watchers/create', fields, { cookie: user.cookie, query: { account_name: user.username } });
  const made = async (user: TestUser, fields: Record<string, string>) => {
    const res = await create(user, fields);
    expect(res.statusCode, res.body).toBe(200);
    return watcherCreateResponse.parse(res.json()).link;
  };
  const revoke = (user: TestUser, id: string) =>
    post(t.app, '/v1/user/watchers/revoke', { id }, { cookie: user.cookie, query: { account_name: user.username } });
  const observe = (path: string, key: string) =>
    get(t.app, path, { query: { observer_key: key, algorithm: 'scrypt', account_name: 'ignored', worker_id: '1' } });
  /** What an observer read answers when the link may open it: a read of one worker does not find worker 1. */
  const opened = (path: string) => (path.includes('/workers/') && !path.endsWith('/workers/page') ? 404 : 200);

  it('knows every observer route of the route table', () => {
    const observerPaths = Object.values(paths)
      .filter((p) => p.path.startsWith('/observer/'))
      .map((p) => `/v1${p.path}`);
    expect(observerPaths.sort()).toEqual(OBSERVER_READS.map(([path]) => path).sort());
  });

  it('lists the account’s own observer key first, as the default link that shows everything', async () => {
    const user = await registerUser(t.app);
    const [own, ...others] = await list(user);
    expect(others).toEqual([]);
    expect(own).toMatchObject({
      id: 'default',
      name: 'Observer link',
      scope: 'payouts',
      default: true,
      expired: false,
    });
    for (const [path] of OBSERVER_READS)
      expect((await observe(path, own?.key ?? '')).statusCode, path).toBe(opened(path));
    expect((await list(user))[0]?.last_used_at).toBe(new Date(clock).toISOString());
  });

  it('opens exactly what each scope covers, on the API: 403 beyond it', async () => {
    const user = await registerUser(t.app);
    for (const scope of ['mining', 'revenue', 'payouts'] as const) {
      const link = await made(user, { name: `${scope} view`, scope });
      expect(link).toMatchObject({ scope, default: false, expires_at: null, last_used_at: null });
      for (const [path, needs] of OBSERVER_READS) {
        const res = await observe(path, link.key);
        const allowed = COVERS[scope].includes(needs);
        expect(res.statusCode, `${scope} ${path}`).toBe(allowed ? opened(path) : 403);
        if (!allowed) expect(errorResponse.parse(res.json()).code).toBe('FORBIDDEN');
        else if (opened(path) === 404) expect(res.json()).toEqual({ error: 'Worker not found', code: 'NOT_FOUND' });
      }
    }
    const links = await list(user);
    expect(links.map((l) => [l.name, l.scope])).toEqual([
      ['Observer link', 'payouts'],
      ['mining view', 'mining'],
      ['revenue view', 'revenue'],
      ['payouts view', 'payouts'],
    ]);
    expect(links.slice(1).every((l) => l.last_used_at === new Date(clock).toISOString())).toBe(true);
  });

  it('answers 404 on every observer route once a link expires or is revoked', async () => {
    const user = await registerUser(t.app);
    const expiring = await made(user, { name: 'for the weekend', scope: 'payouts', expires_in_days: '2' });
    expect(expiring.expires_at).toBe(new Date(clock + 2 * DAY_MS).toISOString());
    const revoked = await made(user, { name: 'old host', scope: 'payouts' });
    expect((await observe('/v1/observer/mining', expiring.key)).statusCode).toBe(200);

    expect((await revoke(user, revoked.id)).statusCode).toBe(200);
    clock += 2 * DAY_MS;
    try {
      for (const [path] of OBSERVER_READS) {
        for (const key of [expiring.key, revoked.key]) {
          const res = await observe(path, key);
          expect(res.statusCode, path).toBe(404);
          expect(res.json()).toEqual({ error: 'Account not found', code: 'NOT_FOUND' });
        }
      }
      // The expired link is listed as expired until revoked; the revoked one is gone.
      const links = await list(user);
      expect(links.map((l) => [l.name, l.expired])).toEqual([
        ['Observer link', false],
        ['for the weekend', true],
      ]);
      expect((await revoke(user, revoked.id)).statusCode).toBe(404);
    } finally {
      clock = START;
    }
    const log = await userLogOfUser(
      t.database.db,
      (await t.database.db.selectFrom('users').select('id').where('email', '=', user.email).executeTakeFirstOrThrow())
        .id,
    );
    expect(log.filter((e) => e.log_name === 'watcher_link_created')).toHaveLength(2);
    expect(log.filter((e) => e.log_name === 'watcher_link_revoked')).toHaveLength(1);
  });

  it('works as a scoped, read-only API key on /v1/api/user: only the sections its scope covers', async () => {
    const user = await registerUser(t.app);
    const apiUser = (apiKey: string) => get(t.app, '/v1/api/user', { query: { apiKey } });
    const sections = async (apiKey: string) => {
      const res = await apiUser(apiKey);
      expect(res.statusCode, res.body).toBe(200);
      const body = publicApiUserResponse.parse(res.json());
      expect(body.username).toBe(user.username);
      return Object.keys(body).sort();
    };
    const mining = await made(user, { name: 'api mining', scope: 'mining' });
    const revenue = await made(user, { name: 'api revenue', scope: 'revenue' });
    const payouts = await made(user, { name: 'api payouts', scope: 'payouts' });
    expect(await sections(mining.key)).toEqual(['hashrate', 'username', 'workers']);
    expect(await sections(revenue.key)).toEqual(['balances', 'earnings', 'hashrate', 'username', 'workers']);
    expect(await sections(payouts.key)).toEqual([
      'balances',
      'earnings',
      'hashrate',
      'payments',
      'username',
      'workers',
    ]);
    expect((await revoke(user, mining.id)).statusCode).toBe(200);
    expect((await apiUser(mining.key)).statusCode).toBe(404);
    // Read-only like the account's own key.
    const write = await t.app.inject({ method: 'POST', url: '/v1/api/user', query: { apiKey: payouts.key } });
    expect(write.statusCode).not.toBe(200);
  });

  it('keeps links to their account: another user can neither list nor revoke them', async () => {
    const user = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const link = await made(user, { name: 'farm', scope: 'mining' });
    const foreignList = await get(t.app, '/v1/user/watchers', {
      cookie: stranger.cookie,
      query: { account_name: user.username },
    });
    expect(foreignList.statusCode).toBe(404);
    const foreign = await post(
      t.app,
      '/v1/user/watchers/revoke',
      { id: link.id },
      {
        cookie: stranger.cookie,
        query: { account_name: stranger.username },
      },
    );
    expect(foreign.statusCode).toBe(404);
    expect((await observe('/v1/observer/mining', link.key)).statusCode).toBe(200);
    expect((await get(t.app, '/v1/user/watchers', { query: { account_name: user.username } })).statusCode).toBe(401);
  });

  it('refuses a bad name, scope or expiry, and more than the limit of live links', async () => {
    const user = await registerUser(t.app);
    for (const [fields, message] of [
      [{ name: ' ', scope: 'mining' }, 'Name is required'],
      [{ name: 'x'.repeat(65), scope: 'mining' }, 'Name is at most 64 characters'],
      [{ name: 'a', scope: 'everything' }, 'Choose what the link shows'],
      [{ name: 'a', scope: 'mining', expires_in_days: '0' }, 'Expiry must be at least 1 day'],
      [{ name: 'a', scope: 'mining', expires_in_days: '366' }, 'Expiry must be at most 365 days'],
    ] as const) {
      const res = await create(user, fields);
      expect(res.statusCode, message).toBe(400);
      expect(errorResponse.parse(res.json()).error).toBe(message);
    }
    for (let i = 0; i < MAX_WATCHER_LINKS; i += 1) await made(user, { name: `rig view ${i}`, scope: 'mining' });
    const over = await create(user, { name: 'one more', scope: 'mining' });
    expect(over.statusCode).toBe(409);
    expect(errorResponse.parse(over.json()).code).toBe('WATCHER_LINK_LIMIT');
  });
});
