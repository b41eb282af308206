import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely, type LogEvent, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { DataDirError, type DataDirLock, lockDataDir, prepareDirectory } from './dataDirLock.js';
import { once } from './once.js';
import { PGliteDialect, type PGliteSession } from './pgliteDialect.js';
import { PGLITE_OPTIONS } from './pgliteOptions.js';
import { openPGliteInWorker } from './pgliteWorker.js';
import type { DB } from './schema.js';
import { checkSchemaName, sessionSettings } from './session.js';
import { TYPE_PARSERS } from './typeParsers.js';

export type DatabaseEngine = 'pglite' | 'postgres';

/** Pass as `dataDir` for a throwaway in-memory embedded database (tests). */
export const MEMORY_DATA_DIR = 'memory://';

export interface DatabaseOptions {
  /**
   * DATABASE_URL. Unset (or empty) → the embedded database; `postgres://` or `postgresql://` →
   * PostgreSQL through a pg pool; anything else is refused.
   */
  url?: string;
  /**
   * Embedded database only: its files live in `${dataDir}/pglite`. Required then, so that a missing
   * setting can never quietly lose data; pass MEMORY_DATA_DIR ('memory://') to keep it in memory.
   * The directory is locked for the life of the database (dataDirLock.ts).
   */
  dataDir?: string;
  /** The setting `dataDir` came from, for messages (default 'DATA_DIR'). */
  dataDirSetting?: string;
  /**
   * The embedded database's lock was taken from under this process. Default: its message on stderr and
   * exit 78 at once — every part left running would write to files another process now uses.
   */
  onDataDirLost?: (error: Error) => void;
  /**
   * Embedded database only: run PGlite in a worker thread started from this script (a file whose body
   * calls `servePGliteInWorker`; the server bundles it as dist/pglite-worker.js), so that its
   * statements never hold up the thread that answers miners and HTTP requests. Default: in this thread.
   */
  pgliteWorker?: URL;
  /**
   * Embedded in-memory database only (MEMORY_DATA_DIR, in this thread): start from this copy of a data
   * directory (PGlite's `dumpDataDir`) instead of an empty one. Tests open hundreds of migrated
   * databases; a fresh one runs initdb, three CPU seconds each, and a copy takes one.
   */
  startFrom?: Blob;
  /** Search (and create if missing) only this schema. For tests sharing one PostgreSQL database. */
  schema?: string;
  /**
   * PostgreSQL only: the `application_name` of this process's sessions, as `pg_stat_activity` shows
   * it. The jobs lease names its holder's sessions by it, to end them when a standby takes over.
   */
  applicationName?: string;
  /**
   * Receives every query's SQL and duration (never its parameters: they can hold secrets) and, on
   * PostgreSQL, errors of idle pooled connections. Without `log` such an error is an unhandled 'error'
   * event and stops the process, which is pg's default and better than ignoring it.
   */
  log?: (event: DatabaseLogEvent) => void;
}

export type DatabaseLogEvent =
  | { type: 'query'; sql: string; durationMs: number }
  | { type: 'query-error'; sql: string; durationMs: number; error: unknown }
  | { type: 'pool-error'; error: Error };

export interface Database {
  /** Kysely over either engine. For a transaction: `db.transaction().execute(async (trx) => ...)`. */
  readonly db: Kysely<DB>;
  readonly engine: DatabaseEngine;
  /** True when a trivial query succeeds (health checks); false otherwise, including after close. */
  ping(): Promise<boolean>;
  /** Waits for running work, then closes the pool or the embedded database. Safe to call twice. */
  close(): Promise<void>;
}

export class DatabaseConfigError extends Error {
  override readonly name = 'DatabaseConfigError';
}

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  const url = options.url?.trim() || undefined;
  const engine = engineFor(url);
  const schema = options.schema === undefined ? undefined : checkSchemaName(options.schema);
  const session = sessionSettings(schema);
  let dataDirLock: DataDirLock | undefined;
  const dialect =
    url === undefined
      ? new PGliteDialect(
          await openPGlite(options, session, (lock) => {
            dataDirLock = lock;
          }),
        )
      : new PostgresDialect({
          pool: openPool(url, options.log, options.applicationName),
          // Kysely calls this once per new pooled connection, before its first query.
          onCreateConnection: async (connection) => {
            await connection.executeQuery(CompiledQuery.raw(session.sql, session.parameters));
          },
        });
  const db = new Kysely<DB>({ dialect, ...(options.log ? { log: toLogger(options.log) } : {}) });
  const close = once(async () => {
    try {
      await db.destroy();
    } finally {
      await dataDirLock?.release();
    }
  });
  try {
    // Fail at start-up, not at the first request, when the database is unreachable. This also
    // initializes Kysely's driver: Kysely.destroy() skips a driver that never ran a query, which
    // would leave the pool or PGlite open and usable after close().
    await sql`select 1`.execute(db);
    if (schema !== undefined) await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  } catch (error) {
    await close();
    if (engine === 'pglite') throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`DATABASE_URL: cannot use the PostgreSQL database: ${reason}`, { cause: error });
  }
  return {
    db,
    engine,
    close,
    async ping() {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false; // the reason reaches `log` as a query-error event
      }
    },
  };
}

function engineFor(url: string | undefined): DatabaseEngine {
  if (url === undefined) return 'pglite';
  const scheme = /^([a-z][a-z0-9+.-]*:)/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'postgres:' || scheme === 'postgresql:') return 'postgres';
  // Only the scheme is echoed: the rest of the URL may hold a password.
  const what = scheme === undefined ? 'not a URL' : `unsupported scheme '${scheme}'`;
  throw new DatabaseConfigError(
    `DATABASE_URL: ${what}; use postgres:// or postgresql://, or leave it unset for the embedded database`,
  );
}

async function openPGlite(
  options: DatabaseOptions,
  session: ReturnType<typeof sessionSettings>,
  locked: (lock: DataDirLock) => void,
) {
  const { dataDir } = options;
  if (dataDir === undefined || dataDir === '') {
    throw new DatabaseConfigError(
      `dataDir is required for the embedded database (DATABASE_URL unset); use '${MEMORY_DATA_DIR}' to keep it in memory`,
    );
  }
  if (options.startFrom && (dataDir !== MEMORY_DATA_DIR || options.pgliteWorker)) {
    throw new DatabaseConfigError('startFrom is for an in-memory embedded database in this thread only');
  }
  let directory: string | undefined;
  let lock: DataDirLock | undefined;
  if (dataDir !== MEMORY_DATA_DIR) {
    const setting = options.dataDirSetting ?? 'DATA_DIR';
    directory = join(dataDir, 'pglite');
    await prepareDirectory(directory, setting);
    lock = await lockDataDir(directory, setting, options.onDataDirLost ? { onLost: options.onDataDirLost } : {});
  }
  try {
    let pglite: PGliteSession;
    if (options.pgliteWorker) {
      pglite = await openPGliteInWorker(options.pgliteWorker, directory, session);
    } else {
      const inThread = await PGlite.create({
        ...(directory ? { dataDir: directory } : {}),
        ...(options.startFrom && { loadDataDir: options.startFrom }),
        ...PGLITE_OPTIONS,
      });
      try {
        await inThread.query(session.sql, session.parameters);
      } catch (error) {
        await inThread.close();
        throw error;
      }
      pglite = inThread;
    }
    if (lock) locked(lock);
    return pglite;
  } catch (error) {
    await lock?.release();
    if (directory !== undefined && !(error instanceof DataDirError)) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new DataDirError(
        `${options.dataDirSetting ?? 'DATA_DIR'}: the embedded database in ${directory} could not be opened (${reason}); ` +
          'if the files are damaged, restore them from a backup',
        { cause: error },
      );
    }
    throw error;
  }
}

function openPool(url: string, log: DatabaseOptions['log'], applicationName: string | undefined): pg.Pool {
  // Per-pool overrides: the process-wide pg.types stay untouched for anyone else using pg.
  const types = new pg.TypeOverrides();
  for (const [oid, parse] of Object.entries(TYPE_PARSERS)) types.setTypeParser(Number(oid), 'text', parse);
  const pool = new pg.Pool({
    connectionString: url,
    types,
    ...(applicationName === undefined ? {} : { application_name: applicationName }),
  });
  // An idle connection that breaks (PostgreSQL restarted, a proxy timed it out) is an 'error' event on
  // the pool: without a listener it would end the process. The pool drops it and opens another.
  pool.on('error', (error) => log?.({ type: 'pool-error', error }));
  // pg listens on idle clients only: a client lent out — a transaction waiting on a node's answer
  // between two statements — whose session ends (PostgreSQL restarted, the session terminated) would
  // emit an 'error' no one hears, and that ends the process. Its next statement fails instead.
  pool.on('connect', (client) => {
    client.on('error', (error) => log?.({ type: 'pool-error', error }));
  });
  return pool;
}

function toLogger(log: (event: DatabaseLogEvent) => void): (event: LogEvent) => void {
  return (event) => {
    const base = { sql: event.query.sql, durationMs: event.queryDurationMillis };
    log(event.level === 'query' ? { type: 'query', ...base } : { type: 'query-error', ...base, error: event.error });
  };
}
