import {
  type Account,
  type Database,
  emailUndeliveredTelegramAlerts,
  enqueueNotification,
  eraseUser,
  failSentPayout,
  telegramLinkOf,
} from '@lodestone/db';
import { createTestDatabase, emptyTestDatabase, insertTestAccount, testEngines } from '@lodestone/db/testing';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { standInBot, startTelegramStandIn, TEST_BOT_USERNAME, type TelegramStandIn } from '../../../test/telegram.js';
import { createTelegramLinkCode } from '../../services/notifications/telegramLink.js';
import { enqueuePayoutNotices } from '../payoutNotices.js';
import { mineSteadily, recordingLog } from '../testing.js';
import { checkOfflineWorkers } from '../workerAlerts.js';
import { runWorkerRollup } from '../workerRollup.js';
import type { TelegramBot } from './telegramBot.js';
import { sendDueTelegram } from './telegramSender.js';

// Telegram end to end against the Bot API stand-in: linking with a one-time code, the bot's commands,
// offline/online alerts and payout notices through the outbox, and what Telegram answers back
// (blocked chats, flood limits), as the jobs role runs them.

const T0 = Date.parse('2026-11-20T12:00:00Z');
const MIN = 60_000;
const HOUR = 3_600_000;
const OPTIONS = { poolName: 'Lodestone', publicUrl: 'https://pool.example.org' };
const CHAT = { id: 4242, username: 'alice_tg', firstName: 'Alice' };
const TXID = 'ab'.repeat(32);

describe.each(testEngines())('Telegram on %s', (engine) => {
  let database: Database;
  let api: TelegramStandIn;
  let telegram: TelegramBot;
  let alice: Account;
  const log = recordingLog();

  const newBot = () => standInBot(api, database.db, { publicUrl: OPTIONS.publicUrl, log });

  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await emptyTestDatabase(database.db);
    api = await startTelegramStandIn();
    telegram = newBot();
    alice = await insertTestAccount(database.db, 'alice');
    await sql`update users set offline_worker_notification = true where id = ${alice.user_id}`.execute(database.db);
    log.entries.splice(0);
  });
  afterEach(async () => {
    await api.close();
  });

  const replies = () => api.sent.map((m) => m.text);

  /** Links alice's chat the way a miner does: a code from Settings, /start <code> in Telegram. */
  async function link(at = new Date(T0)) {
    await telegram.pollOnce(at); // getMe: the bot's @username, which the deep link needs
    const { code, url } = await createTelegramLinkCode(database.db, alice.user_id, at);
    expect(url).toBe(`https://t.me/${TEST_BOT_USERNAME}?start=${code}`);
    api.userSays(CHAT, `/start ${code}`);
    await telegram.pollOnce(at);
    return code;
  }

  const mine = (workers: string[], fromMs: number, toMs: number, everyMs: number) =>
    mineSteadily(database.db, 'alice', workers, { fromMs, toMs, everyMs });

  /** The jobs role at `atMs`: rollup, alert check, payout notices, Telegram sender. */
  async function tick(atMs: number) {
    const now = new Date(atMs);
    await runWorkerRollup(database.db, now);
    await checkOfflineWorkers(database.db, now, OPTIONS);
    await enqueuePayoutNotices(database.db, now, OPTIONS.poolName);
    await sendDueTelegram(database.db, now, telegram, log, { pauseMs: 0 });
  }

  async function ticks(fromMs: number, toMs: number) {
    for (let t = fromMs; t <= toMs; t += MIN) await tick(t);
  }

  it('links a chat with a one-time code from /start, and only once', async () => {
    const code = await link();
    expect(replies()).toEqual([expect.stringContaining('Linked to your Lodestone login (accounts: alice).')]);
    expect(await telegramLinkOf(database.db, alice.user_id)).toMatchObject({
      chatId: BigInt(CHAT.id),
      telegramUsername: 'alice_tg',
    });
    const user = await database.db
      .selectFrom('users')
      .select('telegram_notifications')
      .where('id', '=', alice.user_id)
      .executeTakeFirstOrThrow();
    expect(user.telegram_notifications).toBe(true);
    // The bot told Telegram its commands and reads only messages.
    expect(api.calls.find((c) => c.method === 'setmycommands')?.params.commands).toContainEqual({
      command: 'status',
      description: 'Hashrate and workers of your accounts',
    });
    expect(api.calls.find((c) => c.method === 'getupdates')?.params.allowed_updates).toEqual(['message']);

    // The same code from another chat: used up.
    api.userSays({ id: 777 }, `/start ${code}`);
    await telegram.pollOnce(new Date(T0));
    expect(replies()[1]).toContain('This link is not valid any more');
    expect((await telegramLinkOf(database.db, alice.user_id))?.chatId).toBe(BigInt(CHAT.id));
    // Updates are confirmed: a restarted jobs role (a new bot) handles none of them again.
    telegram = newBot();
    await telegram.pollOnce(new Date(T0));
    expect(api.sent).toHaveLength(2);
    expect(api.pendingUpdates()).toBe(0);
  });

  it('backs off while the Bot API fails, with one warning per outage, and misses no update', async () => {
    await link();
    api.failNext('getUpdates', { code: 502, description: 'Bad Gateway' });
    api.userSays(CHAT, '/help');
    expect(await telegram.pollOnce(new Date(T0 + 1000))).toBe(0);
    const polls = () => api.calls.filter((c) => c.method === 'getupdates').length;
    const before = polls();
    await telegram.pollOnce(new Date(T0 + 2000)); // inside the 2-second pause: not even asked
    expect(polls()).toBe(before);
    expect(await telegram.pollOnce(new Date(T0 + 3000))).toBe(1);
    expect(replies().at(-1)).toContain('This is the Lodestone bot.');
    expect(log.entries.filter((e) => e.level === 'warn').map((e) => e.message)).toEqual([
      expect.stringContaining('Telegram Bot API not reached'),
    ]);
    expect(log.entries.some((e) => e.message === 'Telegram Bot API reached again')).toBe(true);

    // A wrong token: refused (401), reported, never thrown at the scheduler every 2 seconds.
    const wrong = standInBot(api, database.db, { log, token: '987654321:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(await wrong.pollOnce(new Date(T0))).toBe(0);
    expect(log.entries.at(-1)?.fields).toMatchObject({ error: expect.stringContaining('401') });
  });

  it('removes a webhook left by another deployment of the bot before it polls', async () => {
    api.setWebhook('https://old.example.org/telegram');
    api.userSays(CHAT, '/help');
    expect(await telegram.pollOnce(new Date(T0))).toBe(1);
    expect(api.calls.map((c) => c.method).slice(0, 4)).toEqual([
      'getme',
      'deletewebhook',
      'setmycommands',
      'getupdates',
    ]);
    expect(replies()[0]).toContain('This is the Lodestone bot.');
  });

  it('refuses an expired code, and a bare /start explains how to link', async () => {
    await telegram.pollOnce(new Date(T0));
    const { code } = await createTelegramLinkCode(database.db, alice.user_id, new Date(T0));
    api.userSays(CHAT, `/start ${code}`);
    await telegram.pollOnce(new Date(T0 + 15 * MIN));
    api.userSays(CHAT, '/start');
    await telegram.pollOnce(new Date(T0 + 15 * MIN));
    expect(replies()[0]).toContain('This link is not valid any more');
    expect(replies()[1]).toContain('To link this chat: log in at https://pool.example.org');
    expect(await telegramLinkOf(database.db, alice.user_id)).toBeUndefined();
  });

  it('sends one offline alert and one back-online message, and a restart repeats neither', async () => {
    await link();
    await mine(['rig1', 'rig2'], T0 - 2 * HOUR, T0, 30_000);
    await ticks(T0 + MIN, T0 + 40 * MIN);
    const alerts = replies().slice(1);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatch(/^\[Lodestone\] 2 workers of alice are offline\n\n/);
    expect(alerts[0]).toContain('rig1 (scrypt): last accepted share 2026-11-20 11:59:34 UTC');
    expect(alerts[0]).toMatch(/Send \/stop to turn these messages off\.$/);
    // The e-mail went into the outbox too: Telegram is a copy, not instead.
    const email = await database.db.selectFrom('notifications').select('kind').where('channel', '=', 'email').execute();
    expect(email).toEqual([{ kind: 'worker-offline' }]);

    telegram = newBot(); // a restarted jobs role
    await mine(['rig1'], T0 + 41 * MIN, T0 + 45 * MIN, 30_000);
    await ticks(T0 + 41 * MIN, T0 + 50 * MIN);
    const later = replies().slice(2);
    expect(later).toEqual([expect.stringMatching(/^\[Lodestone\] Worker rig1 of alice is back online/)]);
  });

  it('answers /status with each account’s hashrate and workers', async () => {
    await link();
    await mine(['rig1', 'rig2'], T0 - 2 * HOUR, T0 - 30 * MIN, 30_000);
    await mine(['rig1'], T0 - 30 * MIN, T0, 30_000);
    await runWorkerRollup(database.db, new Date(T0));
    api.userSays(CHAT, '/status');
    await telegram.pollOnce(new Date(T0));
    const status = replies()[1] as string;
    expect(status).toContain('alice');
    expect(status).toMatch(/scrypt: [0-9.]+ [KMGTPE]?h\/s now, [0-9.]+ [KMGTPE]?h\/s over 24 h; 1 of 2 workers active/);
    expect(status).toContain('idle: rig2');
    // An unlinked chat is told how to link, and learns nothing.
    api.userSays({ id: 99 }, '/status');
    await telegram.pollOnce(new Date(T0));
    expect(replies()[2]).toContain('This chat is not linked to an account');
    expect(replies()[2]).not.toContain('alice');
  });

  it('sends a payout notice with coin, amount, transaction and explorer link, once', async () => {
    await link();
    const bob = await insertTestAccount(database.db, 'bob');
    const [payout] = await sql<{ id: bigint }>`
      insert into payouts (idempotency_key, coin, status, total, fee, txid, demo, created_at, sending_at, sent_at)
      values ('p1', 'LTC', 'sent', 4000000, 1000, ${TXID}, false, ${new Date(T0)}, ${new Date(T0)}, ${new Date(T0 + MIN)})
      returning id`
      .execute(database.db)
      .then((r) => r.rows);
    await sql`insert into payout_items (payout_id, account_id, address, amount) values
      (${payout?.id}, ${alice.id}, 'ltc1qalice', 1250000), (${payout?.id}, ${bob.id}, 'ltc1qbob', 2750000)`.execute(
      database.db,
    );
    await tick(T0 + 2 * MIN);
    await tick(T0 + 3 * MIN);
    const notices = replies().slice(1);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('[Lodestone] Payout sent: 0.0125 LTC');
    expect(notices[0]).toContain('alice → ltc1qalice: 0.0125 LTC');
    expect(notices[0]).not.toContain('bob'); // another user's part of the same transaction
    expect(notices[0]).toContain(`Transaction: ${TXID}`);
    expect(notices[0]).toContain(`https://litecoinspace.org/tx/${TXID}`);

    // The transaction reverts after all (a pool-signed chain): the balances come back, and the miner
    // who was told "sent" is told it failed, once.
    expect(await failSentPayout(database.db, payout?.id as bigint, 'reverted', new Date(T0 + 10 * MIN))).toBe(true);
    await tick(T0 + 11 * MIN);
    await tick(T0 + 12 * MIN);
    const failed = replies().slice(2);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toContain('[Lodestone] Payout failed: 0.0125 LTC back in your balance');
    expect(failed[0]).toContain('alice → ltc1qalice: 0.0125 LTC');
    expect(failed[0]).toContain('The amount is back in your balance');
  });

  it('a payout that fails before its notice went out gets no notice at all', async () => {
    await link();
    const [payout] = await sql<{ id: bigint }>`
      insert into payouts (idempotency_key, coin, status, total, fee, txid, demo, created_at, sending_at, sent_at)
      values ('p2', 'LTC', 'sent', 1250000, 1000, ${TXID}, false, ${new Date(T0)}, ${new Date(T0)}, ${new Date(T0)})
      returning id`
      .execute(database.db)
      .then((r) => r.rows);
    await sql`insert into payout_items (payout_id, account_id, address, amount)
              values (${payout?.id}, ${alice.id}, 'ltc1qalice', 1250000)`.execute(database.db);
    await failSentPayout(database.db, payout?.id as bigint, 'reverted', new Date(T0 + 30_000));
    await tick(T0 + MIN);
    expect(api.sent).toHaveLength(1); // the link's answer only
  });

  it('a failed answer (the chat blocked the bot meanwhile) holds up no later update', async () => {
    await link();
    api.userSays(CHAT, '/status');
    api.block(CHAT.id);
    api.userSays({ id: 99 }, '/help');
    expect(await telegram.pollOnce(new Date(T0))).toBe(2);
    expect(replies().at(-1)).toContain('This is the Lodestone bot.');
    expect(log.entries.filter((e) => e.message === 'Telegram update not fully handled')).toHaveLength(1);
    expect(await telegram.pollOnce(new Date(T0 + 2000))).toBe(0); // confirmed: not handled again
  });

  it('sends one message per chat per run, so a chat with a backlog does not hold up the others', async () => {
    await link();
    const bob = await insertTestAccount(database.db, 'bob');
    const { code } = await createTelegramLinkCode(database.db, bob.user_id, new Date(T0));
    api.userSays({ id: 5005 }, `/start ${code}`);
    await telegram.pollOnce(new Date(T0));
    const queue = (userId: bigint, n: number, at: number) =>
      enqueueNotification(database.db, {
        userId,
        channel: 'telegram',
        kind: 'worker-offline',
        dedupeKey: `backlog:${userId}:${n}`,
        subject: `message ${n}`,
        body: 'body',
        now: new Date(at),
      });
    for (let n = 0; n < 5; n++) await queue(alice.user_id, n, T0 + n);
    await queue(bob.user_id, 9, T0 + 10);
    const before = api.sent.length;
    await sendDueTelegram(database.db, new Date(T0 + MIN), telegram, log, { pauseMs: 0 });
    expect(api.sent.slice(before).map((m) => [m.chatId, m.text.split('\n')[0]])).toEqual([
      [CHAT.id, 'message 0'],
      [5005, 'message 9'],
    ]);

    // Turned off while they wait (/stop, Settings): the rest end, they are not sent.
    await sql`update users set telegram_notifications = false where id = ${alice.user_id}`.execute(database.db);
    await sendDueTelegram(database.db, new Date(T0 + 2 * MIN), telegram, log, { pauseMs: 0 });
    expect(api.sent.length).toBe(before + 2);
    const ended = await database.db
      .selectFrom('notifications')
      .select(['status', 'last_error'])
      .where('user_id', '=', alice.user_id)
      .where('status', '=', 'failed')
      .execute();
    expect(ended).toHaveLength(4);
    expect(ended.every((r) => r.last_error === 'Telegram notifications turned off')).toBe(true);
  });

  it('/stop turns Telegram messages off; e-mail alerts go on', async () => {
    await link();
    api.userSays(CHAT, '/stop');
    await telegram.pollOnce(new Date(T0));
    expect(replies()[1]).toContain('Alerts and payout notices are off for this chat');
    await mine(['rig1'], T0 - 2 * HOUR, T0, 30_000);
    await ticks(T0 + MIN, T0 + 30 * MIN);
    expect(api.sent).toHaveLength(2);
    const channels = await database.db.selectFrom('notifications').select('channel').execute();
    expect(channels).toEqual([{ channel: 'email' }]);
    const logged = await database.db
      .selectFrom('user_log')
      .select('log_name')
      .where('user_id', '=', alice.user_id)
      .orderBy('id')
      .execute();
    expect(logged.map((r) => r.log_name)).toEqual(['telegram_linked', 'settings_changed']);
  });

  it('deleting the login deletes its Telegram link and codes; the user log never named the chat', async () => {
    await link();
    await createTelegramLinkCode(database.db, alice.user_id, new Date(T0));
    await eraseUser(database.db, alice.user_id, new Date(T0 + MIN));
    expect(await telegramLinkOf(database.db, alice.user_id)).toBeUndefined();
    const codes = await database.db.selectFrom('telegram_link_codes').select('user_id').execute();
    expect(codes).toEqual([]);
    const logged = await database.db.selectFrom('user_log').select('log_value').execute();
    expect(JSON.stringify(logged)).not.toContain('alice_tg');
    expect(JSON.stringify(logged)).not.toContain(String(CHAT.id));
  });

  it('/unlink unlinks the chat', async () => {
    await link();
    api.userSays(CHAT, '/unlink');
    await telegram.pollOnce(new Date(T0));
    expect(replies()[1]).toContain('This chat is unlinked');
    expect(await telegramLinkOf(database.db, alice.user_id)).toBeUndefined();
  });

  it('waits out a flood limit without counting an attempt, then sends', async () => {
    await link();
    await mine(['rig1'], T0 - 2 * HOUR, T0, 30_000);
    api.failNext('sendMessage', { code: 429, description: 'Too Many Requests: retry after 90', retryAfter: 90 });
    await ticks(T0 + MIN, T0 + 11 * MIN);
    expect(api.sent).toHaveLength(1);
    const row = await database.db
      .selectFrom('notifications')
      .select(['status', 'attempts', 'next_attempt_at'])
      .where('channel', '=', 'telegram')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    expect(row.attempts).toBe(0);
    expect(log.entries.some((e) => e.message === 'Telegram flood limit; messages wait')).toBe(true);
    await tick(row.next_attempt_at.getTime() - 1000);
    expect(api.sent).toHaveLength(1);
    await tick(row.next_attempt_at.getTime());
    expect(replies()[1]).toContain('Worker rig1 of alice is offline');
  });

  it('retries a failed send with back-off, and unlinks a chat that blocked the bot', async () => {
    await link();
    await mine(['rig1', 'rig2'], T0 - 2 * HOUR, T0, 30_000);
    api.failNext('sendMessage', { code: 502, description: 'Bad Gateway' });
    await ticks(T0 + MIN, T0 + 10 * MIN); // offline from 12:09:34, the last accepted share + the 10-minute window
    const failed = await database.db
      .selectFrom('notifications')
      .select(['status', 'attempts', 'last_error', 'next_attempt_at'])
      .where('channel', '=', 'telegram')
      .executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed.last_error).toContain('Bad Gateway');
    await tick(failed.next_attempt_at.getTime());
    expect(replies()[1]).toContain('2 workers of alice are offline');

    api.block(CHAT.id);
    await mine(['rig1'], T0 + 20 * MIN, T0 + 25 * MIN, 30_000); // rig1 back: a message that cannot go
    await ticks(T0 + 20 * MIN, T0 + 26 * MIN);
    expect(await telegramLinkOf(database.db, alice.user_id)).toBeUndefined();
    const ended = await database.db
      .selectFrom('notifications')
      .select(['kind', 'status', 'last_error'])
      .where('channel', '=', 'telegram')
      .where('kind', '=', 'worker-online')
      .executeTakeFirstOrThrow();
    expect(ended).toEqual({
      kind: 'worker-online',
      status: 'failed',
      last_error: 'unlinked (the chat blocked the bot)',
    });
    expect(log.entries.some((e) => e.message === 'Telegram chat unlinked: the chat blocked the bot')).toBe(true);
    // The alert was e-mailed as well (Telegram was a copy): the undelivered copy adds no second e-mail.
    await tick(T0 + 27 * MIN);
    const emails = await database.db
      .selectFrom('notifications')
      .select('kind')
      .where('channel', '=', 'email')
      .execute();
    expect(emails.map((r) => r.kind).sort()).toEqual(['worker-offline', 'worker-online']);
  });

  it('"Telegram only" leaves the e-mail out while Telegram carries an alert, and e-mails one it could not deliver, once', async () => {
    await link();
    await sql`update users set offline_worker_telegram_only = true where id = ${alice.user_id}`.execute(database.db);
    const outbox = () =>
      database.db
        .selectFrom('notifications')
        .select(['channel', 'kind', 'status', 'dedupe_key'])
        .orderBy('id')
        .execute();
    await mine(['rig1', 'rig2'], T0 - 2 * HOUR, T0, 30_000);
    await ticks(T0 + MIN, T0 + 40 * MIN);
    expect(replies().slice(1)).toEqual([expect.stringMatching(/^\[Lodestone\] 2 workers of alice are offline\n/)]);
    expect((await outbox()).map((r) => [r.channel, r.kind, r.status])).toEqual([
      ['telegram', 'worker-offline', 'sent'],
    ]);

    // The miner blocks the bot; rig1 comes back. Its message cannot go to Telegram, so it is e-mailed.
    api.block(CHAT.id);
    await mine(['rig1'], T0 + 41 * MIN, T0 + 45 * MIN, 30_000);
    await ticks(T0 + 41 * MIN, T0 + 50 * MIN);
    expect(await telegramLinkOf(database.db, alice.user_id)).toBeUndefined();
    const [offline, online, emailed, ...more] = await outbox();
    expect(more).toEqual([]);
    expect(offline).toMatchObject({ channel: 'telegram', kind: 'worker-offline' });
    expect(online).toMatchObject({ channel: 'telegram', kind: 'worker-online', status: 'failed' });
    expect(emailed).toEqual({
      channel: 'email',
      kind: 'worker-online',
      status: 'pending',
      dedupe_key: online?.dedupe_key.replace(/:telegram$/, ''),
    });

    // With no chat linked, the next alert goes by e-mail at once, and nothing is sent twice.
    await ticks(T0 + 51 * MIN, T0 + 70 * MIN);
    const after = (await outbox()).slice(3);
    expect(after.map((r) => [r.channel, r.kind])).toEqual([['email', 'worker-offline']]);
    expect(api.sent).toHaveLength(2);
  });

  it('an alert Telegram could not deliver is not e-mailed to a miner who turned the alerts off, nor after a day', async () => {
    await link();
    await sql`update users set offline_worker_telegram_only = true where id = ${alice.user_id}`.execute(database.db);
    await mine(['rig1'], T0 - 2 * HOUR, T0, 30_000);
    api.block(CHAT.id);
    await ticks(T0 + MIN, T0 + 10 * MIN); // offline after its 10-minute window; the bot is blocked
    const outbox = () => database.db.selectFrom('notifications').select(['channel', 'status', 'created_at']).execute();
    const [failed, ...none] = await outbox();
    expect(none).toEqual([]);
    expect(failed).toMatchObject({ channel: 'telegram', status: 'failed' });

    await sql`update users set offline_worker_notification = false where id = ${alice.user_id}`.execute(database.db);
    await tick(T0 + 11 * MIN);
    expect(await outbox()).toHaveLength(1);

    // On again a day later: the old alert is no news any more.
    await sql`update users set offline_worker_notification = true where id = ${alice.user_id}`.execute(database.db);
    const dayLater = (failed?.created_at.getTime() ?? 0) + 24 * HOUR + MIN;
    await tick(dayLater);
    expect(await outbox()).toHaveLength(1);
    // Within the day it would have been e-mailed (the same rows, a look-up from an earlier instant).
    const window = { since: new Date(dayLater - 25 * HOUR), lateBefore: new Date(dayLater) };
    expect(await emailUndeliveredTelegramAlerts(database.db, new Date(dayLater), window)).toBe(1);
  });

  it('"Telegram only" e-mails an alert that still waits for Telegram after 16 minutes (the bot cannot send)', async () => {
    await link();
    await sql`update users set offline_worker_telegram_only = true where id = ${alice.user_id}`.execute(database.db);
    await mine(['rig1'], T0 - 2 * HOUR, T0, 30_000);
    // The token was revoked: every send answers 401, and the messages wait in the outbox.
    for (let i = 0; i < 30; i++) api.failNext('sendMessage', { code: 401, description: 'Unauthorized' });
    await ticks(T0 + MIN, T0 + 11 * MIN);
    const waiting = await database.db
      .selectFrom('notifications')
      .select(['channel', 'status', 'created_at'])
      .executeTakeFirstOrThrow();
    expect(waiting).toMatchObject({ channel: 'telegram', status: 'pending' });
    const emails = () =>
      database.db.selectFrom('notifications').select('kind').where('channel', '=', 'email').execute();
    await ticks(T0 + 12 * MIN, waiting.created_at.getTime() + 16 * MIN);
    expect(await emails()).toEqual([]);
    await ticks(waiting.created_at.getTime() + 17 * MIN, waiting.created_at.getTime() + 20 * MIN);
    expect(await emails()).toEqual([{ kind: 'worker-offline' }]);
    expect(api.sent).toHaveLength(1); // the link's reply only
  });
});
