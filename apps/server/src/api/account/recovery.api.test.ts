import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { userConfigResponse } from '@lodestone/contract';
import { userLogOfUser } from '@lodestone/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, loginAs, nextAddress, post, registerUser, sessionCookie, solveCaptcha } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp.js';

const LINK = /(https?:\/\/\S+\/newPassword\?k=([A-Za-z0-9_-]+)&email=(\S+))/;

describe('password recovery by e-mail (real SMTP server)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Test Pool <no-reply@pool.example>',
      POOL_NAME: 'Test Pool',
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function requestReset(email: string) {
    const address = nextAddress();
    return post(
      t.app,
      '/v1/password/reset',
      { email, captchaToken: await solveCaptcha(t.app, address) },
      { remoteAddress: address },
    );
  }

  function linkOf(text: string) {
    const match = LINK.exec(text);
    if (!match) throw new Error(`no recovery link in:\n${text}`);
    const url = new URL(match[1] as string);
    return { url, key: url.searchParams.get('k') ?? '', email: url.searchParams.get('email') ?? '' };
  }

  async function config(cookie: string) {
    return userConfigResponse.parse((await get(t.app, '/v1/user/config', { cookie })).json());
  }

  it('e-mails a link; following it sets the new password, ends sessions, resets API keys; the old password stops working', async () => {
    const user = await registerUser(t.app);
    const second = await loginAs(t.app, { email: user.email, password: user.password });
    const otherCookie = sessionCookie(second) as string;
    const keysBefore = (await config(user.cookie)).account_specific[0];

    const res = await requestReset(user.email.toUpperCase());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ result: true });

    const mail = await smtp.next();
    expect(mail.to).toEqual([user.email]);
    expect(mail.from).toBe('no-reply@pool.example');
    expect(mail.raw).toMatch(/Subject: Test Pool: reset your password/);
    const link = linkOf(mail.text);
    expect(link.url.origin + link.url.pathname).toBe('http://localhost:8080/newPassword');
    expect(link.email).toBe(user.email);
    expect(link.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the key's SHA-256 is stored.
    const stored = await t.database.db.selectFrom('password_resets').select('key_hash').execute();
    expect(stored.map((r) => r.key_hash)).not.toContain(link.key);

    // The website's reset page posts what the link carried.
    const reset = await post(
      t.app,
      '/v1/password/reset_send',
      { password: 'a brand new password', recovery_key: link.key },
      { query: { email: link.email } },
    );
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual({ result: true });

    // Every session ended, both browsers'.
    expect((await get(t.app, '/v1/user/info', { cookie: user.cookie })).json()).toEqual({ result: false });
    expect((await get(t.app, '/v1/user/info', { cookie: otherCookie })).json()).toEqual({ result: false });
    const old = await loginAs(t.app, { email: user.email, password: user.password });
    expect(old.json().error).toBe('Invalid email or password');
    const fresh = await loginAs(t.app, { email: user.email, password: 'a brand new password' });
    expect(fresh.statusCode, fresh.body).toBe(200);
    // Changing the password gave the account a new API key (docs/accounts.md, "Password recovery"); the observer link is kept.
    const keysAfter = (await config(sessionCookie(fresh) as string)).account_specific[0];
    expect(keysAfter?.api_key).not.toBe(keysBefore?.api_key);
    expect(keysAfter?.observer_key).toBe(keysBefore?.observer_key);

    // The key worked once.
    const again = await post(
      t.app,
      '/v1/password/reset_send',
      { password: 'yet another password', recovery_key: link.key },
      { query: { email: link.email } },
    );
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'Invalid or expired recovery key', code: 'INVALID_RECOVERY_KEY' });

    const row = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    const names = (await userLogOfUser(t.database.db, row.id)).map((e) => e.log_name);
    expect(names).toEqual(expect.arrayContaining(['password_reset_requested', 'password_reset']));
  });

  it('refuses an expired key, a key for another address and a made-up key', async () => {
    const user = await registerUser(t.app);
    const other = await registerUser(t.app);
    await requestReset(user.email);
    const { key } = linkOf((await smtp.next()).text);
    const send = (email: string, recovery_key: string) =>
      post(t.app, '/v1/password/reset_send', { password: 'a brand new password', recovery_key }, { query: { email } });

    expect((await send(other.email, key)).json().error).toBe('Invalid or expired recovery key');
    expect((await send(user.email, 'made-up-key')).json().error).toBe('Invalid or expired recovery key');
    expect((await send('nobody@example.com', key)).json().error).toBe('Invalid or expired recovery key');
    await sql`update password_resets set expires_at = now() - interval '1 second'`.execute(t.database.db);
    const expired = await send(user.email, key);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error).toBe('Invalid or expired recovery key');
    // Nothing changed: the old password still works.
    expect((await loginAs(t.app, { email: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('validates the reset form', async () => {
    const noKey = await post(
      t.app,
      '/v1/password/reset_send',
      { password: 'a brand new password', recovery_key: '' },
      {
        query: { email: 'x@example.com' },
      },
    );
    expect(noKey.json().error).toBe('Invalid recovery key');
    const short = await post(
      t.app,
      '/v1/password/reset_send',
      { password: 'short', recovery_key: 'abc' },
      {
        query: { email: 'x@example.com' },
      },
    );
    expect(short.json().error).toBe('Password must be at least 10 characters');
    // A link whose address is not one: the contract's sentence, never a schema path ("query.email: …").
    const badEmail = await post(
      t.app,
      '/v1/password/reset_send',
      { password: 'a brand new password', recovery_key: 'abc' },
      { query: { email: 'a@b.c' } },
    );
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error).toBe('Invalid email address');
    const noEmail = await post(t.app, '/v1/password/reset_send', {
      password: 'a brand new password',
      recovery_key: 'abc',
    });
    expect(noEmail.json().error).toBe('email is required');
    const noCaptcha = await post(t.app, '/v1/password/reset', { email: 'x@example.com' });
    expect(noCaptcha.json().error).toBe('Please verify you are not a robot.');
  });
});

describe('password recovery answers the same for unknown addresses', () => {
  it('sends nothing for an unknown address, with the same answer', async () => {
    const smtp = await startSmtpServer();
    const t = await createTestApp({ SMTP_URL: smtp.url });
    try {
      const user = await registerUser(t.app);
      const address = nextAddress();
      const unknown = await post(
        t.app,
        '/v1/password/reset',
        { email: 'nobody@example.com', captchaToken: await solveCaptcha(t.app, address) },
        { remoteAddress: address },
      );
      const known = await post(
        t.app,
        '/v1/password/reset',
        { email: user.email, captchaToken: await solveCaptcha(t.app, address) },
        { remoteAddress: address },
      );
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.body).toBe(known.body);
    } finally {
      await t.close(); // waits for the background sends
      await smtp.close();
    }
    expect(smtp.messages.map((m) => m.to)).toEqual([[expect.stringMatching(/@example\.com$/)]]);
  });

  it('writes e-mails to DATA_DIR/outbox when no SMTP server is configured', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lodestone-outbox-'));
    const t = await createTestApp({ DATA_DIR: dataDir });
    let user: { email: string };
    try {
      user = await registerUser(t.app);
      const address = nextAddress();
      await post(
        t.app,
        '/v1/password/reset',
        { email: user.email, captchaToken: await solveCaptcha(t.app, address) },
        { remoteAddress: address },
      );
    } finally {
      await t.close();
    }
    const outbox = path.join(dataDir, 'outbox');
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = readFileSync(path.join(outbox, files[0] as string), 'utf8');
    expect(eml).toContain(`To: ${user.email}`);
    expect(eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toMatch(/\/newPassword\?k=[A-Za-z0-9_-]{43}&email=/);
  });

  it('sends at most three recovery e-mails per address and hour', async () => {
    const smtp = await startSmtpServer();
    const t = await createTestApp({ SMTP_URL: smtp.url });
    try {
      const user = await registerUser(t.app);
      for (let i = 0; i < 4; i++) {
        const address = nextAddress();
        const res = await post(
          t.app,
          '/v1/password/reset',
          { email: user.email, captchaToken: await solveCaptcha(t.app, address) },
          { remoteAddress: address },
        );
        expect(res.json()).toEqual({ result: true });
        if (i < 3) await smtp.next();
      }
    } finally {
      await t.close();
      await smtp.close();
    }
    expect(smtp.messages).toHaveLength(3);
  });
});
