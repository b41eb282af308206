import { type Database, enqueueNotification } from '@lodestone/db';
import { createTestDatabase, emptyTestDatabase, insertTestAccount, testEngines } from '@lodestone/db/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deadSmtpUrl, startSmtpServer, type TestSmtpServer, testMailers } from '../../test/smtp.js';
import { DomainError } from '../services/errors.js';
import { unsubscribe } from '../services/notifications/unsubscribe.js';
import { RETENTION_DAYS, RETRY_BASE_MS, retryDelayMs, sendDueNotifications } from './notificationSender.js';
import { recordingLog } from './testing.js';

const NOW = Date.parse('2024-05-06T12:00:00Z');
const PUBLIC_URL = 'https://pool.example.org';

describe.each(testEngines())('notification sender on %s', (engine) => {
  let database: Database;
  let smtp: TestSmtpServer;
  let userId: bigint;
  const log = recordingLog();
  const mailers = testMailers(log);
  const { mailer } = mailers;

  beforeAll(async () => {
    database = await createTestDatabase({ engine });
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    mailers.closeAll();
    await smtp.close();
    await database.close();
  });
  beforeEach(async () => {
    await emptyTestDatabase(database.db);
    smtp.messages.splice(0);
    log.entries.splice(0);
    const alice = await insertTestAccount(database.db, 'alice');
    userId = alice.user_id;
    await sql`update users set offline_worker_notification = true`.execute(database.db);
  });

  const enqueue = (n: number, kind = 'worker-offline') =>
    enqueueNotification(database.db, {
      userId,
      channel: 'email',
      kind,
      dedupeKey: `test:${n}`,
      subject: `message ${n}`,
      body: `body ${n}`,
      now: new Date(NOW),
    });
  const statuses = () =>
    database.db.selectFrom('notifications').select(['dedupe_key', 'status', 'attempts']).orderBy('id').execute();

  it('enqueuing the same key twice keeps one message', async () => {
    expect(await enqueue(1)).toBe(true);
    expect(await enqueue(1)).toBe(false);
    expect(await statuses()).toEqual([{ dedupe_key: 'test:1', status: 'pending', attempts: 0 }]);
  });

  it('retries after an SMTP failure with back-off, then delivers once', async () => {
    await enqueue(1);
    const options = { publicUrl: PUBLIC_URL, emailsPerMinute: 60 };
    const down = { ...options, mailer: mailer(await deadSmtpUrl()) };
    let run = await sendDueNotifications(database.db, new Date(NOW), down, log);
    expect(run).toMatchObject({ sent: 0, retried: 1 });
    const [row] = await database.db.selectFrom('notifications').selectAll().execute();
    expect(row?.attempts).toBe(1);
    expect(row?.next_attempt_at).toEqual(new Date(NOW + RETRY_BASE_MS));
    expect(row?.last_error).toMatch(/ECONNREFUSED/);
    expect(log.entries.some((e) => e.level === 'warn' && e.message.includes('retrying later'))).toBe(true);

    const up = { ...options, mailer: mailer(smtp.url) };
    run = await sendDueNotifications(database.db, new Date(NOW + RETRY_BASE_MS - 1), up, log);
    expect(run.sent).toBe(0); // not due yet
    run = await sendDueNotifications(database.db, new Date(NOW + RETRY_BASE_MS), up, log);
    expect(run.sent).toBe(1);
    await sendDueNotifications(database.db, new Date(NOW + 2 * RETRY_BASE_MS), up, log);
    // Nothing to wait for: the SMTP server records a message before it answers, and the sender awaits that.
    expect(smtp.messages.map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1])).toEqual(['message 1']);
    expect(await statuses()).toEqual([{ dedupe_key: 'test:1', status: 'sent', attempts: 2 }]);
  });

  it('sends the files stored with a message, each message its own, and deletes them with the message', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.3\n'), Buffer.from([0, 1, 2, 0xff, 0x80, 13, 10])]);
    await enqueueNotification(database.db, {
      userId,
      channel: 'email',
      kind: 'monthly-report',
      dedupeKey: 'test:files',
      subject: 'with files',
      body: 'two files',
      attachments: [
        { filename: 'b-second.pdf', contentType: 'application/pdf', content: pdf },
        { filename: 'a-first.txt', contentType: 'text/plain', content: Buffer.from('hello\n') },
      ],
      now: new Date(NOW),
    });
    await enqueue(2);
    const options = { publicUrl: PUBLIC_URL, emailsPerMinute: 60, mailer: mailer(smtp.url) };
    expect((await sendDueNotifications(database.db, new Date(NOW), options, log)).sent).toBe(2);
    const [withFiles, plain] = smtp.messages;
    // In the order they were given, the bytes exactly.
    expect(withFiles?.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['b-second.pdf', 'application/pdf'],
      ['a-first.txt', 'text/plain'],
    ]);
    expect(withFiles?.attachments[0]?.content.equals(pdf)).toBe(true);
    expect(withFiles?.attachments[1]?.content.toString()).toBe('hello\n');
    expect(withFiles?.text).toContain('two files');
    expect(plain?.attachments).toEqual([]);
    // Pruned with their message after the retention period.
    await sendDueNotifications(database.db, new Date(NOW + (RETENTION_DAYS + 1) * 86_400_000), options, log);
    expect(await database.db.selectFrom('notifications').select('id').execute()).toEqual([]);
    expect(await database.db.selectFrom('notification_attachments').select('filename').execute()).toEqual([]);
  });

  it('a file name with unsafe characters is refused, and nothing of its message is written', async () => {
    const bad = enqueueNotification(database.db, {
      userId,
      channel: 'email',
      kind: 'monthly-report',
      dedupeKey: 'test:bad-file',
      subject: 'bad',
      body: 'bad',
      attachments: [{ filename: '../etc/passwd', contentType: 'application/pdf', content: Buffer.from('x') }],
      now: new Date(NOW),
    });
    await expect(bad).rejects.toThrow();
    expect(await statuses()).toEqual([]);
  });

  it('gives up after the last attempt with an error in the log', async () => {
    await enqueue(1);
    const down = { publicUrl: PUBLIC_URL, emailsPerMinute: 60, mailer: mailer(await deadSmtpUrl()), maxAttempts: 3 };
    let at = NOW;
    for (let attempt = 1; attempt <= 3; attempt++) {
      await sendDueNotifications(database.db, new Date(at), down, log);
      at += retryDelayMs(attempt);
    }
    expect(await statuses()).toEqual([{ dedupe_key: 'test:1', status: 'failed', attempts: 3 }]);
    expect(log.entries.filter((e) => e.level === 'error').map((e) => e.message)).toEqual([
      'notification given up after its last attempt',
    ]);
    expect(retryDelayMs(1)).toBe(60_000);
    expect(retryDelayMs(4)).toBe(480_000);
    expect(retryDelayMs(20)).toBe(6 * 3_600_000);
  });

  it('sends at most the per-minute limit; the rest waits its turn, oldest first', async () => {
    for (let n = 1; n <= 5; n++) await enqueue(n);
    const options = { publicUrl: PUBLIC_URL, emailsPerMinute: 2, mailer: mailer(smtp.url) };
    const sent = [];
    for (const offset of [0, 10_000, 30_000, 60_000, 70_000, 120_000]) {
      sent.push((await sendDueNotifications(database.db, new Date(NOW + offset), options, log)).sent);
    }
    expect(sent).toEqual([2, 0, 0, 2, 0, 1]);
    expect(smtp.messages.map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1])).toEqual([
      'message 1',
      'message 2',
      'message 3',
      'message 4',
      'message 5',
    ]);
  });

  it('the unsubscribe link in the e-mail turns the toggle off; a forged one is refused', async () => {
    await enqueue(1);
    await sendDueNotifications(
      database.db,
      new Date(NOW),
      { publicUrl: PUBLIC_URL, emailsPerMinute: 60, mailer: mailer(smtp.url) },
      log,
    );
    const mail = await smtp.next();
    const link = /https:\/\/pool\.example\.org\/unsubscribe\?token=([A-Za-z0-9._-]+)/.exec(mail.text);
    expect(link).not.toBeNull();
    const token = link?.[1] as string;
    // Its last character changed (to another one: the signature may already end in A).
    const forged = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    await expect(unsubscribe(database.db, forged, new Date(NOW))).rejects.toBeInstanceOf(DomainError);
    await expect(unsubscribe(database.db, token.replace(/^1\./, '2.'), new Date(NOW))).rejects.toMatchObject({
      code: 'UNSUBSCRIBE_TOKEN_INVALID',
    });
    expect(await unsubscribe(database.db, token, new Date(NOW))).toEqual({ topic: 'offline-workers' });
    const user = await database.db.selectFrom('users').select('offline_worker_notification').executeTakeFirstOrThrow();
    expect(user.offline_worker_notification).toBe(false);
    // Twice is harmless.
    expect(await unsubscribe(database.db, token, new Date(NOW))).toEqual({ topic: 'offline-workers' });
  });
});
