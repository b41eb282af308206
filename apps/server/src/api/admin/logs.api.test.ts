import { adminLogsResponse } from '@lodestone/contract';
import { appendUserLog, userLogOfUser } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, registerUser, type TestUser } from '../../../test/accounts.js';
import { accountIdOf, adminPost, registerAdmin, type TestAdmin, userIdOf } from '../../../test/admins.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

describe.each(testEngines())('POST /v1/admin/logs/user and logs/account on %s', (engine) => {
  let t: TestApp;
  let admin: TestAdmin;
  beforeAll(async () => {
    t = await createTestApp({}, undefined, engine);
    admin = await registerAdmin(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const search = async (path: 'logs/user' | 'logs/account', fields: Record<string, string>, json = false) => {
    const res = await adminPost(t, path, fields, admin.cookie, { json });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return adminLogsResponse.parse(res.json());
  };

  /** A miner with `count` extra log entries, one second apart (entry 1 oldest), on their first account. */
  async function minerWithEntries(count: number): Promise<TestUser & { userId: bigint; accountId: bigint }> {
    const user = await registerUser(t.app);
    const userId = await userIdOf(t, user.email);
    const accountId = await accountIdOf(t, user.username);
    const start = Date.now() + 60_000;
    for (let i = 1; i <= count; i++) {
      await appendUserLog(t.database.db, {
        userId,
        accountId: i % 2 === 0 ? accountId : null,
        name: 'test_event',
        value: { n: i, nested: { ok: true } },
        time: new Date(start + i * 1000),
      });
    }
    return { ...user, userId, accountId };
  }

  it("pages a user's log by 20, newest first, with the total", async () => {
    const miner = await minerWithEntries(45);
    // Registration wrote its own entries (registered, account_created) before the 45.
    const first = await search('logs/user', { email: miner.email });
    expect(first.page).toBe(1);
    expect(first.page_size).toBe(20);
    const total = first.total;
    expect(total).toBeGreaterThanOrEqual(47);
    expect(first.items).toHaveLength(20);
    expect(first.items[0]).toEqual({
      time: expect.any(String),
      log_name: 'test_event',
      log_value: { n: 45, nested: { ok: true } },
      account: null,
    });
    expect(first.items[1]).toMatchObject({ log_value: { n: 44 }, account: miner.username });
    expect(first.items.map((i) => Date.parse(i.time))).toEqual(
      [...first.items.map((i) => Date.parse(i.time))].sort((a, b) => b - a),
    );

    const second = await search('logs/user', { email: miner.email, page: '2' });
    expect(second.items.map((i) => i.log_value.n)).toEqual(Array.from({ length: 20 }, (_, k) => 25 - k));
    const last = await search('logs/user', { email: miner.email, page: '3' });
    expect(last.items).toHaveLength(total - 40);
    expect(last.items.map((i) => i.log_name)).toContain('registered');
    const beyond = await search('logs/user', { email: miner.email, page: '9' });
    expect(beyond).toEqual({ items: [], total, page: 9, page_size: 20 });
  });

  it('finds the user by e-mail whatever the case and spaces; JSON bodies work too', async () => {
    const miner = await minerWithEntries(1);
    const found = await search('logs/user', { email: `  ${miner.email.toUpperCase()} ` }, true);
    expect(found.items[0]).toMatchObject({ log_name: 'test_event' });
  });

  it("reads one account's entries, whatever the letter case of its name", async () => {
    const miner = await minerWithEntries(6);
    const res = await search('logs/account', { username: miner.username.toUpperCase() });
    // Even entries are on the account, plus the two registration wrote (same time, newest id first).
    expect(res.items.map((i) => i.log_value.n ?? i.log_name)).toEqual([6, 4, 2, 'account_created', 'registered']);
    expect(res.items.every((i) => i.account === miner.username)).toBe(true);
    expect(res.total).toBe(5);
  });

  it("narrows a user's log to one of their accounts when both filters are given", async () => {
    const miner = await minerWithEntries(4);
    const both = await search('logs/user', { email: miner.email, username: miner.username });
    expect(both.items.map((i) => i.log_value.n ?? i.log_name)).toEqual([4, 2, 'account_created', 'registered']);
    // Someone else's account with this e-mail matches nothing.
    const other = await registerUser(t.app);
    const mismatch = await search('logs/user', { email: miner.email, username: other.username });
    expect(mismatch).toEqual({ items: [], total: 0, page: 1, page_size: 20 });
  });

  it('answers an empty page for an unknown e-mail or account (not an error)', async () => {
    expect(await search('logs/user', { email: 'nobody@example.org' })).toEqual({
      items: [],
      total: 0,
      page: 1,
      page_size: 20,
    });
    expect((await search('logs/account', { username: 'no-such-account' })).total).toBe(0);
  });

  it('still reads the logs of removed accounts and deleted users (security records)', async () => {
    const miner = await registerUser(t.app);
    const userId = await userIdOf(t, miner.email);
    const res = await post(
      t.app,
      '/v1/user/remove_account',
      { account_name: miner.username },
      { cookie: miner.cookie },
    );
    expect(res.statusCode, res.body).toBe(200);
    const byAccount = await search('logs/account', { username: miner.username });
    expect(byAccount.items.map((i) => i.log_name)).toContain('account_removed');
    // The deleted user is found by the tombstone address their e-mail became.
    const byTombstone = await search('logs/user', { email: `deleted-${userId}@deleted.invalid` });
    expect(byTombstone.items.map((i) => i.log_name)).toContain('user_deleted');
  });

  it('refuses empty filters with a readable message', async () => {
    const res = await adminPost(t, 'logs/user', { email: '  ' }, admin.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Email is required', code: 'VALIDATION_FAILED' });
    const account = await adminPost(t, 'logs/account', {}, admin.cookie);
    expect(account.json().error).toBe('Username is required');
    const page = await adminPost(t, 'logs/account', { username: 'x', page: '0' }, admin.cookie);
    expect(page.statusCode).toBe(400);
  });

  it("records each search (not each page) in the admin's own log", async () => {
    const miner = await minerWithEntries(25);
    const before = (await userLogOfUser(t.database.db, admin.userId, 1000)).length;
    await adminPost(t, 'logs/user', { email: miner.email }, admin.cookie, { remoteAddress: '10.1.2.3' });
    await adminPost(t, 'logs/user', { email: miner.email, page: '2' }, admin.cookie);
    await adminPost(t, 'logs/account', { username: miner.username }, admin.cookie);
    const entries = await userLogOfUser(t.database.db, admin.userId, 1000);
    expect(entries.length - before).toBe(2);
    expect(entries[0]).toMatchObject({ log_name: 'admin_logs_viewed', log_value: { username: miner.username } });
    expect(entries[1]).toMatchObject({
      log_name: 'admin_logs_viewed',
      log_value: { email: miner.email, ip: '10.1.2.3' },
    });
    // Reading someone's log does not write to it.
    const minerLog = await userLogOfUser(t.database.db, miner.userId, 1000);
    expect(minerLog.some((e) => e.log_name.startsWith('admin_'))).toBe(false);
  });
});
