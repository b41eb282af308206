import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Database, lockWorkerRollups, removeWorkers } from '@lodestone/db';
import { createTestDatabase, emptyTestDatabase, insertTestAccount, testEngines } from '@lodestone/db/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.js';
import { createMailer, type Mailer } from '../services/mail.js';
import { notificationSenderJob } from './notificationSender.js';
import { mineSteadily, recordingLog } from './testing.js';
import type { JobDefinition } from './types.js';
import { workerAlertJob } from './workerAlerts.js';
import { runWorkerRollup } from './workerRollup.js';

// Offline-worker alerts end to end: shares applied as accounting applies them, the rollup, the check
// and the sender as the jobs role runs them, and the e-mails as a real SMTP server receives them.

const T0 = Date.parse('2024-05-06T12:00:00Z');
const MIN = 60_000;
const HOUR = 3_600_000;
const OPTIONS = { poolName: 'Lodestone', publicUrl: 'https://pool.example.org' };

describe.each(testEngines())('offline-worker alerts on %s', (engine) => {
  let database: Database;
  let smtp: TestSmtpServer;
  let mailer: Mailer;
  let outboxDir: string;
  /** The jobs role's two jobs; a restart makes new ones. */
  let jobs: JobDefinition[];
  const log = recordingLog();

  const start = () => {
    mailer = createMailer({ smtpUrl: smtp.url, from: 'Lodestone <no-reply@example.org>', outboxDir, log });
    jobs = [
      workerAlertJob(OPTIONS),
      notificationSenderJob({ mailer, publicUrl: OPTIONS.publicUrl, emailsPerMinute: 60 }),
    ];
  };

  beforeAll(async () => {
    database = await createTestDatabase({ engine });
    smtp = await startSmtpServer();
    outboxDir = await mkdtemp(path.join(tmpdir(), 'alerts-'));
  });
  afterAll(async () => {
    mailer?.close();
    await smtp.close();
    await database.close();
  });
  beforeEach(async () => {
    await emptyTestDatabase(database.db);
    smtp.messages.splice(0);
    await smtp.next(1).catch(() => undefined); // resets the read position past anything old
    start();
    const alice = await insertTestAccount(database.db, 'alice');
    await sql`update users set offline_worker_notification = true where id = ${alice.user_id}`.execute(database.db);
  });

  /** Shares of `workers` every `everyMs` (difficulty 64 each) from `fromMs` until before `toMs`. */
  const mine = (workers: string[], fromMs: number, toMs: number, everyMs: number) =>
    mineSteadily(database.db, 'alice', workers, { fromMs, toMs, everyMs });

  /** The jobs role at `atMs`: rollup, alert check, sender. */
  async function tick(atMs: number) {
    const now = new Date(atMs);
    const ctx = { database, log, now, signal: new AbortController().signal };
    await runWorkerRollup(database.db, now);
    for (const job of jobs) await job.run(ctx);
  }

  async function ticks(fromMs: number, toMs: number) {
    for (let t = fromMs; t <= toMs; t += MIN) await tick(t);
  }

  /**
   * What the SMTP server holds. Nothing to wait for: it records a message before it answers the client,
   * and the sender awaits that answer within the job's run.
   */
  async function received() {
    return smtp.messages.map((m) => ({ subject: /^Subject: (.*)$/m.exec(m.raw)?.[1] ?? '', text: m.text, raw: m.raw }));
  }

  it('a worker that stops gets exactly one "offline" e-mail, after its window and not before', async () => {
    // One share each 30 s, the last accepted at 11:59:34 (its batch's, 1 s before its end): window = the
    // 10-minute floor, so the worker is offline from 12:09:34 — the alert reports that share's own time,
    // not the end of its minute.
    await mine(['rig1'], T0 - 2 * HOUR, T0, 30_000);
    await ticks(T0 + MIN, T0 + 9 * MIN);
    expect(await received()).toEqual([]);
    await ticks(T0 + 10 * MIN, T0 + 40 * MIN);
    const mail = await received();
    expect(mail.map((m) => m.subject)).toEqual(['[Lodestone] Worker rig1 of alice is offline']);
    expect(mail[0]?.text).toContain(
      'rig1 (scrypt): last accepted share 2024-05-06 11:59:34 UTC, offline window 10 min',
    );
    expect(mail[0]?.raw).toMatch(/^List-Unsubscribe:\s+<https:\/\/pool\.example\.org\/unsubscribe\?token=/m);
    expect(mail[0]?.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(smtp.messages[0]?.to).toEqual(['alice@example.com']);
  });

  /** A small rig: one share per 5 minutes on average for 6 hours, then gaps of 1 to 25 minutes. */
  async function flapping() {
    await mine(['tiny'], T0 - 6 * HOUR, T0, 5 * MIN);
    let t = T0;
    for (const gap of [3, 15, 2, 25, 6, 18, 1, 22, 4]) {
      await ticks(t + MIN, t + gap * MIN);
      t += gap * MIN;
      await mine(['tiny'], t - 5_000, t - 4_999, MIN);
    }
    await ticks(t + MIN, t + 20 * MIN);
  }

  it('a worker at minimum difficulty with long gaps between shares is not flagged', async () => {
    // τ = 5 min, so the window is 50 min: e^(−W/τ) makes gaps of 15–25 min ordinary.
    await flapping();
    expect(await received()).toEqual([]);
    const [state] = await database.db.selectFrom('worker_alert_states').selectAll().execute();
    expect(state?.offline).toBe(false);
  });

  it('the same worker judged by a fixed 10-minute window flaps (what the automatic window prevents)', async () => {
    await sql`update users set offline_worker_window_minutes = 10`.execute(database.db);
    await flapping();
    const subjects = (await received()).map((m) => m.subject);
    // Gaps of 15, 25, 18 and 22 minutes: each an "offline" and a "back online"; then the last 20
    // minutes without a share, one more "offline".
    expect(subjects.filter((s) => s.endsWith('is offline'))).toHaveLength(5);
    expect(subjects.filter((s) => s.endsWith('is back online'))).toHaveLength(4);
  });

  it('a worker back after an alert gets one "back online" e-mail, and nothing more', async () => {
    await mine(['rig1'], T0 - 2 * HOUR, T0, 30_000);
    await ticks(T0 + MIN, T0 + 15 * MIN);
    await mine(['rig1'], T0 + 15 * MIN + 10_000, T0 + 60 * MIN, 30_000);
    await ticks(T0 + 16 * MIN, T0 + 60 * MIN);
    const subjects = (await received()).map((m) => m.subject);
    expect(subjects).toEqual([
      '[Lodestone] Worker rig1 of alice is offline',
      '[Lodestone] Worker rig1 of alice is back online',
    ]);
    expect(smtp.messages[1]?.text).toContain('rig1 (scrypt): offline since 2024-05-06 11:59:34 UTC');
  });

  it('a window made longer while a worker is offline does not bring it back without a share', async () => {
    await mine(['rig1'], T0 - 2 * HOUR, T0, 30_000);
    await ticks(T0 + MIN, T0 + 15 * MIN);
    await sql`update users set offline_worker_window_minutes = 600`.execute(database.db);
    await ticks(T0 + 16 * MIN, T0 + 30 * MIN);
    expect((await received()).map((m) => m.subject)).toEqual(['[Lodestone] Worker rig1 of alice is offline']);
    await mine(['rig1'], T0 + 30 * MIN, T0 + 31 * MIN, 30_000);
    await ticks(T0 + 31 * MIN, T0 + 32 * MIN);
    expect((await received()).map((m) => m.subject)).toEqual([
      '[Lodestone] Worker rig1 of alice is offline',
      '[Lodestone] Worker rig1 of alice is back online',
    ]);
  });

  it('20 workers going down together make one message listing them all', async () => {
    const rigs = Array.from({ length: 20 }, (_, i) => `rig${String(i + 1).padStart(2, '0')}`);
    await mine(rigs, T0 - HOUR, T0, 30_000);
    await ticks(T0 + MIN, T0 + 20 * MIN);
    const mail = await received();
    expect(mail.map((m) => m.subject)).toEqual(['[Lodestone] 20 workers of alice are offline']);
    for (const rig of rigs) expect(mail[0]?.text).toContain(`  ${rig} (scrypt): last accepted share`);
  });

  it('a restarted jobs role (new jobs, new mailer, same database) repeats nothing', async () => {
    await mine(['rig1', 'rig2'], T0 - HOUR, T0, 30_000);
    await ticks(T0 + MIN, T0 + 12 * MIN);
    expect((await received()).length).toBe(1);
    mailer.close();
    start();
    // The same instant again (a run the crash interrupted), then the minutes after.
    await ticks(T0 + 12 * MIN, T0 + 30 * MIN);
    expect((await received()).length).toBe(1);
    const rows = await database.db.selectFrom('notifications').select(['kind', 'status']).execute();
    expect(rows).toEqual([{ kind: 'worker-offline', status: 'sent' }]);
  });

  it('workers removed from the dashboard are never alerted', async () => {
    await mine(['rig1', 'gone'], T0 - HOUR, T0, 30_000);
    await tick(T0 + MIN);
    // The dashboard's Remove (services/mining.ts), as its transaction runs it.
    const { id } = await database.db
      .selectFrom('workers')
      .select('id')
      .where('name', '=', 'gone')
      .executeTakeFirstOrThrow();
    await database.db.transaction().execute(async (trx) => {
      await lockWorkerRollups(trx);
      await removeWorkers(trx, 'alice', 'scrypt', { id });
    });
    await ticks(T0 + 2 * MIN, T0 + 20 * MIN);
    const mail = await received();
    expect(mail.map((m) => m.subject)).toEqual(['[Lodestone] Worker rig1 of alice is offline']);
  });

  it('sends nothing to a miner with the alerts off, and the miner’s own window replaces the automatic one', async () => {
    await sql`update users set offline_worker_notification = false`.execute(database.db);
    await mine(['rig1'], T0 - HOUR, T0, 30_000);
    await ticks(T0 + MIN, T0 + 20 * MIN);
    expect(await received()).toEqual([]);
    await sql`update users set offline_worker_notification = true, offline_worker_window_minutes = 30`.execute(
      database.db,
    );
    await mine(['rig1'], T0 + 20 * MIN, T0 + 21 * MIN, 30_000);
    await ticks(T0 + 21 * MIN, T0 + 50 * MIN);
    expect(await received()).toEqual([]);
    await ticks(T0 + 51 * MIN, T0 + 55 * MIN);
    const mail = await received();
    expect(mail.map((m) => m.subject)).toEqual(['[Lodestone] Worker rig1 of alice is offline']);
    expect(mail[0]?.text).toContain('offline window 30 min');
  });
});
