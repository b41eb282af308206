import { errorResponse, sessionsResponse } from '@lodestone/contract';
import { userLogOfUser } from '@lodestone/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, loginAs, post, registerUser, sessionCookie } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

describe('Settings: the list of sessions, logging one out and logging out everywhere', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const sessions = async (cookie: string) => {
    const res = await get(t.app, '/v1/user/sessions', { cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return sessionsResponse.parse(res.json()).sessions;
  };
  const userId = async (email: string) =>
    (await t.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  it('lists each login with its device and network, never the full address, the current one marked', async () => {
    const user = await registerUser(t.app);
    const firefox = sessionCookie(
      await loginAs(t.app, user, { remoteAddress: '203.0.113.77', userAgent: FIREFOX }),
    ) as string;
    const phone = sessionCookie(
      await loginAs(t.app, user, { remoteAddress: '2001:db8:85a3:1234::9', userAgent: IPHONE }),
    ) as string;
    const list = await sessions(firefox);
    expect(list.map((s) => [s.device, s.ip_range, s.current, s.admin])).toEqual(
      expect.arrayContaining([
        ['Firefox 128 on Linux', '203.0.113.0/24', true, false],
        ['Safari 17 on iOS 17.1 (phone)', '2001:db8:85a3::/48', false, false],
      ]),
    );
    // The registration's own session is the third.
    expect(list).toHaveLength(3);
    expect(JSON.stringify(list)).not.toContain('203.0.113.77');
    expect((await sessions(phone)).find((s) => s.current)?.device).toBe('Safari 17 on iOS 17.1 (phone)');
  });

  it('ends another session, which then opens nothing; refuses this one, a stranger’s and an unknown id', async () => {
    const user = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const other = sessionCookie(await loginAs(t.app, user, { userAgent: IPHONE })) as string;
    const list = await sessions(user.cookie);
    const otherId = list.find((s) => !s.current)?.id as string;
    const ownId = list.find((s) => s.current)?.id as string;

    const mine = await post(t.app, '/v1/user/sessions/logout', { id: ownId }, { cookie: user.cookie });
    expect(mine.statusCode).toBe(400);
    expect(errorResponse.parse(mine.json()).code).toBe('CURRENT_SESSION');
    const theirs = await post(t.app, '/v1/user/sessions/logout', { id: otherId }, { cookie: stranger.cookie });
    expect(theirs.statusCode).toBe(404);
    expect((await get(t.app, '/v1/user/info', { cookie: other })).json()).toMatchObject({ result: true });
    const malformed = await post(t.app, '/v1/user/sessions/logout', { id: 'x' }, { cookie: user.cookie });
    expect(malformed.statusCode).toBe(400);

    const ended = await post(t.app, '/v1/user/sessions/logout', { id: otherId }, { cookie: user.cookie });
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await get(t.app, '/v1/user/info', { cookie: other })).json()).toEqual({ result: false });
    expect((await sessions(user.cookie)).map((s) => s.id)).toEqual([ownId]);
    const again = await post(t.app, '/v1/user/sessions/logout', { id: otherId }, { cookie: user.cookie });
    expect(again.statusCode).toBe(404);
    const log = await userLogOfUser(t.database.db, await userId(user.email));
    expect(log.filter((e) => e.log_name === 'session_ended')).toHaveLength(1);
  });

  it('logs out everywhere: every session ends, this one too, and the cookie is cleared', async () => {
    const user = await registerUser(t.app);
    const other = sessionCookie(await loginAs(t.app, user, { userAgent: FIREFOX })) as string;
    const res = await post(t.app, '/v1/user/sessions/logout_all', {}, { cookie: user.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.cookies.find((c) => c.name === 'lodestone_session')?.value).toBe('');
    for (const cookie of [user.cookie, other]) {
      expect((await get(t.app, '/v1/user/info', { cookie })).json()).toEqual({ result: false });
    }
    const log = await userLogOfUser(t.database.db, await userId(user.email));
    expect(log.find((e) => e.log_name === 'logout_everywhere')?.log_value).toMatchObject({ sessions_ended: 2 });
  });

  it('answers 401 without a session', async () => {
    expect((await get(t.app, '/v1/user/sessions')).statusCode).toBe(401);
    expect((await post(t.app, '/v1/user/sessions/logout_all')).statusCode).toBe(401);
  });
});
