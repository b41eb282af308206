import type { DB } from '@lodestone/db';
import type { Kysely } from 'kysely';
import { listAdmins, setAdminRole } from '../services/admin/roles.js';
import {
  type CliOutput,
  consoleOutput,
  EXIT,
  type OperatorCommand,
  runOperatorCli,
  wrongUsage,
} from './operatorDatabase.js';

/**
 * `lodestone admin grant EMAIL | revoke EMAIL | list` — the operator gives or takes the admin role
 * on the server itself, on the configured database (DATABASE_URL, or the embedded one under
 * DATA_DIR). The website has no way to do it, so a stolen admin session cannot create more admins.
 *
 * Exit codes: 0 done (also when nothing had to change), 1 no user has that address, 64 wrong usage
 * (EX_USAGE), 78 bad configuration (EX_CONFIG, like the server itself).
 */
export const ADMIN_USAGE = [
  'usage: lodestone admin grant EMAIL    give the admin role to the user with this e-mail',
  '       lodestone admin revoke EMAIL   take it away (effective on their next request)',
  '       lodestone admin list           show the admins',
].join('\n');

export interface AdminCommandContext {
  db: Kysely<DB>;
  now: () => Date;
  /** ADMIN_REQUIRE_2FA: when on, a granted admin without 2FA is told that the tools will refuse them. */
  require2fa: boolean;
}

/** True when the arguments are one of the commands with what it needs (checked before the database opens). */
function validUsage(args: readonly string[]): boolean {
  const [command, email, ...rest] = args;
  if (command === 'list') return email === undefined;
  return (command === 'grant' || command === 'revoke') && Boolean(email?.trim()) && rest.length === 0;
}

const ADMIN_COMMAND: OperatorCommand = { usage: ADMIN_USAGE, validUsage };

/** Runs one admin command against a database; returns the exit code. */
export async function runAdminCommand(
  args: readonly string[],
  ctx: AdminCommandContext,
  io: CliOutput,
): Promise<number> {
  if (wrongUsage(args, ADMIN_COMMAND, io)) return EXIT.usage;
  const [command, email = ''] = args;
  if (command === 'list') {
    const admins = await listAdmins(ctx.db);
    if (admins.length === 0) io.out('no admins');
    for (const a of admins) io.out(`${a.email}${a.has2fa ? '' : '  (2FA off)'}`);
    return EXIT.ok;
  }
  const grant = command === 'grant';
  const result = await setAdminRole(ctx.db, email, grant, ctx.now());
  if (!result.found) {
    io.err(`no user has the e-mail address ${email}`);
    return EXIT.notFound;
  }
  const who = email.trim().toLowerCase();
  if (!result.changed) {
    io.out(grant ? `${who} is already an admin` : `${who} is not an admin`);
  } else {
    io.out(grant ? `${who} is now an admin` : `${who} is no longer an admin`);
  }
  if (grant && ctx.require2fa && !result.has2fa) {
    io.out(
      'note: this user has no 2FA; the admin tools refuse them until they enable it in Settings and log in again with a code (ADMIN_REQUIRE_2FA)',
    );
  }
  return EXIT.ok;
}

/** `lodestone admin …` as a process: configuration, database (migrated), the command, close. */
export async function adminCli(
  args: readonly string[],
  io: CliOutput = consoleOutput,
  /** The environment to read (tests); default: the process's, read by loadConfig as everywhere. */
  env?: Record<string, string | undefined>,
): Promise<number> {
  return runOperatorCli(args, ADMIN_COMMAND, io, env, (database, config) =>
    runAdminCommand(args, { db: database.db, now: () => new Date(), require2fa: config.adminRequire2fa }, io),
  );
}
