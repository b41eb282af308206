import { createHash } from 'node:crypto';
import { type Database, insertAccount, postLedgerTransaction, softDeleteAccount } from '@lodestone/db';
import {
  createTestDatabase,
  emptyTestDatabase,
  insertedRow,
  insertTestAccount,
  testEngines,
} from '@lodestone/db/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deadSmtpUrl, type ReceivedMail, startSmtpServer, type TestSmtpServer, testMailers } from '../../test/smtp.js';
import { unsubscribe } from '../services/notifications/unsubscribe.js';
import { readSignature } from '../services/public/signatures.js';
import { STATEMENT_MESSAGES } from '../services/revenue/statement.js';
import { pdfTextLines } from '../services/revenue/testing.js';
import { monthlyReportJob } from './monthlyReports.js';
import { notificationSenderJob } from './notificationSender.js';
import { recordingLog } from './testing.js';
import type { JobDefinition } from './types.js';

// Monthly reports end to end: earnings in the ledger, the report job and the sender as the jobs role
// runs them, and the e-mails as a real SMTP server receives them, statements attached.

const OPTIONS = { poolName: 'Lodestone', publicUrl: 'https://pool.example.org' };
const DEC_1 = Date.parse('2026-12-01T03:00:00Z');
const MIN = 60_000;
const DAY = 86_400_000;
const SUBJECT = '[Lodestone] Your statement for November 2026';

describe.each(testEngines())('monthly reports on %s', (engine) => {
  let database: Database;
  let smtp: TestSmtpServer;
  let alice: bigint;
  const log = recordingLog();
  const mailers = testMailers(log);
  const { mailer } = mailers;
  /** The jobs role's two jobs with a mailer on `smtpUrl`; a restart makes new ones. */
  const jobsWith = (smtpUrl: string, batchSize?: number): JobDefinition[] => [
    monthlyReportJob({ ...OPTIONS, ...(batchSize ? { batchSize } : {}) }),
    notificationSenderJob({ mailer: mailer(smtpUrl), publicUrl: OPTIONS.publicUrl, emailsPerMinute: 60 }),
  ];

  beforeAll(async () => {
    database = await createTestDatabase({ engine });
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    mailers.closeAll();
    await smtp.close();
    await database.close();
  });

  let keys = 0;
  /** A balanced PPS credit of `account` at `at` (the other leg on pool:pps), as accounting posts it. */
  const earn = (accountId: bigint, coin: string, amount: bigint, at: string) =>
    database.db.transaction().execute((trx) =>
      postLedgerTransaction(trx, {
        key: `test-earning:${++keys}`,
        kind: 'pps_credit',
        at: new Date(at),
        legs: [
          { account: { accountId }, coin, amount, kind: 'pps', algorithm: 'scrypt', sourceAccountId: null },
          { account: { system: 'pool:pps' }, coin, amount: -amount, kind: 'pps_expense', algorithm: 'scrypt' },
        ],
      }),
    );

  /** A user `name` with an account of the same name, created at `createdAt`, reports on or off. */
  async function user(name: string, reports: boolean, createdAt = '2026-10-01T00:00:00Z') {
    const account = await insertTestAccount(database.db, name);
    await sql`update users set send_monthly_reports = ${reports} where id = ${account.user_id}`.execute(database.db);
    await sql`update accounts set created_at = ${new Date(createdAt)} where id = ${account.id}`.execute(database.db);
    return account;
  }

  /** A further mining account of a user. */
  async function secondAccount(userId: bigint, name: string, createdAt = '2026-10-01T00:00:00Z') {
    const account = insertedRow(
      await insertAccount(database.db, {
        userId,
        username: name,
        apiKey: `api-${name}`,
        observerKey: `observer-${name}`,
        referralCode: `REF${name.toUpperCase().replace(/[^A-Z0-9]/g, '')}`,
      }),
    );
    await sql`update accounts set created_at = ${new Date(createdAt)} where id = ${account.id}`.execute(database.db);
    return account;
  }

  beforeEach(async () => {
    // The failures a test injected, gone even when it failed before removing them.
    await sql`drop trigger if exists refuse_attachment on notification_attachments`.execute(database.db);
    await sql`drop trigger if exists refuse_alice on notification_attachments`.execute(database.db);
    await emptyTestDatabase(database.db);
    smtp.messages.splice(0);
    log.entries.splice(0);
    // Alice: reports on, two mining accounts that earned in November, and one she deleted.
    const first = await user('alice', true);
    alice = first.user_id;
    const second = await secondAccount(alice, 'alice2');
    const gone = await secondAccount(alice, 'alice-old');
    await softDeleteAccount(database.db, gone.id, new Date('2026-11-20T00:00:00Z'));
    await earn(first.id, 'LTC', 1_500_000n, '2026-11-10T12:00:00Z');
    await earn(first.id, 'LTC', 20_000n, '2026-11-30T23:59:00Z');
    await earn(first.id, 'LTC', 999n, '2026-12-01T00:30:00Z'); // December: not in November's statement
    await earn(second.id, 'BTC', 700n, '2026-11-20T08:00:00Z');
    await earn(gone.id, 'LTC', 5_000n, '2026-11-05T00:00:00Z');
    // Bob: reports off.
    const bob = await user('bob', false);
    await earn(bob.id, 'LTC', 3_000n, '2026-11-10T00:00:00Z');
    // Carol: reports on, but her account was opened after November ended.
    const carol = await user('carol', true, '2026-12-01T01:00:00Z');
    await earn(carol.id, 'LTC', 3_000n, '2026-12-01T02:00:00Z');
  });

  /** The jobs role at `at`: the report job, then the sender. */
  async function tick(jobs: JobDefinition[], at: number) {
    const ctx = { database, log, now: new Date(at), signal: new AbortController().signal };
    for (const job of jobs) await job.run(ctx);
  }

  /**
   * What the SMTP server holds. Nothing to wait for: it records a message before it answers the client,
   * and the sender awaits that answer within the job's run.
   */
  async function received(): Promise<ReceivedMail[]> {
    return [...smtp.messages];
  }

  const subjectOf = (m: ReceivedMail) => /^Subject: (.*)$/m.exec(m.raw)?.[1] ?? '';
  const signatureIn = (pdf: Buffer) =>
    pdfTextLines(pdf)
      .find((l) => l.startsWith('Signature: '))
      ?.slice('Signature: '.length) ?? '';

  it('sends one e-mail per user with a signed PDF statement per mining account, once', async () => {
    const jobs = jobsWith(smtp.url);
    await tick(jobs, DEC_1);
    const mail = await received();
    expect(mail.map(subjectOf)).toEqual([SUBJECT]);
    const [report] = mail as [ReceivedMail];
    expect(report.to).toEqual(['alice@example.com']);
    // One PDF per live account (not the deleted one), named {pool}-{account}-{month}.pdf.
    expect(report.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['lodestone-alice-2026-11.pdf', 'application/pdf'],
      ['lodestone-alice2-2026-11.pdf', 'application/pdf'],
    ]);
    for (const { content } of report.attachments) {
      expect(content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(content.length).toBeLessThan(200_000);
      // The signature printed in the PDF verifies this very file through the signature lookup.
      const signature = signatureIn(content);
      expect(signature).toMatch(/^[0-9a-f]{64}$/);
      expect(await readSignature(database.db, signature)).toEqual({
        result: createHash('sha256').update(content).digest('hex'),
        kind: 'statement',
        issued_at: new Date(DEC_1).toISOString(),
      });
      expect(report.text).toContain(`verify: https://pool.example.org/signature/${signature}`);
    }
    // November in UTC: the credit of 30 November 23:59 UTC is in it, the one of 1 December 00:30 is not.
    const [first, second] = report.attachments.map((a) => pdfTextLines(a.content)) as [string[], string[]];
    expect(first).toContain('alice');
    expect(first).toContain('November 2026 (2026-11)');
    expect(first).toContain('UTC');
    expect(first).toContain('LTC     0.01520000');
    expect(second).toContain('alice2');
    expect(second).toContain('BTC     0.00000700');
    expect(report.text).toContain('  alice: lodestone-alice-2026-11.pdf');
    expect(report.text).toContain('  alice2: lodestone-alice2-2026-11.pdf');
    expect(report.text).toContain(
      'Days and times are in UTC; download a statement in your own time zone from the dashboard: https://pool.example.org/dashboard',
    );
    expect(report.raw).toMatch(
      /^List-Unsubscribe:\s+<https:\/\/pool\.example\.org\/unsubscribe\?token=1\.monthly-reports\./m,
    );
    expect(report.text).toMatch(
      /To stop these e-mails, open https:\/\/pool\.example\.org\/unsubscribe\?token=1\.monthly-reports\./,
    );

    // The runs after it, and a restarted jobs role, all through the window: nothing more.
    await tick(jobs, DEC_1 + 10 * MIN);
    await tick(jobsWith(smtp.url), DEC_1 + 10 * MIN);
    for (let t = DEC_1 + DAY; t < DEC_1 + 7 * DAY; t += DAY) await tick(jobs, t);
    expect((await received()).length).toBe(1);
    const rows = await database.db.selectFrom('notifications').select(['kind', 'dedupe_key', 'status']).execute();
    expect(rows).toEqual([{ kind: 'monthly-report', dedupe_key: 'monthly-report:1:2026-11', status: 'sent' }]);
    const signatures = await database.db.selectFrom('signatures').select('kind').execute();
    expect(signatures).toHaveLength(2);
  });

  it('retries a send that failed with the same bytes, and a report that failed before its commit leaves nothing', async () => {
    // The first run fails while storing the files, after the statements were signed: a crash before
    // the commit.
    await sql`create or replace function refuse_attachment() returns trigger language plpgsql as $$
                begin raise exception 'disk full'; end $$`.execute(database.db);
    await sql`create trigger refuse_attachment before insert on notification_attachments
                for each row execute function refuse_attachment()`.execute(database.db);
    const down = jobsWith(await deadSmtpUrl());
    await tick(down, DEC_1);
    expect(log.entries.filter((e) => e.level === 'error').map((e) => e.message)).toEqual([
      'monthly report not made; it is tried again at a later run',
    ]);
    expect(await database.db.selectFrom('notifications').select('id').execute()).toEqual([]);
    expect(await database.db.selectFrom('signatures').select('signature').execute()).toEqual([]);
    await sql`drop trigger refuse_attachment on notification_attachments`.execute(database.db);

    // The next run makes it; the mail server is down, so the sender fails and schedules a retry.
    await tick(down, DEC_1 + 10 * MIN);
    const stored = await database.db
      .selectFrom('notification_attachments')
      .select(['filename', 'content'])
      .orderBy('position')
      .execute();
    expect(stored.map((s) => s.filename)).toEqual(['lodestone-alice-2026-11.pdf', 'lodestone-alice2-2026-11.pdf']);
    const [row] = await database.db.selectFrom('notifications').select(['status', 'attempts', 'last_error']).execute();
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row?.last_error).toMatch(/ECONNREFUSED/);
    expect(await received()).toEqual([]);

    // The mail server is back (a restarted jobs role): the retry sends the very bytes stored, and no
    // statement is made or signed again.
    const up = jobsWith(smtp.url);
    await tick(up, DEC_1 + 20 * MIN);
    const mail = await received();
    expect(mail.map(subjectOf)).toEqual([SUBJECT]);
    expect(mail[0]?.attachments.map((a) => a.content.toString('base64'))).toEqual(
      stored.map((s) => Buffer.from(s.content).toString('base64')),
    );
    expect(await database.db.selectFrom('signatures').select('signature').execute()).toHaveLength(2);
    await tick(up, DEC_1 + 30 * MIN);
    expect((await received()).length).toBe(1);
  });

  it('sends nothing outside the first seven days, nor for a month before the accounts existed', async () => {
    const jobs = jobsWith(smtp.url);
    // November's reports are stale after 7 December.
    await tick(jobs, Date.parse('2026-12-08T00:00:00Z'));
    await tick(jobs, Date.parse('2026-12-09T12:00:00Z'));
    // Late November is not a reporting day at all.
    await tick(jobs, Date.parse('2026-11-28T12:00:00Z'));
    // September: Alice's accounts were opened on 1 October.
    await tick(jobs, Date.parse('2026-10-02T12:00:00Z'));
    expect(await received()).toEqual([]);
    expect(await database.db.selectFrom('notifications').select('id').execute()).toEqual([]);
    // October is hers, and Carol's account (opened 1 December) has no November: only Alice's e-mail.
    await tick(jobs, Date.parse('2026-11-01T06:00:00Z'));
    await tick(jobs, DEC_1);
    const mail = await received();
    expect(mail.map(subjectOf)).toEqual(['[Lodestone] Your statement for October 2026', SUBJECT]);
    expect(mail.flatMap((m) => m.to)).toEqual(['alice@example.com', 'alice@example.com']);
    // October: nothing earned, and the statement says so.
    const october = pdfTextLines(mail[0]?.attachments[0]?.content ?? Buffer.alloc(0));
    expect(october).toContain(STATEMENT_MESSAGES.noEarnings);
  });

  it('spreads a large pool over runs, a batch of users each', async () => {
    const dave = await user('dave', true);
    await earn(dave.id, 'LTC', 1_000n, '2026-11-15T00:00:00Z');
    const jobs = jobsWith(smtp.url, 1);
    await tick(jobs, DEC_1);
    expect((await received()).flatMap((m) => m.to)).toEqual(['alice@example.com']);
    await tick(jobs, DEC_1 + 10 * MIN);
    await tick(jobs, DEC_1 + 20 * MIN);
    expect((await received()).flatMap((m) => m.to)).toEqual(['alice@example.com', 'dave@example.com']);
  });

  it('a report that keeps failing does not hold up the others', async () => {
    const dave = await user('dave', true);
    await earn(dave.id, 'LTC', 1_000n, '2026-11-15T00:00:00Z');
    await sql`create or replace function refuse_alice() returns trigger language plpgsql as $$
                begin if new.filename like '%-alice-%' then raise exception 'broken statement'; end if;
                return new; end $$`.execute(database.db);
    await sql`create trigger refuse_alice before insert on notification_attachments
                for each row execute function refuse_alice()`.execute(database.db);
    const jobs = jobsWith(smtp.url, 1);
    await tick(jobs, DEC_1); // Alice: fails
    await tick(jobs, DEC_1 + 10 * MIN); // Dave, after her
    await tick(jobs, DEC_1 + 20 * MIN); // Alice again: fails
    expect((await received()).flatMap((m) => m.to)).toEqual(['dave@example.com']);
    expect(log.entries.filter((e) => e.level === 'error').map((e) => e.fields)).toEqual([
      expect.objectContaining({ userId: alice, month: '2026-11' }),
      expect.objectContaining({ userId: alice, month: '2026-11' }),
    ]);
    // Repaired within the window, she gets hers.
    await sql`drop trigger refuse_alice on notification_attachments`.execute(database.db);
    await tick(jobs, DEC_1 + 30 * MIN);
    expect((await received()).flatMap((m) => m.to)).toEqual(['dave@example.com', 'alice@example.com']);
  });

  it('the unsubscribe link of a report turns Monthly reports off, and the next month sends nothing', async () => {
    const jobs = jobsWith(smtp.url);
    await tick(jobs, DEC_1);
    const [mail] = await received();
    const token = /https:\/\/pool\.example\.org\/unsubscribe\?token=([A-Za-z0-9._-]+)/.exec(mail?.text ?? '')?.[1];
    expect(token).toMatch(/^1\.monthly-reports\./);
    expect(await unsubscribe(database.db, token as string, new Date(DEC_1 + DAY))).toEqual({
      topic: 'monthly-reports',
    });
    const row = await database.db
      .selectFrom('users')
      .select(['send_monthly_reports', 'offline_worker_notification'])
      .where('id', '=', alice)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ send_monthly_reports: false, offline_worker_notification: false });
    // In January only Carol, whose account was opened in December, gets December's report.
    await tick(jobs, Date.parse('2027-01-01T03:00:00Z'));
    const all = await received();
    expect(all.map((m) => [m.to, subjectOf(m)])).toEqual([
      [['alice@example.com'], SUBJECT],
      [['carol@example.com'], '[Lodestone] Your statement for December 2026'],
    ]);
  });
});
