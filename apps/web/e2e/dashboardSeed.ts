/**
 * Seeding for the dashboard's browser tests, through the server's own modules on the test's real
 * database: users and accounts by the registration service, sessions by the session service, shares
 * by the accounting job, money by the ledger, payouts by the payout queries. Nothing here is faked
 * past the database: the website reads it all back through the real API.
 */
import {
  type Account,
  accountOfUser,
  createPayout,
  markPayoutSending,
  markPayoutSent,
  postLedgerTransaction,
  savePrices,
} from '@lodestone/db';
import type { ShareBatch, WorkerShareCounts } from '@lodestone/domain';
import type { BrowserContext } from 'playwright-core';
import { applyShareBatch, registerUser, SESSION_COOKIE, Sessions } from './harness';
import type { Site } from './harness.js';

export interface SeededUser {
  userId: bigint;
  account: Account;
  /** The session cookie's value. */
  session: string;
}

/**
 * A user with one account, registered by the real service, and a live session for the browser.
 * `referral`: another account's referral code (or a coupon), as typed in the register form.
 */
export async function seedUser(site: Site, username: string, email: string, referral = ''): Promise<SeededUser> {
  const db = site.database.db;
  const sessions = new Sessions(db, 24 * 3600_000);
  const user = await registerUser(
    { db, sessions, now: () => new Date() },
    { username, email, password: 'correct horse battery', referral, referralSource: null, ip: '127.0.0.1' },
  );
  const account = await accountOfUser(db, user.id, username);
  if (!account) throw new Error(`account ${username} was not created`);
  return { userId: user.id, account, session: await sessions.create(user.id) };
}

/** Logs the browser context in as `user` (the session cookie, and the flag the nav reads). */
export async function logIn(context: BrowserContext, site: Site, user: SeededUser): Promise<void> {
  await context.addCookies([{ name: SESSION_COOKIE, value: user.session, url: site.baseUrl, httpOnly: true }]);
  await context.addInitScript(() => window.localStorage.setItem('isLoggedIn', 'true'));
}

/** Marks the first-time wizard as seen for these accounts, for tests about other things. */
export async function skipWizard(context: BrowserContext, accounts: string[]): Promise<void> {
  await context.addInitScript(
    (names) => window.localStorage.setItem('miningWizardDone', JSON.stringify(names)),
    accounts,
  );
}

/** Fresh prices (US dollars), so balances have a value and conversions may run. */
export async function seedPrices(site: Site, quotes: Record<string, string>, takenAt = new Date()): Promise<void> {
  await savePrices(site.database.db, {
    source: 'e2e',
    takenAt,
    quotes: Object.entries(quotes).map(([ticker, usd]) => ({ ticker, usd })),
  });
}

let keys = 0;

/** A PPS credit of `units` smallest units of `coin` for shares of `algorithm`, at `at`. */
export async function creditPps(
  site: Site,
  accountId: bigint,
  coin: string,
  units: bigint,
  at: Date,
  algorithm: 'scrypt' | 'sha256' | 'x11' = 'scrypt',
): Promise<void> {
  keys += 1;
  await postLedgerTransaction(site.database.db, {
    key: `e2e:pps:${accountId}:${keys}`,
    kind: 'pps_credit',
    at,
    legs: [
      { account: { accountId }, coin, amount: units, kind: 'pps', algorithm },
      { account: { system: 'pool:pps' }, coin, amount: -units, kind: 'pps_expense', algorithm },
    ],
  });
}

/** An operator's adjustment: a balance that did not come from mining (no earning). */
export async function adjustBalance(site: Site, accountId: bigint, coin: string, units: bigint): Promise<void> {
  keys += 1;
  await postLedgerTransaction(site.database.db, {
    key: `e2e:adjust:${accountId}:${keys}`,
    kind: 'admin_adjustment',
    reason: 'browser test',
    legs: [
      { account: { accountId }, coin, amount: units, kind: 'admin_adjustment' },
      { account: { system: 'pool:adjustments' }, coin, amount: -units, kind: 'admin_adjustment' },
    ],
  });
}

/**
 * A payout as the payout job writes it: pending (balances debited), then, with a txid, sending and
 * sent. Without a txid it stays pending, which the dashboard shows as 'Pending...'.
 */
export async function seedPayout(
  site: Site,
  options: { accountId: bigint; coin: string; at: Date; items: { address: string; amount: bigint }[]; txid?: string },
): Promise<void> {
  const db = site.database.db;
  keys += 1;
  const created = await createPayout(db, {
    key: `payout:${options.coin}:00000000-0000-4000-8000-${String(keys).padStart(12, '0')}`,
    coin: options.coin,
    demo: false,
    createdAt: options.at,
    accounts: [
      {
        accountId: options.accountId,
        amount: options.items.reduce((sum, i) => sum + i.amount, 0n),
        items: options.items,
      },
    ],
  });
  if (!created) throw new Error('the payout was not created (balance too low?)');
  if (options.txid) {
    await markPayoutSending(db, created.payout.id, options.at);
    await markPayoutSent(db, created.payout.id, { txid: options.txid, fee: 1000n, at: options.at });
  }
}

let batches = 0;

/**
 * One share batch through the accounting job, ending `secondsAgo` before now, for workers of one
 * account: what a stratum node sends every few seconds.
 */
export async function seedShares(
  site: Site,
  account: string,
  workers: { name: string; difficulty: number; valid: number; invalid?: number; stale?: number }[],
  options: { algorithm?: 'scrypt' | 'sha256' | 'x11'; secondsAgo?: number } = {},
): Promise<void> {
  batches += 1;
  const end = Date.now() - (options.secondsAgo ?? 0) * 1000;
  const counts: WorkerShareCounts[] = workers.map((w) => ({
    account,
    worker: w.name,
    acceptedDifficulty: w.difficulty,
    valid: w.valid,
    invalid: w.invalid ?? 0,
    stale: w.stale ?? 0,
    lastShareAt: end - 1000,
    ...(w.valid > 0 && { lastAcceptedAt: end - 1000 }),
    rejectReasons: {},
  }));
  const batch: ShareBatch = {
    id: `00000000-0000-4000-9000-${String(batches).padStart(12, '0')}`,
    node: 'e2e-node',
    algorithm: options.algorithm ?? 'scrypt',
    intervalStart: end - 5000,
    intervalEnd: end,
    workers: counts,
  };
  await applyShareBatch(site.database.db, batch);
}
