/**
 * Seeding for the public pages' browser tests, through the server's own modules on the test's real
 * database: pool snapshots as the rollup writes them, shares through the accounting job, other
 * pools' figures as the operator enters them, payouts through the payout queries, signatures through
 * the signing service. The website reads everything back through the real API.
 */
import { insertPoolStats, savePoolComparison } from '@lodestone/db';
import { adjustBalance, seedPayout, seedPrices, seedShares, seedUser } from './dashboardSeed.js';
import { issueSignature, payoutReceiptText } from './harness';
import type { Site } from './harness.js';

const HOUR_MS = 3600_000;

/** 0.00012 BTC per TH/s per day, as stored: BTC per H/s per day. */
export const SCRYPT_PROFIT_PER_HASH = '0.00000000000000012';

/**
 * Pool snapshots of SCRYPT: one an hour for the last 30 hours and a fresh one with the stats page's
 * figures, all at 0.00012 BTC/TH/s (so every period's mean, and the calculator's Rate, is exactly
 * that); the fresh one's 24-hour average reads 0.00011.
 */
export async function seedScryptStats(site: Site): Promise<void> {
  const db = site.database.db;
  const now = Date.now();
  for (let h = 30; h >= 1; h -= 1) {
    await insertPoolStats(db, {
      algorithm: 'scrypt',
      taken_at: new Date(now - h * HOUR_MS),
      hashrate: '2000000000000',
      miners: 40,
      workers: 70,
      profit: SCRYPT_PROFIT_PER_HASH,
      profit_avg_24h: SCRYPT_PROFIT_PER_HASH,
    });
  }
  await insertPoolStats(db, {
    algorithm: 'scrypt',
    taken_at: new Date(now - 5000),
    hashrate: '2500000000000',
    miners: 42,
    workers: 80,
    profit: SCRYPT_PROFIT_PER_HASH,
    profit_avg_24h: '0.00000000000000011',
    users: 1234,
    blocks: 17,
    total_hashes: '987654000000000000',
  });
  await insertPoolStats(db, {
    algorithm: 'x11',
    taken_at: new Date(now - 5000),
    hashrate: '750000',
    miners: 3,
    workers: 4,
    profit: '0',
    profit_avg_24h: '0',
    users: 1234,
    blocks: 2,
    total_hashes: '5000000000',
  });
}

/**
 * EAGLESONG as a demo network sees it: a tiny network difficulty makes the profit per PH/s huge,
 * 14,624,920,670 BTC/PH/s per day (ten significant digits, as the chart call rounds), for 30 hours.
 * The profitability chart's y-axis labels were clipped at that magnitude ('24,920,670').
 */
export const HUGE_PROFIT_PER_PH = '14,624,920,670';
export async function seedHugeProfits(site: Site): Promise<void> {
  const now = Date.now();
  for (let h = 30; h >= 0; h -= 1) {
    await insertPoolStats(site.database.db, {
      algorithm: 'eaglesong',
      taken_at: new Date(now - h * HOUR_MS - 5000),
      hashrate: '3000000000',
      miners: 2,
      workers: 3,
      profit: '0.00001462492067',
      profit_avg_24h: '0.00001462492067',
    });
  }
}

/**
 * Other pools' published SCRYPT figures (BTC/TH/s per day): eleven pools, so the 30-day table has
 * twelve rows with ours (two pages). "Higher Pool" pays 5% more than us, "Lower Pool" 10% less,
 * "Equal Pool" the same; the rest are spread below.
 */
export async function seedComparisons(site: Site): Promise<void> {
  const rows: [string, string][] = [
    ['Higher Pool', '0.000126'],
    ['Equal Pool', '0.00012'],
    ['Lower Pool', '0.000108'],
    ...Array.from({ length: 8 }, (_, i): [string, string] => [
      `Pool ${String.fromCharCode(65 + i)}`,
      `0.0000${90 - i}`,
    ]),
  ];
  for (const [name, rate] of rows) {
    await savePoolComparison(
      site.database.db,
      {
        algorithm: 'scrypt',
        poolName: name,
        poolUrl: `https://${name.toLowerCase().replace(/\s+/g, '-')}.example`,
        hashrateUnit: 'TH/s',
        profit24h: name === 'Higher Pool' ? rate : null,
        profit7d: rate,
        profit30d: rate,
      },
      new Date(),
    );
  }
}

/** Prices in US dollars (BTC, LTC, DOGE and the euro rate). */
export function seedMarket(site: Site): Promise<void> {
  return seedPrices(site, { BTC: '100000', LTC: '80', DOGE: '0.16', EUR: '1.08' });
}

/**
 * Two miners with shares on SCRYPT: the top hashers tables. New users are anonymous (hidden from
 * public lists, docs/decisions.md); these two chose to be listed.
 */
export async function seedHashers(site: Site): Promise<void> {
  const big = await seedUser(site, 'bigminer', 'big@example.com');
  const small = await seedUser(site, 'smallminer', 'small@example.com');
  await site.database.db
    .updateTable('users')
    .set({ anonymous: false })
    .where('id', 'in', [big.userId, small.userId])
    .execute();
  await seedShares(site, 'bigminer', [{ name: 'rig1', difficulty: 400_000, valid: 100 }]);
  await seedShares(site, 'smallminer', [{ name: 'rig1', difficulty: 100_000, valid: 50 }]);
}

export const SENT_TXID = '9f2c41e5b0d0a3c1c5e8d1f0b8f7c0e1d2a3b4c5d6e7f8091a2b3c4d5e6f7a8b';

/**
 * Payouts of one account: a sent BTC payout today, a pending LTC one today, a sent LTC payout ten
 * days ago, and ten small DOGE payouts 40 days ago (so the table has two pages and each chart period
 * holds different coins).
 */
export async function seedPayouts(site: Site): Promise<void> {
  const user = await seedUser(site, 'payee', 'payee@example.com');
  const id = user.account.id;
  const day = 24 * HOUR_MS;
  await adjustBalance(site, id, 'BTC', 10_000_000n);
  await adjustBalance(site, id, 'LTC', 1_000_000_000n);
  await adjustBalance(site, id, 'DOGE', 100_000_000_000n);
  const at = (msAgo: number) => new Date(Date.now() - msAgo);
  await seedPayout(site, {
    accountId: id,
    coin: 'BTC',
    at: at(HOUR_MS),
    items: [{ address: 'bc1qexampleaddress0000000000000000000000', amount: 1_500_000n }],
    txid: SENT_TXID,
  });
  await seedPayout(site, {
    accountId: id,
    coin: 'LTC',
    at: at(2 * HOUR_MS),
    items: [{ address: 'ltc1qexampleaddress000000000000000000000', amount: 250_000_000n }],
  });
  await seedPayout(site, {
    accountId: id,
    coin: 'LTC',
    at: at(10 * day),
    items: [{ address: 'ltc1qexampleaddress000000000000000000000', amount: 100_000_000n }],
    txid: 'aa'.repeat(32),
  });
  for (let i = 0; i < 10; i += 1) {
    await seedPayout(site, {
      accountId: id,
      coin: 'DOGE',
      at: at(40 * day + i * 60_000),
      items: [{ address: 'DExampleAddress000000000000000000', amount: 1_000_000_000n }],
      txid: `${String(i).padStart(2, '0')}${'bb'.repeat(31)}`,
    });
  }
}

/** A payout receipt the pool signed, its text and its signature. */
export async function seedSignedReceipt(site: Site): Promise<{ text: string; signature: string }> {
  const text = payoutReceiptText({
    poolName: 'Lodestone',
    account: 'payee',
    coin: 'BTC',
    txid: SENT_TXID,
    sentAt: new Date('2025-06-14T09:00:12.000Z'),
    lines: [{ address: 'bc1qexampleaddress0000000000000000000000', amount: '0.015' }],
  });
  const signature = await issueSignature(site.database.db, 'payout', text, new Date('2025-06-14T09:05:00.000Z'));
  return { text, signature };
}
