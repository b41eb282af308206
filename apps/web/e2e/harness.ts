/**
 * Browser tests drive the built website (apps/web/dist) served by the real server on a real database,
 * in Debian's Chromium through playwright-core. Each test file gets its own server and database.
 */

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Database } from '@lodestone/db';
import { createTestDatabase } from '@lodestone/db/testing';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { buildApp } from '../../server/src/app.js';
import { parseConfig } from '../../server/src/config/config.js';
import { DEFAULT_WEB_DIR } from '../../server/src/paths.js';
import { describeStratum } from '../../server/src/services/stratumInfo.js';

// The one door from browser tests into server code (checked by .dependency-cruiser.cjs,
// rule e2e-bypasses-harness): seeds use the server's own services, so they write what it would.
export { applyShareBatch, recordFoundBlock } from '../../server/src/jobs/accounting.js';
export { checkHashrateAlerts } from '../../server/src/jobs/hashrateAlerts.js';
export { registerUser } from '../../server/src/services/accounts/register.js';
export { SESSION_COOKIE, Sessions } from '../../server/src/services/auth/sessions.js';
export { issueSignature, payoutReceiptText } from '../../server/src/services/public/signatures.js';
export { standInBot, startTelegramStandIn, TEST_BOT_USERNAME } from '../../server/test/telegram.js';

/**
 * Debian's chromium-headless-shell: Chromium's headless-only build, which Playwright itself runs for headless tests. The
 * full browser's headless mode also renders its own interface in WebUI processes: two files' tests took it 110 CPU
 * seconds against 40 here, and in CI it was a quarter of all the CPU the run used.
 */
export const CHROMIUM = '/usr/bin/chromium-headless-shell';

export interface Site {
  baseUrl: string;
  database: Database;
  browser: Browser;
  /**
   * A fresh browser context (own local storage) with a page that records console errors. The site's service worker
   * is blocked unless `serviceWorkers: 'allow'`: requests it answers are not seen by page.route, which other tests
   * use to make the server fail (pwa.e2e.test.ts tests the worker itself).
   */
  newPage(options?: {
    width?: number;
    height?: number;
    serviceWorkers?: 'allow' | 'block';
  }): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  close(): Promise<void>;
}

export async function startSite(env: Record<string, string> = {}): Promise<Site> {
  if (!existsSync(path.join(DEFAULT_WEB_DIR, 'index.html'))) {
    throw new Error(`the website is not built (${DEFAULT_WEB_DIR}); run npm run build first`);
  }
  const database = await createTestDatabase();
  const config = parseConfig({ LOG_LEVEL: 'silent', ...env });
  const app = await buildApp({
    config,
    database,
    network: { demo: false },
    stratum: () => describeStratum(config),
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    baseUrl,
    database,
    browser,
    async newPage(options = {}) {
      const context = await browser.newContext({
        baseURL: baseUrl,
        viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
        serviceWorkers: options.serviceWorkers ?? 'block',
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      return { page, context, errors };
    },
    async close() {
      await browser.close();
      await app.close();
      await database.close();
    },
  };
}
