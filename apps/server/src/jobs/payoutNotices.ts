import {
  type Coin,
  type DB,
  enqueueNotification,
  listCoins,
  type PayoutNoticeRow,
  payoutsWithoutTelegramNotice,
} from '@lodestone/db';
import { Exact } from '@lodestone/domain';
import type { Kysely } from 'kysely';
import { explorerLink } from '../services/money/coinCatalogue.js';
import type { JobDefinition } from './types.js';

/**
 * Payout notices on Telegram (docs/notifications.md, "Telegram"): each sent payout that paid an
 * account of a user with a linked chat and Telegram notifications on becomes one message to that user
 * (coin, amount per account and address, the transaction and its explorer link). Payouts are looked
 * up rather than announced by the payout engines, so no sending path can forget one; each message's
 * dedupe key (`payout:{payout id}:{user id}:telegram`) makes the notice once, whatever reruns or
 * restarts. Payouts sent before the chat was linked, or more than a day ago, get none. A payout that
 * fails after its notice (a pool-signed transaction reverted or never mined: its balances are
 * restored) gets a second message saying so, once (`payout-failed:{payout id}:{user id}:telegram`).
 */

/** How far back a payout still gets its notice (a jobs role down for longer does not flood chats). */
export const NOTICE_LOOKBACK_MS = 24 * 3_600_000;
const PER_RUN = 200;

/** An exact amount without trailing zeros: 0.0125 LTC, 12 CKB. */
export function plainAmount(units: bigint, decimals: number): string {
  const text = Exact.fromUnits(units, decimals).toFixed(decimals);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The notice of one payout to one user (its rows: the user's accounts and addresses in it). */
export function payoutNotice(poolName: string, rows: readonly PayoutNoticeRow[], coin: Coin | undefined) {
  const first = rows[0] as PayoutNoticeRow;
  const decimals = coin?.decimals ?? 0;
  const total = rows.reduce((sum, r) => sum + r.amount, 0n);
  const amount = `${plainAmount(total, decimals)} ${first.coin}`;
  const link = first.demo ? null : explorerLink(coin?.explorer_tx_url ?? null, '{txid}', first.txid);
  const body = [
    `Payout of ${amount} sent ${utc(first.at)}${first.demo ? ' (demo network: no real coins moved)' : ''}:`,
    ...rows.map((r) => `  ${r.account} → ${r.address}: ${plainAmount(r.amount, decimals)} ${r.coin}`),
    '',
    `Transaction: ${first.txid}`,
    ...(link ? [link] : []),
  ].join('\n');
  return { subject: `[${poolName}] Payout sent: ${amount}`, body };
}

/** The notice that a payout announced as sent failed after all, and its amount is back in the balance. */
export function failedPayoutNotice(poolName: string, rows: readonly PayoutNoticeRow[], coin: Coin | undefined) {
  const first = rows[0] as PayoutNoticeRow;
  const decimals = coin?.decimals ?? 0;
  const total = rows.reduce((sum, r) => sum + r.amount, 0n);
  const amount = `${plainAmount(total, decimals)} ${first.coin}`;
  const body = [
    `The payout of ${amount} announced as sent did not go through (found ${utc(first.at)}); no coins left the pool:`,
    ...rows.map((r) => `  ${r.account} → ${r.address}: ${plainAmount(r.amount, decimals)} ${r.coin}`),
    '',
    'The amount is back in your balance and is paid again with the next payout.',
  ].join('\n');
  return { subject: `[${poolName}] Payout failed: ${amount} back in your balance`, body };
}

/** Rows grouped per payout and user, in their order. */
function byPayoutAndUser<R extends { payoutId: bigint; userId: bigint }>(rows: readonly R[]): R[][] {
  const groups = new Map<string, R[]>();
  for (const row of rows) {
    const key = `${row.payoutId}:${row.userId}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()];
}

/** Queues the notices of payouts sent, and of payouts that failed after their notice, at `now`. */
export async function enqueuePayoutNotices(db: Kysely<DB>, now: Date, poolName: string): Promise<number> {
  const since = new Date(now.getTime() - NOTICE_LOOKBACK_MS);
  const [sent, failed] = await Promise.all([
    payoutsWithoutTelegramNotice(db, 'sent', since, PER_RUN),
    payoutsWithoutTelegramNotice(db, 'failed', since, PER_RUN),
  ]);
  if (sent.length === 0 && failed.length === 0) return 0;
  const coins = new Map((await listCoins(db)).map((c) => [c.ticker, c]));
  const notices = [
    ...byPayoutAndUser(sent).map((group) => {
      const first = group[0] as PayoutNoticeRow;
      return {
        userId: first.userId,
        kind: 'payout-sent',
        dedupeKey: `payout:${first.payoutId}:${first.userId}:telegram`,
        ...payoutNotice(poolName, group, coins.get(first.coin)),
      };
    }),
    ...byPayoutAndUser(failed).map((group) => {
      const first = group[0] as PayoutNoticeRow;
      return {
        userId: first.userId,
        kind: 'payout-failed',
        dedupeKey: `payout-failed:${first.payoutId}:${first.userId}:telegram`,
        ...failedPayoutNotice(poolName, group, coins.get(first.coin)),
      };
    }),
  ];
  let enqueued = 0;
  for (const notice of notices) {
    if (await enqueueNotification(db, { ...notice, channel: 'telegram', now })) enqueued++;
  }
  return enqueued;
}

/** Every minute, after the payout run's minute has begun. */
export function payoutNoticeJob(options: { poolName: string }): JobDefinition {
  return {
    name: 'payout-notices',
    everyMs: 60_000,
    offsetMs: 40_000,
    singleton: true,
    async run({ database, now, log }) {
      const enqueued = await enqueuePayoutNotices(database.db, now, options.poolName);
      if (enqueued > 0) log.info({ job: 'payout-notices', enqueued }, 'payout notices queued for Telegram');
    },
  };
}
