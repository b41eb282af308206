import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  appendUserLog,
  type Executor,
  serverSecret,
  telegramLinkOf,
  type UserPreferences,
  updateUserPreferences,
} from '@lodestone/db';
import { errors } from '../errors.js';

/**
 * Unsubscribe links (docs/notifications.md, "Unsubscribing"). Every message names a topic; its link
 * carries a token signed with a key the pool keeps in its database (every process gets the same), for
 * one user and one topic. The token does not expire: a link in a year-old e-mail still works, and all
 * it can do is turn one notification off.
 */

/** Topics a miner can turn off, and the preference (users column) each one is. */
export const TOPIC_PREFERENCE = {
  'offline-workers': 'offline_worker_notification',
  'monthly-reports': 'send_monthly_reports',
} as const satisfies Record<string, keyof UserPreferences>;
export type NotificationTopic = keyof typeof TOPIC_PREFERENCE;

/** The topic of each kind of message. */
export const KIND_TOPIC: Record<string, NotificationTopic> = {
  'worker-offline': 'offline-workers',
  'worker-online': 'offline-workers',
  'monthly-report': 'monthly-reports',
};

const KEY_NAME = 'unsubscribe-hmac';

/** The signing key (generated once and kept in server_secrets). */
export function unsubscribeKey(db: Executor): Promise<string> {
  return serverSecret(db, KEY_NAME, () => randomBytes(32).toString('base64url'));
}

function mac(key: string, userId: bigint, topic: string): string {
  return createHmac('sha256', key).update(`unsubscribe:${userId}:${topic}`).digest('base64url');
}

/** `{user id}.{topic}.{HMAC-SHA256}`: URL-safe as it is. */
export function unsubscribeToken(key: string, userId: bigint, topic: NotificationTopic): string {
  return `${userId}.${topic}.${mac(key, userId, topic)}`;
}

/** The user and topic of a genuine token; undefined for anything else. */
export function readUnsubscribeToken(
  key: string,
  token: string,
): { userId: bigint; topic: NotificationTopic } | undefined {
  const match = /^([1-9][0-9]{0,18})\.([a-z-]{1,40})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const [, id, topic, signature] = match as unknown as [string, string, string, string];
  if (!Object.hasOwn(TOPIC_PREFERENCE, topic)) return undefined;
  const userId = BigInt(id);
  const expected = Buffer.from(mac(key, userId, topic));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  return { userId, topic: topic as NotificationTopic };
}

/**
 * Turns the token's notification off (logged as settings_changed, source unsubscribe link). Doing it
 * twice is harmless. A token that is not ours is refused with UNSUBSCRIBE_TOKEN_INVALID.
 */
export async function unsubscribe(db: Executor, token: string, now: Date): Promise<{ topic: NotificationTopic }> {
  const read = readUnsubscribeToken(await unsubscribeKey(db), token);
  if (!read) throw errors.refused('UNSUBSCRIBE_TOKEN_INVALID', 'This unsubscribe link is not valid.');
  const preference = TOPIC_PREFERENCE[read.topic];
  const user = await db
    .selectFrom('users')
    .select(['id', preference, 'telegram_notifications'])
    .where('id', '=', read.userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!user) throw errors.refused('UNSUBSCRIBE_TOKEN_INVALID', 'This unsubscribe link is not valid.');
  if (!user[preference]) return { topic: read.topic };
  // The link came in an e-mail and stops e-mails. Offline alerts that also reach a linked Telegram chat
  // go on there ("Offline alerts on Telegram only"); otherwise the toggle goes off.
  const alertsReachTelegram =
    read.topic === 'offline-workers' &&
    user.telegram_notifications &&
    (await telegramLinkOf(db, read.userId)) !== undefined;
  const change: UserPreferences = alertsReachTelegram
    ? { offline_worker_telegram_only: true }
    : { [preference]: false };
  await updateUserPreferences(db, read.userId, change);
  await appendUserLog(db, {
    userId: read.userId,
    name: 'settings_changed',
    value: { ...change, via: 'unsubscribe link' },
    time: now,
  });
  return { topic: read.topic };
}
