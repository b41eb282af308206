import { mkdtempSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { VIP_MESSAGES } from '@lodestone/contract';
import { vipApplications } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nextAddress, post, solveCaptcha } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp.js';
import { PUBLIC_RATE_LIMITS } from '../../http/rateLimits.js';

const NOW = new Date('2025-06-15T12:00:00Z');

const form = {
  name: 'Jane Miner',
  email: 'jane@example.com',
  phone: '+44 7911123456',
  operations: 'SCRYPT: 40 L9 units, 640 GH/s in total',
};

describe.each(testEngines())('VIP applications on %s', (engine) => {
  let t: TestApp;
  let dataDir: string;
  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'lodestone-vip-'));
    t = await createTestApp(
      { DATA_DIR: dataDir, SUPPORT_EMAIL: 'support@pool.example', POOL_NAME: 'Acme Pool' },
      undefined,
      engine,
      { now: () => NOW },
    );
  });
  afterEach(() => t.close());

  async function apply(fields: Record<string, string>, options: { json?: boolean; address?: string } = {}) {
    const address = options.address ?? nextAddress();
    const captchaToken = fields.captchaToken ?? (await solveCaptcha(t.app, address));
    return post(
      t.app,
      '/v1/email/hashrate',
      { ...fields, captchaToken },
      { remoteAddress: address, json: options.json },
    );
  }

  it('stores the application and e-mails it to the operator (outbox without SMTP)', async () => {
    const res = await apply(form);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ result: true });
    const [stored] = await vipApplications(t.database.db);
    expect(stored).toMatchObject({ ...form, createdAt: NOW });

    await t.app.close(); // waits for the e-mail started in the background
    const outbox = path.join(dataDir, 'outbox');
    const files = await readdir(outbox);
    expect(files).toHaveLength(1);
    const mail = await readFile(path.join(outbox, files[0] as string), 'utf8');
    expect(mail).toMatch(/^To: support@pool\.example$/m);
    expect(mail).toMatch(/^Reply-To: jane@example\.com$/m);
    expect(mail).toMatch(/^Subject: Acme Pool: VIP application from Jane Miner$/m);
    expect(mail).toContain('Phone: +44 7911123456');
    expect(mail).toContain('640 GH/s in total');
    const [emailed] = await vipApplications(t.database.db);
    expect(emailed?.emailedAt).toEqual(NOW);
  });

  it('takes JSON too, without a phone', async () => {
    const { phone: _phone, ...withoutPhone } = form;
    const res = await apply(withoutPhone, { json: true });
    expect(res.statusCode, res.body).toBe(200);
    const [stored] = await vipApplications(t.database.db);
    expect(stored?.phone).toBeNull();
  });

  it('refuses invalid fields with the form’s messages and stores nothing', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ ...form, name: ' ' }, VIP_MESSAGES.nameRequired],
      [{ ...form, operations: '' }, VIP_MESSAGES.hashrateRequired],
      [{ ...form, email: 'jane.example.com' }, VIP_MESSAGES.invalidEmail],
      [{ ...form, phone: '+44 12345' }, VIP_MESSAGES.invalidPhone],
      [{ ...form, phone: '7911123456' }, VIP_MESSAGES.invalidPhone],
    ];
    for (const [fields, message] of cases) {
      const res = await apply(fields);
      expect(res.statusCode, message).toBe(400);
      expect(res.json()).toEqual({ error: message, code: 'VALIDATION_FAILED' });
    }
    const { name: _name, ...withoutName } = form;
    expect((await apply(withoutName)).json()).toMatchObject({ error: VIP_MESSAGES.nameRequired });
    expect(await vipApplications(t.database.db)).toEqual([]);
  });

  it('needs a solved robot check, used once', async () => {
    const missing = await post(t.app, '/v1/email/hashrate', form, { remoteAddress: nextAddress() });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'Please verify you are not a robot.', code: 'VALIDATION_FAILED' });
    const forged = await apply({ ...form, captchaToken: Buffer.from('{"algorithm":"SHA-256"}').toString('base64') });
    expect(forged.json()).toEqual({ error: 'Please verify you are not a robot.', code: 'CAPTCHA_FAILED' });
    const address = nextAddress();
    const token = await solveCaptcha(t.app, address);
    expect((await apply({ ...form, captchaToken: token }, { address })).statusCode).toBe(200);
    const replay = await apply({ ...form, captchaToken: token }, { address });
    expect(replay.json()).toMatchObject({ code: 'CAPTCHA_FAILED' });
    expect(await vipApplications(t.database.db)).toHaveLength(1);
  });

  it('refuses other sites’ forms', async () => {
    const address = nextAddress();
    const res = await post(
      t.app,
      '/v1/email/hashrate',
      { ...form, captchaToken: await solveCaptcha(t.app, address) },
      { remoteAddress: address, origin: 'https://evil.example' },
    );
    expect(res.statusCode).toBe(403);
  });

  it('is rate-limited per address', async () => {
    const address = nextAddress();
    const { max } = PUBLIC_RATE_LIMITS.vipApplication;
    for (let i = 0; i < max; i++) expect((await apply(form, { address })).statusCode).toBe(200);
    const limited = await apply(form, { address });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await vipApplications(t.database.db)).toHaveLength(max);
  });
});

describe('VIP applications by SMTP', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  beforeEach(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ SMTP_URL: smtp.url, VIP_EMAIL: 'sales@pool.example' });
  });
  afterEach(async () => {
    await t.close();
    await smtp.close();
  });

  it('go to VIP_EMAIL when it is set', async () => {
    const address = nextAddress();
    const res = await post(
      t.app,
      '/v1/email/hashrate',
      { ...form, captchaToken: await solveCaptcha(t.app, address) },
      { remoteAddress: address },
    );
    expect(res.statusCode, res.body).toBe(200);
    const mail = await smtp.next();
    expect(mail.to).toEqual(['sales@pool.example']);
    expect(mail.text).toContain('E-mail: jane@example.com');
  });
});
