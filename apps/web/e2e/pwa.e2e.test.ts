import type { APIResponse, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, type SeededUser, seedShares, seedUser } from './dashboardSeed.js';
import { type Site, startSite } from './harness.js';

/**
 * The installable dashboard (docs/dashboard.md, Installing the dashboard) in Chromium against the built site: the
 * manifest and its icons, the service worker taking control, and both dashboards reloaded with the browser offline,
 * showing the last data the server sent and saying that it is offline. Logging out leaves no account's answers.
 */
const WORKER = 'rig-offline-01';
const NOTICE = /^Offline — showing data from \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

/** Width and height from a PNG's IHDR chunk (PNG specification, 11.2.2: right after the 8-byte signature). */
async function pngSize(response: APIResponse): Promise<string> {
  const bytes = await response.body();
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/** The URLs of the API answers the service worker has stored. */
function storedAnswers(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      if (!name.startsWith('lodestone-api-')) continue;
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
}

/**
 * The body of a stored answer, as the worker would serve it offline: the one for `path` whose query has
 * `params` (the dashboard may have stored the same call for another algorithm before it settled on one).
 */
function storedAnswer<T>(page: Page, path: string, params: Record<string, string> = {}): Promise<T> {
  return page.evaluate(
    async ({ wanted, query }) => {
      for (const name of await caches.keys()) {
        if (!name.startsWith('lodestone-api-')) continue;
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          const url = new URL(request.url);
          if (url.pathname !== wanted) continue;
          if (Object.entries(query).some(([key, value]) => url.searchParams.get(key) !== value)) continue;
          return (await (await cache.match(request))?.json()) as never;
        }
      }
      throw new Error(`no stored answer for ${wanted} ${JSON.stringify(query)}`);
    },
    { wanted: path, query: params },
  );
}

async function waitForControl(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

describe('installable dashboard', () => {
  let site: Site;
  let miner: SeededUser;

  beforeAll(async () => {
    site = await startSite();
    miner = await seedUser(site, 'pwa01', 'pwa@example.org');
    await seedShares(site, 'pwa01', [{ name: WORKER, difficulty: 65536, valid: 40 }]);
  });
  afterAll(() => site?.close());

  it('links a valid manifest whose icons load, in the sizes it names', async () => {
    const { page, errors } = await site.newPage({ serviceWorkers: 'allow' });
    await page.goto('/');
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe('#020617');
    const touch = await page.request.get(
      (await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')) ?? '',
    );
    expect(await pngSize(touch)).toBe('180x180');

    const response = await page.request.get('/manifest.webmanifest');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as Manifest;
    expect(manifest).toMatchObject({
      start_url: '/dashboard',
      scope: '/',
      display: 'standalone',
      theme_color: '#020617',
      background_color: '#020617',
    });
    expect(manifest.name.length).toBeGreaterThan(0);
    expect(manifest.short_name.length).toBeLessThanOrEqual(12);
    const purposes = new Map<string, string[]>();
    for (const icon of manifest.icons) {
      const file = await page.request.get(icon.src);
      expect(file.status(), icon.src).toBe(200);
      expect(file.headers()['content-type']).toBe(icon.type);
      expect(await pngSize(file), icon.src).toBe(icon.sizes);
      purposes.set(icon.purpose ?? 'any', [...(purposes.get(icon.purpose ?? 'any') ?? []), icon.sizes]);
    }
    expect(purposes.get('any')).toEqual(['192x192', '512x512']);
    expect(purposes.get('maskable')).toEqual(['512x512']);

    const worker = await page.request.get('/sw.js');
    expect(worker.headers()['cache-control']).toBe('no-cache');
    expect(worker.headers()['content-type']).toMatch(/javascript/);
    expect(errors).toEqual([]);
  });

  it('opens the miner dashboard offline with the last data and says so; logout keeps nothing of the account', async () => {
    const { page, context, errors } = await site.newPage({ serviceWorkers: 'allow' });
    await logIn(context, site, miner);
    await page.goto('/dashboard');
    await waitForControl(page);
    // Installed: the shell, the entry and both dashboards' chunks (the chart's too) are stored before any is needed.
    const shell = await page.evaluate(async () => {
      const name = (await caches.keys()).find((n) => n.startsWith('lodestone-shell-'));
      if (!name) return [];
      return (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname);
    });
    expect(shell).toEqual(expect.arrayContaining(['/index.html', '/favicon.svg', '/manifest.webmanifest']));
    const entry = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>('script[src], link[rel="stylesheet"]')].map(
        (element) => new URL('src' in element ? element.src : element.href).pathname,
      ),
    );
    expect(entry.length).toBeGreaterThan(1);
    expect(shell).toEqual(expect.arrayContaining(entry));
    for (const chunk of [
      /^\/assets\/DashboardPage-/,
      /^\/assets\/ObserverDashboardPage-/,
      /^\/assets\/TimeSeriesChart-/,
    ]) {
      expect(
        shell.some((path) => chunk.test(path)),
        String(chunk),
      ).toBe(true);
    }
    // Controlled from now on: this load's reads go through the worker, which keeps them.
    await page.reload();
    await page.getByTestId('worker-name').first().waitFor();
    expect(await page.getByTestId('offline-notice').count()).toBe(0);
    await expect
      .poll(() => storedAnswers(page))
      .toEqual(expect.arrayContaining(['/v1/user/accounts', '/v1/user/mining', '/v1/user/mining/workers/page']));
    // The shares were seeded on scrypt, the algorithm the dashboard opens on (the most used one).
    const scryptSummary = () =>
      storedAnswer<{ hashrate: number; hashrate_units: string }>(page, '/v1/user/mining', { algorithm: 'scrypt' });
    await expect
      .poll(() =>
        scryptSummary().then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
    const summary = await scryptSummary();

    await context.setOffline(true);
    await page.reload();
    await page.getByTestId('worker-name').first().waitFor();
    expect(await page.getByTestId('worker-name').allInnerTexts()).toEqual([WORKER]);
    expect(await page.getByTestId('card-hashrate').innerText()).toBe(
      `${summary.hashrate.toFixed(2)} ${summary.hashrate_units}`,
    );
    await page.getByTestId('offline-notice').waitFor();
    expect(await page.getByTestId('offline-notice').innerText()).toMatch(NOTICE);

    // Back online, fresh answers replace the stored ones and the notice goes.
    await context.setOffline(false);
    await page.reload();
    await page.getByTestId('worker-name').first().waitFor();
    expect(await page.getByTestId('offline-notice').count()).toBe(0);

    await page.getByTestId('site-nav').getByTestId('logout').click();
    await page.waitForURL((url) => url.pathname === '/');
    // Home asks again who is logged in after the logout; that answer (nobody) is all that may be kept of /v1/user.
    await expect
      .poll(async () => (await storedAnswers(page)).filter((p) => p.startsWith('/v1/user/') && p !== '/v1/user/info'))
      .toEqual([]);
    if ((await storedAnswers(page)).includes('/v1/user/info')) {
      expect(await storedAnswer(page, '/v1/user/info')).toMatchObject({ result: false });
    }
    // Offline now, the dashboard has nothing of the last account to show.
    await context.setOffline(true);
    await page.goto('/dashboard');
    await page.getByTestId('dashboard').getByText('The server could not be reached. Check your connection.').waitFor();
    expect(await page.getByTestId('worker-name').count()).toBe(0);
    // A page never opened on this device is not stored: offline it says so, not "something went wrong".
    await page.getByTestId('site-footer').getByRole('link', { name: 'FAQ' }).click();
    await page.getByTestId('page-offline').waitFor();
    expect(await page.getByTestId('page-offline').innerText()).toContain('You are offline');
    // Offline, with nothing stored, the calls fail, and the site logs each failure: nothing else may be logged.
    const offlineFailure =
      /Failed to load resource|ERR_INTERNET_DISCONNECTED|could not be reached|A page failed to render|dynamically imported module/;
    expect(errors.filter((e) => !offlineFailure.test(e))).toEqual([]);
  });

  it('opens the observer dashboard offline, and installs it to open at its own link', async () => {
    const { page, context } = await site.newPage({ serviceWorkers: 'allow' });
    const key = miner.account.observer_key ?? '';
    const link = `/dashboard/${encodeURIComponent(key)}`;
    await page.goto(link);
    await waitForControl(page);
    await expect
      .poll(() => page.locator('link[rel="manifest"]').getAttribute('href'))
      .toBe(`/observer.webmanifest?key=${encodeURIComponent(key)}`);
    const manifest = (await (
      await page.request.get(`/observer.webmanifest?key=${encodeURIComponent(key)}`)
    ).json()) as Manifest;
    expect(manifest).toMatchObject({ start_url: link, scope: '/', display: 'standalone' });

    await page.reload();
    await page.getByTestId('worker-name').first().waitFor();
    await expect
      .poll(() => storedAnswers(page))
      .toEqual(expect.arrayContaining(['/v1/observer/mining', '/v1/observer/mining/workers/page']));

    await context.setOffline(true);
    await page.reload();
    await page.getByTestId('worker-name').first().waitFor();
    expect(await page.getByTestId('worker-name').allInnerTexts()).toEqual([WORKER]);
    expect(await page.getByTestId('offline-notice').innerText()).toMatch(NOTICE);
  });
});
