import { bannerResponse, healthResponse, siteResponse } from '@lodestone/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { parseConfig } from '../../config/config.js';
import { placeholderContacts } from '../../services/site.js';

describe('site routes', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('hides the banner when no text is configured', async () => {
    t = await createTestApp();
    const res = await t.app.inject({ url: '/v1/banner' });
    expect(bannerResponse.parse(res.json())).toEqual({ visible: false, text: '' });
  });

  it('shows the configured banner markup', async () => {
    t = await createTestApp({ BANNER_TEXT: '<b>Maintenance</b> at 12:00 UTC' });
    const res = await t.app.inject({ url: '/v1/banner' });
    expect(res.json()).toEqual({ visible: true, text: '<b>Maintenance</b> at 12:00 UTC' });
  });

  it('publishes branding and contacts from configuration', async () => {
    t = await createTestApp({
      POOL_NAME: 'Acme Pool',
      SUPPORT_EMAIL: 'help@acme.example',
      PHONE_EU: '+49 30 1234567',
      STATUS_URL: 'https://status.acme.example',
      FEE_PERCENT: '0.9',
    });
    const body = siteResponse.parse((await t.app.inject({ url: '/v1/site' })).json());
    expect(body).toMatchObject({
      pool_name: 'Acme Pool',
      support_email: 'help@acme.example',
      phone_eu: '+49 30 1234567',
      fee_percent: 0.9,
      demo: false,
      demo_valuation: null,
      links: { status: 'https://status.acme.example', blog: null, socials: [] },
    });
  });

  it('says on the demo network what its shares are valued at, as the home notice must', async () => {
    for (const valuation of ['reference', 'chain'] as const) {
      const app = await createTestApp({ DEMO_VALUATION: valuation }, undefined, undefined, { network: { demo: true } });
      try {
        const body = siteResponse.parse((await app.app.inject({ url: '/v1/site' })).json());
        expect(body).toMatchObject({ demo: true, demo_valuation: valuation });
      } finally {
        await app.close();
      }
    }
  });

  it('sends null for contacts still at their built-in placeholders, and "" for one set to none', async () => {
    const env = { PHONE_US: 'none', CHAT_HANDLE: 'https://t.me/acme' };
    t = await createTestApp(env);
    const body = siteResponse.parse((await t.app.inject({ url: '/v1/site' })).json());
    // support@example.com and +00 000 000 000 are never published as if they were the operator's.
    expect(body).toMatchObject({
      support_email: null,
      phone_eu: null,
      phone_us: '',
      chat_handle: 'https://t.me/acme',
    });
    expect(placeholderContacts(parseConfig(env))).toEqual(['SUPPORT_EMAIL', 'PHONE_EU']);
    expect(placeholderContacts(parseConfig({}))).toEqual(['SUPPORT_EMAIL', 'PHONE_EU', 'PHONE_US', 'CHAT_HANDLE']);
  });

  it('reports health with the database state', async () => {
    t = await createTestApp();
    const ok = await t.app.inject({ url: '/v1/health' });
    expect(ok.statusCode).toBe(200);
    expect(healthResponse.parse(ok.json())).toMatchObject({ status: 'ok', database: 'up' });

    await t.database.close();
    const down = await t.app.inject({ url: '/v1/health' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ status: 'unavailable', database: 'down' });
    const live = await t.app.inject({ url: '/v1/health/live' });
    expect(live.statusCode).toBe(200);
  });

  it('keeps answering health with a non-negative uptime after the wall clock steps back an hour', async () => {
    t = await createTestApp();
    // Only Date is faked: the uptime runs on the monotonic clock, which a clock step does not move.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() - 3_600_000);
      const res = await t.app.inject({ url: '/v1/health' });
      expect(res.statusCode, res.body).toBe(200);
      expect(healthResponse.parse(res.json()).uptime_seconds).toBeGreaterThanOrEqual(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
