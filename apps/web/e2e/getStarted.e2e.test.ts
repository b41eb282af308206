import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Site, startSite } from './harness.js';

const LISTENERS = [
  { algorithm: 'scrypt', port: 3333, kind: 'standard' },
  { algorithm: 'scrypt', port: 3334, kind: 'marketplace' },
  { algorithm: 'scrypt', port: 3332, kind: 'xnsub' },
];

/**
 * Console errors of the page. A visitor's session check (GET /v1/user/info, docs/website.md, Session) answers
 * `{result: false}`, not a 401, so there are none to expect.
 */
const unexpected = (errors: string[]) => errors;

describe('getting started page', () => {
  let site: Site;

  beforeAll(async () => {
    site = await startSite({ STRATUM_HOST: 'pool.example.org', STRATUM_LISTENERS: JSON.stringify(LISTENERS) });
  });
  afterAll(() => site?.close());

  it('lists every configured stratum port with its URL, kind and the demo-network note', async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto('/get-started');
    const scrypt = page.getByTestId('stratum-scrypt');
    await scrypt.getByTestId('stratum-url').first().waitFor();
    const urls = await scrypt.getByTestId('stratum-url').allInnerTexts();
    expect(urls).toEqual(LISTENERS.map((l) => `stratum+tcp://scrypt.stratum.pool.example.org:${l.port}`));
    expect(urls).toContain('stratum+tcp://scrypt.stratum.pool.example.org:3333');
    const text = await scrypt.innerText();
    expect(text).toContain('Marketplace-restricted');
    expect(text).toContain('#xnsub');
    expect(await scrypt.getByTestId('demo-note').innerText()).toContain('demo network');
    expect(await page.getByTestId('copy-scrypt-3333').count()).toBe(1);
    // Algorithms without a listener are said to be not served, with no invented ports.
    const sha = page.getByTestId('stratum-sha256');
    expect(await sha.innerText()).toContain('Not served by this pool yet');
    expect(await sha.getByTestId('stratum-url').count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Getting Started');
    await expect.poll(() => page.title()).toContain('Getting Started');
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });
});
