import { readFileSync } from 'node:fs';
import { insertWatcherLink } from '@lodestone/db';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adjustBalance,
  creditPps,
  logIn,
  type SeededUser,
  seedPayout,
  seedShares,
  seedUser,
  skipWizard,
} from './dashboardSeed.js';
import { Sessions } from './harness';
import { type Site, startSite } from './harness.js';
import {
  seedComparisons,
  seedHashers,
  seedMarket,
  seedPayouts,
  seedScryptStats,
  seedSignedReceipt,
} from './publicSeed.js';

/**
 * Every route of the site on a phone (375 px wide, issue 16): logged out, as a miner with workers,
 * balances, payouts and earnings, as an observer and as an admin. No page may scroll sideways, and
 * every money figure (and the other cells a miner reads on the go) must be on screen, uncut, and an
 * amount on one line. The seeds are the other browser tests' (real server, real database); the
 * figures are large on purpose: a balance of millions of DOGE, a 62-character payout address.
 * With PHONE_SHOTS=<folder> every visit is also saved as screenshots, to look at by eye.
 */
const WIDTH = 375;
const HEIGHT = 740;
const DAY = 24 * 3600_000;

/** The route table, read from the source so that a new page cannot be left out of this test. */
const PAGE_PATHS = [
  ...readFileSync(new URL('../src/routes/pages.ts', import.meta.url), 'utf8').matchAll(/path: '([^']+)'/g),
]
  .map((m) => m[1] ?? '')
  .filter((p) => p !== '');

/** A long but real-shaped payout address (P2WSH, 62 characters) and a full txid. */
const LONG_ADDRESS = 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3';
const LTC_ADDRESS = 'ltc1qg82tlsdqs8zw4ct6u8ansjy0scvdq4agtnacnv';
const TXID = 'f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16';
/** Browsers of the miner's other sessions. */
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

type Role = 'visitor' | 'miner' | 'observer' | 'admin';

/**
 * Where the text of a cell may wrap: `none` (an amount: one line), `words` (a figure and its unit may
 * part, a number never), `email` (after the @ or before a dot), `path` (after a dot, bar or brace of
 * an API field's path), `any` (not checked).
 */
type Breaks = 'none' | 'words' | 'email' | 'path' | 'any';

/**
 * Cells to read on the page: every element matching `selector` must be visible inside the viewport
 * and inside every scrolling or clipping ancestor, with no hidden overflow of its own, and wrap only
 * where `breaks` allows. `min`: how many must be there at least.
 */
interface Readable {
  selector: string;
  min: number;
  breaks: Breaks;
}

interface Visit {
  /** The PAGES path this visit covers ('' is home, 'api' the redirect to the API overview). */
  route: string;
  url: string;
  as: Role;
  /** A test id that is on the page once its data has loaded. */
  ready?: string;
  /** What to do once ready (open a tab, run a search) before measuring. */
  prepare?: (page: Page) => Promise<void>;
  name?: string;
  readable?: Readable[];
}

const cells = (testId: string, min: number, breaks: Breaks = 'none'): Readable => ({
  selector: `[data-testid="${testId}"]`,
  min,
  breaks,
});

interface Problem {
  visit: string;
  problem: string;
}

/** Measures one loaded page: the document's width and each readable cell. */
async function measure(page: Page, readable: Readable[]): Promise<string[]> {
  const problems: string[] = [];
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width > WIDTH) problems.push(`the page is ${width} px wide (viewport ${WIDTH} px)`);
  for (const r of readable) {
    const found = await page.locator(r.selector).evaluateAll(
      (elements, { breaks, viewport }) =>
        elements.map((element) => {
          const el = element as HTMLElement;
          const text = (el.innerText || el.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ');
          const rect = el.getBoundingClientRect();
          const issues: string[] = [];
          if (rect.width === 0 || rect.height === 0 || getComputedStyle(el).visibility === 'hidden') {
            issues.push('not visible');
          }
          if (rect.left < -0.5 || rect.right > viewport + 0.5) {
            issues.push(`off screen (${Math.round(rect.left)}–${Math.round(rect.right)} px)`);
          }
          if (el.scrollWidth > el.clientWidth + 1) issues.push(`cut (${el.scrollWidth} px in ${el.clientWidth} px)`);
          // A scrolling or clipping ancestor that hides part of the cell (a table scrolled sideways).
          for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
            const overflow = getComputedStyle(a).overflowX;
            if (overflow === 'visible') continue;
            const box = a.getBoundingClientRect();
            if (rect.left < box.left - 0.5 || rect.right > box.right + 0.5) {
              issues.push(`hidden by a ${overflow} container (${Math.round(rect.left)}–${Math.round(rect.right)} px)`);
              break;
            }
          }
          if (breaks !== 'any') {
            // Where the visible text wraps: the characters either side of each line break (text a
            // screen reader alone gets, and labels drawn by CSS, are not part of it).
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            const chars: { c: string; top: number }[] = [];
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              if (node.parentElement?.closest('.sr-only')) continue;
              const value = node.textContent ?? '';
              for (let i = 0; i < value.length; i++) {
                const range = document.createRange();
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                const box = range.getBoundingClientRect();
                if (box.width > 0 && !/\s/.test(value[i] ?? '')) chars.push({ c: value[i] ?? '', top: box.top });
                else if (/\s/.test(value[i] ?? '')) chars.push({ c: ' ', top: Number.NaN });
              }
            }
            let previous: { c: string; top: number } | null = null;
            let space = false;
            for (const ch of chars) {
              if (ch.c === ' ') {
                space = true;
                continue;
              }
              if (previous && Math.abs(ch.top - previous.top) > 4) {
                const allowed =
                  (breaks === 'words' && space) ||
                  (breaks === 'email' && (previous.c === '@' || ch.c === '.')) ||
                  (breaks === 'path' && '.|{'.includes(previous.c));
                if (!allowed) issues.push(`broken between "${previous.c}" and "${ch.c}"`);
              }
              previous = ch;
              space = false;
            }
          }
          return { text, issues };
        }),
      { breaks: r.breaks, viewport: WIDTH },
    );
    if (found.length < r.min) problems.push(`${r.selector}: ${found.length} found, ${r.min} expected`);
    for (const f of found) {
      if (f.issues.length > 0) problems.push(`${r.selector} "${f.text.slice(0, 40)}": ${f.issues.join(', ')}`);
    }
  }
  return problems;
}

describe('phones (375 px): every route fits the screen and its money columns are readable', () => {
  let site: Site;
  let miner: SeededUser;
  let admin: SeededUser;
  let signature: string;
  const contexts: Partial<Record<Role, BrowserContext>> = {};

  beforeAll(async () => {
    site = await startSite();
    // The public pages' data, as the public browser test seeds it.
    await seedMarket(site);
    await seedScryptStats(site);
    await seedComparisons(site);
    await seedHashers(site);
    await seedPayouts(site);
    signature = (await seedSignedReceipt(site)).signature;

    // A miner with many workers (long names), large balances in three coins, payouts to long
    // addresses, and earnings in two coins on the same days.
    miner = await seedUser(site, 'phoneminer', 'phone.miner.with.a.long.name@example-mining-farm.org');
    const id = miner.account.id;
    await seedShares(
      site,
      'phoneminer',
      Array.from({ length: 12 }, (_, i) => ({
        name: `antminer-l7-rack${String(i + 1).padStart(2, '0')}`,
        difficulty: 512_000 * (i + 1),
        valid: 123_456 + i,
        invalid: i,
        stale: i % 2,
      })),
    );
    const now = Date.now();
    for (let d = 1; d <= 3; d++) {
      await creditPps(site, id, 'LTC', 1_234_567_890_123n, new Date(now - d * DAY));
      await creditPps(site, id, 'DOGE', 987_654_321_000_000n, new Date(now - d * DAY));
    }
    await adjustBalance(site, id, 'BTC', 123_456_789n);
    // Two miners registered with the miner's referral code, mining on two algorithms each.
    for (const name of ['referredrig-operator-one', 'referredrig-operator-two']) {
      await seedUser(site, name, `${name}@example.org`, miner.account.referral_code);
      await seedShares(site, name, [{ name: 'rig1', difficulty: 900_000, valid: 10 }]);
      await seedShares(site, name, [{ name: 'rig1', difficulty: 900_000, valid: 10 }], { algorithm: 'sha256' });
    }
    await seedPayout(site, {
      accountId: id,
      coin: 'LTC',
      at: new Date(now - DAY / 2),
      txid: TXID,
      items: [
        { address: LTC_ADDRESS, amount: 12_345_678_901n },
        { address: 'ltc1qsecondaddress', amount: 5_000_000n },
      ],
    });
    await seedPayout(site, {
      accountId: id,
      coin: 'BTC',
      at: new Date(now - DAY / 3),
      txid: TXID.split('').reverse().join(''),
      items: [{ address: LONG_ADDRESS, amount: 12_345_678n }],
    });
    await seedPayout(site, {
      accountId: id,
      coin: 'BTC',
      at: new Date(now - DAY / 4),
      items: [{ address: LONG_ADDRESS, amount: 1_000_000n }],
    });

    // An admin whose login checked a 2FA code (the admin tools ask for one), with a long e-mail.
    const seeded = await seedUser(site, 'phoneadmin', 'operations.team.lead@lodestone-pool-admins.example.org');
    await site.database.db
      .updateTable('users')
      .set({ is_admin: true, totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' })
      .where('id', '=', seeded.userId)
      .execute();
    admin = {
      ...seeded,
      session: await new Sessions(site.database.db, 3600_000).create(seeded.userId, { twoFactorVerified: true }),
    };
    // A watcher link beside the miner's observer link (Settings, Watcher links), with a long name and an expiry.
    await insertWatcherLink(site.database.db, {
      accountId: id,
      key: 'phone-watcher-link-key-of-the-hosting-provider',
      name: 'Hosting provider in the second data centre',
      scope: 'revenue',
      createdAt: new Date(now - DAY),
      expiresAt: new Date(now + 30 * DAY),
    });
    // Where else the miner is logged in (Settings, Sessions): a phone on an IPv6 network, and the admin as them.
    const sessions = new Sessions(site.database.db, 3600_000);
    await sessions.create(miner.userId, { client: { userAgent: IPHONE, ip: '2001:db8:85a3:1234::9' } });
    await sessions.create(miner.userId, {
      impersonatorUserId: admin.userId,
      client: { userAgent: CHROME, ip: '203.0.113.77' },
    });
  });
  afterAll(async () => {
    for (const context of Object.values(contexts)) await context?.close();
    await site?.close();
  });

  /** One browser context per role, at phone size, logged in as that role. */
  async function pageAs(role: Role): Promise<{ page: Page; errors: string[] }> {
    const { page, context, errors } = await site.newPage({ width: WIDTH, height: HEIGHT });
    contexts[role] = context;
    if (role === 'miner') {
      await logIn(context, site, miner);
      await skipWizard(context, ['phoneminer']);
    }
    if (role === 'admin') {
      await logIn(context, site, admin);
      await skipWizard(context, ['phoneadmin']);
    }
    return { page, errors };
  }

  const visitorVisits = (): Visit[] => [
    {
      route: '',
      url: '/',
      as: 'visitor',
      ready: 'pool-row-scrypt',
      readable: [cells('profit', 1), cells('hashrate', 1)],
    },
    {
      route: 'stats',
      url: '/stats',
      as: 'visitor',
      ready: 'top-row',
      readable: [
        cells('cell-profit', 1, 'words'),
        cells('cell-profit-avg', 1, 'words'),
        cells('cell-profit-speed', 1, 'words'),
        cells('cell-hashrate', 1, 'words'),
        cells('cell-hashes', 1, 'words'),
        cells('top-value', 2),
      ],
    },
    { route: 'blocks', url: '/blocks', as: 'visitor', ready: 'blocks-network' },
    {
      route: 'profitability',
      url: '/profitability',
      as: 'visitor',
      ready: 'comparison-row',
      readable: [cells('profitability', 10), cells('comparison', 10), cells('pool-name', 10, 'words')],
    },
    {
      route: 'payouts',
      url: '/payouts',
      as: 'visitor',
      ready: 'payout-row',
      readable: [cells('payout-amount', 10), cells('payout-txid', 10), cells('payout-date', 10)],
    },
    { route: 'faq', url: '/faq', as: 'visitor', ready: 'faq-page' },
    { route: 'lottery', url: '/lottery', as: 'visitor', ready: 'lottery-page' },
    { route: 'get-started', url: '/get-started', as: 'visitor', ready: 'get-started' },
    { route: 'login', url: '/login', as: 'visitor', ready: 'robot-check' },
    { route: 'register', url: '/register', as: 'visitor', ready: 'robot-check' },
    { route: 'forgotPassword', url: '/forgotPassword', as: 'visitor', ready: 'robot-check' },
    { route: 'newPassword', url: '/newPassword?token=abc', as: 'visitor' },
    // The page asks before it unsubscribes: opening it calls nothing.
    {
      route: 'unsubscribe',
      url: `/unsubscribe?token=1.offline-workers.${'A'.repeat(43)}`,
      as: 'visitor',
      ready: 'unsubscribe',
    },
    { route: 'privacy', url: '/privacy', as: 'visitor', ready: 'privacy-page' },
    { route: 'terms', url: '/terms', as: 'visitor', ready: 'terms-page' },
    { route: 'signature/:signature', url: `/signature/${signature}`, as: 'visitor', ready: 'signature-issued' },
    { route: 'logo', url: '/logo', as: 'visitor', ready: 'logo-page' },
    { route: 'powerbridge', url: '/powerbridge', as: 'visitor', ready: 'contacts' },
    { route: 'sats4soup', url: '/sats4soup', as: 'visitor', ready: 'sats4soup-page' },
    { route: 'api', url: '/api', as: 'visitor', ready: 'api-overview' },
    { route: 'overview', url: '/overview', as: 'visitor', ready: 'api-description' },
    {
      route: 'endpoints/get-pool-data',
      url: '/endpoints/get-pool-data',
      as: 'visitor',
      ready: 'api-fields',
      readable: [
        { selector: '[data-testid="api-field"] > td:first-child > span > span:first-child', min: 5, breaks: 'path' },
      ],
    },
    {
      route: 'endpoints/get-pools-profits',
      url: '/endpoints/get-pools-profits',
      as: 'visitor',
      ready: 'api-fields',
      readable: [
        { selector: '[data-testid="api-field"] > td:first-child > span > span:first-child', min: 5, breaks: 'path' },
      ],
    },
    {
      route: 'endpoints/get-user-data',
      url: '/endpoints/get-user-data',
      as: 'visitor',
      ready: 'api-fields',
      readable: [
        { selector: '[data-testid="api-field"] > td:first-child > span > span:first-child', min: 5, breaks: 'path' },
      ],
    },
  ];

  /** The dashboard's two tabs, for the miner and the observer. */
  const dashboardVisits = (route: string, url: string, as: Role): Visit[] => [
    {
      route,
      url,
      as,
      name: `${url} (Mining)`,
      ready: 'worker-row',
      readable: [
        cells('worker-name', 10),
        cells('worker-hashrate', 10),
        cells('worker-accepted', 10),
        cells('worker-rejected', 10),
        ...(as === 'miner' ? [cells('remove-worker', 10, 'any')] : []),
        cells('card-hashrate', 1, 'words'),
        cells('card-revenue', 1, 'words'),
      ],
    },
    {
      route,
      url,
      as,
      name: `${url} (Revenue)`,
      prepare: async (page) => {
        await page.getByTestId('tab-revenue').click();
        await page.getByTestId('earning-row').first().waitFor();
        await page.getByTestId('payment-row').first().waitFor();
        await page.getByTestId('balance-BTC').waitFor();
        // The animated numbers settle (800 ms).
        await page.waitForTimeout(1000);
      },
      readable: [
        cells('balance-amount', 3),
        cells('balance-usd', 3),
        cells('balance-price', 3),
        cells('payment-amount', 4),
        cells('payment-txid', 4),
        cells('payment-address', 4),
        cells('earning-amount', 6),
        cells('lifetime-amount', 2),
      ],
    },
  ];

  const minerVisits = (): Visit[] => [
    ...dashboardVisits('dashboard', '/dashboard', 'miner'),
    // The dashboard's settings dialogs, each with an address row added.
    {
      route: 'dashboard',
      url: '/dashboard',
      as: 'miner',
      name: '/dashboard (Payout Settings)',
      ready: 'worker-row',
      prepare: async (page) => {
        await page.getByTestId('tab-revenue').click();
        await page.getByTestId('open-payout-settings').click();
        await page.getByTestId('payout-add-LTC').click();
        await page.getByTestId('payout-address').first().fill(LONG_ADDRESS);
      },
      readable: [{ selector: 'dialog[open]', min: 1, breaks: 'any' }],
    },
    {
      route: 'dashboard',
      url: '/dashboard',
      as: 'miner',
      name: '/dashboard (Conversion Settings)',
      ready: 'worker-row',
      prepare: async (page) => {
        await page.getByTestId('tab-revenue').click();
        await page.getByTestId('open-conversion-settings').click();
        await page.getByTestId('conversion-list').waitFor();
      },
      readable: [{ selector: 'dialog[open]', min: 1, breaks: 'any' }],
    },
    {
      route: '',
      url: '/',
      as: 'miner',
      name: '/ (menu open)',
      ready: 'pool-row-scrypt',
      prepare: (page) => page.getByTestId('hamburger').click(),
    },
    {
      route: 'settings',
      url: '/settings',
      as: 'miner',
      ready: 'session-row',
      prepare: (page) => page.getByTestId('watcher-row').nth(1).waitFor(),
      readable: [
        cells('session-device', 3, 'words'),
        cells('session-network', 3),
        cells('session-created', 3),
        cells('session-last-active', 3),
        cells('session-logout', 2, 'any'),
        // Watcher links: what each shows, its expiry and last use, the copy of its link (which scrolls in its field), Revoke.
        cells('watcher-name', 2, 'words'),
        cells('watcher-scope', 2, 'words'),
        cells('watcher-expires', 2),
        cells('watcher-last-used', 2, 'words'),
        cells('copy-observer-link', 1, 'any'),
        cells('copy-watcher-url', 1, 'any'),
        cells('watcher-revoke', 1, 'any'),
      ],
    },
    {
      route: 'referrals',
      url: '/referrals',
      as: 'miner',
      ready: 'referral-row',
      readable: [cells('referral-revenue', 2)],
    },
    { route: 'coupon', url: '/coupon', as: 'miner', ready: 'coupon-form' },
    // Every account of the miner side by side (docs/dashboard.md, "All accounts"): a card per account.
    {
      route: 'dashboard/overview',
      url: '/dashboard/overview',
      as: 'miner',
      ready: 'overview-account',
      readable: [cells('overview-account', 1, 'words')],
    },
    // The public pages again, with the logged-in menu.
    { route: '', url: '/', as: 'miner', ready: 'pool-row-scrypt', readable: [cells('profit', 1)] },
    { route: 'get-started', url: '/get-started', as: 'miner', ready: 'get-started' },
  ];

  const adminVisits = (): Visit[] => [
    {
      route: 'admin/users',
      url: '/admin/users',
      as: 'admin',
      ready: 'user-row',
      readable: [cells('user-email', 4, 'email'), cells('user-login', 4, 'any')],
    },
    {
      route: 'admin/logs',
      url: '/admin/logs',
      as: 'admin',
      ready: 'logs-form',
      prepare: async (page) => {
        await page.getByLabel('Email').fill('phone.miner.with.a.long.name@example-mining-farm.org');
        await page.getByRole('button', { name: 'Search' }).click();
        await page.getByTestId('log-entry').first().waitFor();
      },
    },
    { route: 'admin/balance', url: '/admin/balance', as: 'admin', ready: 'balance-form' },
    { route: 'admin/treasury', url: '/admin/treasury', as: 'admin', ready: 'treasury-table' },
  ];

  async function run(visits: Visit[], role: Role): Promise<Problem[]> {
    const { page, errors } = await pageAs(role);
    const problems: Problem[] = [];
    for (const [index, visit] of visits.entries()) {
      const name = visit.name ?? visit.url;
      await page.goto(visit.url);
      if (visit.ready) await page.getByTestId(visit.ready).first().waitFor();
      await page.waitForLoadState('networkidle');
      if (visit.prepare) await visit.prepare(page);
      for (const problem of await measure(page, visit.readable ?? [])) problems.push({ visit: name, problem });
      if (process.env.PHONE_SHOTS) {
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        for (let y = 0; y < height; y += 900) {
          await page.screenshot({
            path: `${process.env.PHONE_SHOTS}/${role}-${index}-${name.replace(/[^a-z0-9]+/gi, '_').slice(0, 30)}-${y}.png`,
            fullPage: true,
            clip: { x: 0, y, width: WIDTH, height: Math.min(900, height - y) },
          });
        }
      }
    }
    expect(errors).toEqual([]);
    return problems;
  }

  const covered = new Set<string>();

  it('logged out: every public page', async () => {
    const visits = visitorVisits();
    for (const v of visits) covered.add(v.route);
    expect(await run(visits, 'visitor')).toEqual([]);
  }, 180_000);

  it('as a miner: the dashboard (both tabs), settings, referrals, coupon', async () => {
    const visits = minerVisits();
    for (const v of visits) covered.add(v.route);
    expect(await run(visits, 'miner')).toEqual([]);
  }, 120_000);

  it('as an observer: both tabs of the observer dashboard', async () => {
    const key = encodeURIComponent(miner.account.observer_key ?? '');
    const visits = dashboardVisits('dashboard/:observerKey', `/dashboard/${key}`, 'observer');
    for (const v of visits) covered.add(v.route);
    expect(await run(visits, 'observer')).toEqual([]);
  }, 120_000);

  it('as an admin: the four admin screens', async () => {
    const visits = adminVisits();
    for (const v of visits) covered.add(v.route);
    expect(await run(visits, 'admin')).toEqual([]);
  }, 120_000);

  it('covered every route of the route table', () => {
    expect(PAGE_PATHS.length).toBeGreaterThan(20);
    expect(PAGE_PATHS.filter((p) => !covered.has(p))).toEqual([]);
  });
});
