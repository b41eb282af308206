import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase, type Database, insertUser, migrate, userByEmail, userLogOfUser } from '@lodestone/db';
import { createTestDatabase, insertedRow, testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USAGE, adminCli, runAdminCommand } from './admin.js';
import { type CliOutput, EXIT } from './operatorDatabase.js';

function capture(): CliOutput & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (line) => errors.push(line) };
}

describe.each(testEngines())('lodestone admin grant | revoke | list on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database?.close();
  });

  const run = async (args: string[], require2fa = true) => {
    const io = capture();
    const code = await runAdminCommand(args, { db: database.db, now: () => new Date(), require2fa }, io);
    return { code, ...io };
  };
  const isAdmin = async (email: string) => (await userByEmail(database.db, email))?.is_admin;

  it('grants and revokes the role by e-mail (any case), recording it in the user log', async () => {
    const user = insertedRow(await insertUser(database.db, { email: 'ops@example.org', passwordHash: null }));
    const granted = await run(['grant', ' OPS@Example.org ']);
    expect(granted).toMatchObject({ code: EXIT.ok, errors: [] });
    expect(granted.lines).toEqual([
      'ops@example.org is now an admin',
      'note: this user has no 2FA; the admin tools refuse them until they enable it in Settings and log in again with a code (ADMIN_REQUIRE_2FA)',
    ]);
    expect(await isAdmin('ops@example.org')).toBe(true);
    expect((await run(['list'])).lines).toEqual(['ops@example.org  (2FA off)']);

    // Granting again changes nothing and says so; without the 2FA requirement there is no note.
    const again = await run(['grant', 'ops@example.org'], false);
    expect(again.lines).toEqual(['ops@example.org is already an admin']);

    const revoked = await run(['revoke', 'ops@example.org']);
    expect(revoked).toMatchObject({ code: EXIT.ok, lines: ['ops@example.org is no longer an admin'] });
    expect(await isAdmin('ops@example.org')).toBe(false);
    expect((await run(['revoke', 'ops@example.org'])).lines).toEqual(['ops@example.org is not an admin']);
    expect((await run(['list'])).lines).toEqual(['no admins']);

    const log = await userLogOfUser(database.db, user.id);
    expect(log.map((e) => e.log_name)).toEqual(['admin_role_revoked', 'admin_role_granted']);
    expect(log[0]?.log_value).toEqual({ by: 'operator command' });
  });

  it('says when no user has the address (exit 1), and shows the usage otherwise (exit 64)', async () => {
    const missing = await run(['grant', 'nobody@example.org']);
    expect(missing).toMatchObject({
      code: EXIT.notFound,
      errors: ['no user has the e-mail address nobody@example.org'],
    });
    for (const args of [
      [],
      ['grant'],
      ['promote', 'a@example.org'],
      ['grant', 'a@example.org', 'extra'],
      ['list', 'x'],
    ]) {
      const res = await run(args);
      expect(res.code, args.join(' ')).toBe(EXIT.usage);
      expect(res.errors).toEqual([ADMIN_USAGE]);
    }
  });
});

describe('adminCli (the process entry: configuration, the embedded database, the command)', () => {
  it('works on the database under DATA_DIR and refuses a DATA_DIR without one', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lodestone-admin-cli-'));
    const database = await createDatabase({ dataDir });
    await migrate(database);
    insertedRow(await insertUser(database.db, { email: 'boss@example.org', passwordHash: null }));
    await database.close();

    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const io = capture();
    expect(await adminCli(['grant', 'boss@example.org'], io, env)).toBe(EXIT.ok);
    expect(io.lines[0]).toBe('boss@example.org is now an admin');

    const reopened = await createDatabase({ dataDir });
    expect((await userByEmail(reopened.db, 'boss@example.org'))?.is_admin).toBe(true);
    await reopened.close();

    const empty = capture();
    const emptyDir = mkdtempSync(path.join(tmpdir(), 'lodestone-admin-cli-'));
    expect(await adminCli(['list'], empty, { DATA_DIR: emptyDir })).toBe(EXIT.config);
    expect(empty.errors[0]).toContain(`no database in ${emptyDir}`);

    const bad = capture();
    expect(await adminCli(['list'], bad, { DATA_DIR: dataDir, SESSION_TTL_DAYS: 'soon' })).toBe(EXIT.config);
    expect(bad.errors[0]).toContain('SESSION_TTL_DAYS');

    const usage = capture();
    expect(await adminCli(['help'], usage, env)).toBe(EXIT.usage);
    expect(usage.errors).toEqual([ADMIN_USAGE]);

    // --help answers with the usage and exit 0, even where no configuration or database is (issue 30).
    for (const args of [['--help'], ['grant', '-h']]) {
      const help = capture();
      expect(await adminCli(args, help, { DATA_DIR: emptyDir })).toBe(EXIT.ok);
      expect(help.lines).toEqual([ADMIN_USAGE]);
      expect(help.errors).toEqual([]);
    }
  });
});
