import { existsSync } from 'node:fs';
import path from 'node:path';
import { createDatabase, type Database, DataDirError, migrate } from '@lodestone/db';
import { type Config, ConfigError, loadConfig } from '../config/config.js';

/**
 * What every operator command (`lodestone admin …`, `lodestone treasury`) shares: its exit codes, its
 * output, and opening the server's own database with the server's configuration.
 */

/** 0 done, 1 what was named does not exist, 64 wrong usage (EX_USAGE), 78 bad configuration (EX_CONFIG, like the server). */
export const EXIT = { ok: 0, notFound: 1, usage: 64, config: 78 } as const;

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

export const consoleOutput: CliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** The configuration, or undefined with the reason written to `io` (exit EXIT.config). */
function operatorConfig(io: CliOutput, env?: Record<string, string | undefined>): Config | undefined {
  try {
    return env ? loadConfig(env) : loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`${error.message}\nSee docs/configuration.md for every setting.`);
      return undefined;
    }
    throw error;
  }
}

/**
 * Runs `work` on the configured database (DATABASE_URL, or the embedded one under DATA_DIR, which
 * must exist already: a typo in DATA_DIR should not create an empty one), migrated, and closes it.
 * The embedded database belongs to one process: while the pool runs on it, this says what to do.
 */
async function withOperatorDatabase(
  config: Config,
  io: CliOutput,
  work: (database: Database) => Promise<number>,
): Promise<number> {
  if (!config.databaseUrl && !existsSync(path.join(config.dataDir, 'pglite'))) {
    io.err(`no database in ${config.dataDir}: set DATA_DIR (or DATABASE_URL) as the server has it`);
    return EXIT.config;
  }
  let database: Database;
  try {
    database = await createDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    if (!(error instanceof DataDirError)) throw error;
    // The embedded database is the running pool's alone (two writers corrupt it): say what to do.
    io.err(
      `${error.message}\nTo run an operator command on the embedded database, stop the pool (Ctrl-C), run the ` +
        'command, and start the pool again; with PostgreSQL (DATABASE_URL) it works while the pool runs.',
    );
    return EXIT.config;
  }
  try {
    await migrate(database);
    return await work(database);
  } finally {
    await database.close();
  }
}

/**
 * `--help` or `-h` anywhere: the command's usage on standard output and exit 0, before any
 * configuration or database is read (it answers on a machine with neither).
 */
function printedHelp(args: readonly string[], usage: string, io: CliOutput): boolean {
  if (!args.some((arg) => arg === '--help' || arg === '-h')) return false;
  io.out(usage);
  return true;
}

/** An operator command's usage text and the check of its arguments (made before the database opens). */
export interface OperatorCommand {
  usage: string;
  validUsage: (args: readonly string[]) => boolean;
}

/** True, with the usage written to `io` (exit EXIT.usage), when the arguments are not the command's. */
export function wrongUsage(args: readonly string[], command: OperatorCommand, io: CliOutput): boolean {
  if (command.validUsage(args)) return false;
  io.err(command.usage);
  return true;
}

/**
 * An operator command as a process: `--help` first, then the configuration, the arguments, and `work` on the
 * configured database (migrated, closed after); returns the exit code.
 */
export async function runOperatorCli(
  args: readonly string[],
  command: OperatorCommand,
  io: CliOutput,
  env: Record<string, string | undefined> | undefined,
  work: (database: Database, config: Config) => Promise<number>,
): Promise<number> {
  if (printedHelp(args, command.usage, io)) return EXIT.ok;
  const config = operatorConfig(io, env);
  if (!config) return EXIT.config;
  if (wrongUsage(args, command, io)) return EXIT.usage;
  return withOperatorDatabase(config, io, (database) => work(database, config));
}
