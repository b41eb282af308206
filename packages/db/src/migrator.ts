import { type Kysely, sql } from 'kysely';
import { sha256Hex } from './checksum.js';
import type { Database } from './connection.js';
import { MIGRATIONS, type Migration, migrationFileName } from './migrations.js';
import type { DB } from './schema.js';

export type MigrationErrorReason =
  | 'invalid-list' // the migrations passed in are not strictly increasing NNNN_name entries
  | 'newer-database' // the database has a version above the newest this build knows
  | 'unknown-version' // the database has a version this build does not have (a deleted file)
  | 'checksum-mismatch' // an applied migration's file was edited afterwards
  | 'out-of-order' // a pending migration is older than one already applied
  | 'failed'; // a migration's SQL failed; it was rolled back

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
  readonly reason: MigrationErrorReason;

  constructor(reason: MigrationErrorReason, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

/**
 * Session advisory lock key (any fixed bigint; this one spells nothing). On PostgreSQL two servers
 * starting at once would otherwise both see a migration as pending and both try to apply it.
 */
const MIGRATION_LOCK_KEY = 7_206_853_114;

/**
 * Applies pending migrations in order, each in its own transaction together with its row in
 * schema_migrations, and returns the versions it applied (empty when up to date). Throws a
 * MigrationError, having applied nothing further, when the database and this build disagree.
 */
export async function migrate(database: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  checkList(migrations);
  // One connection for the whole run: a session lock belongs to the connection that took it.
  return database.db.connection().execute(async (db) => {
    // PGlite is a single serialized session already, so only PostgreSQL needs the lock.
    const locked = database.engine === 'postgres';
    if (locked) await sql`select pg_advisory_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(db);
    try {
      return await migrateLocked(db, migrations);
    } finally {
      if (locked) await sql`select pg_advisory_unlock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(db);
    }
  });
}

async function migrateLocked(db: Kysely<DB>, migrations: readonly Migration[]): Promise<number[]> {
  await sql`
    create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      checksum text not null,
      applied_at timestamptz not null default now()
    )`.execute(db);
  const applied = await db
    .selectFrom('schema_migrations')
    .select(['version', 'name', 'checksum'])
    .orderBy('version')
    .execute();

  const newestKnown = migrations.at(-1)?.version ?? 0;
  const newestApplied = applied.at(-1);
  if (newestApplied && newestApplied.version > newestKnown) {
    throw new MigrationError(
      'newer-database',
      `database schema version ${newestApplied.version} is newer than this build (max ${newestKnown}); refusing to run`,
    );
  }

  const known = new Map(migrations.map((m) => [m.version, m]));
  for (const row of applied) {
    const m = known.get(row.version);
    if (!m) {
      throw new MigrationError(
        'unknown-version',
        `database has migration ${migrationFileName(row)} which this build does not have; refusing to run`,
      );
    }
    const checksum = sha256Hex(m.sql);
    if (checksum !== row.checksum) {
      throw new MigrationError(
        'checksum-mismatch',
        `migration ${migrationFileName(m)} changed after it was applied (checksum ${row.checksum} in the database, ` +
          `${checksum} in this build); restore the file and put the change in a new migration`,
      );
    }
  }

  const appliedVersions = new Set(applied.map((row) => row.version));
  const pending = migrations.filter((m) => !appliedVersions.has(m.version));
  const firstPending = pending[0];
  if (firstPending && newestApplied && firstPending.version < newestApplied.version) {
    throw new MigrationError(
      'out-of-order',
      `migration ${migrationFileName(firstPending)} is pending but ${migrationFileName(newestApplied)} is already ` +
        'applied; renumber it after the newest applied migration',
    );
  }

  const done: number[] = [];
  for (const m of pending) {
    try {
      await db.transaction().execute(async (trx) => {
        await sql.raw(m.sql).execute(trx);
        await trx
          .insertInto('schema_migrations')
          .values({ version: m.version, name: m.name, checksum: sha256Hex(m.sql) })
          .execute();
      });
    } catch (error) {
      throw new MigrationError(
        'failed',
        `migration ${migrationFileName(m)} failed and was rolled back: ${describeError(error)}`,
        { cause: error },
      );
    }
    done.push(m.version);
  }
  return done;
}

function checkList(migrations: readonly Migration[]): void {
  let previous = 0;
  for (const m of migrations) {
    if (!Number.isInteger(m.version) || m.version <= previous || m.version > 9999 || !/^[a-z0-9_]+$/.test(m.name)) {
      throw new MigrationError(
        'invalid-list',
        `migration ${m.version}_${m.name} is out of place: versions must be increasing integers 1-9999 and names [a-z0-9_]`,
      );
    }
    previous = m.version;
  }
}

/** The SQL error message plus its SQLSTATE, which both pg and PGlite errors carry as `code`. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = 'code' in error && typeof error.code === 'string' ? ` (SQLSTATE ${error.code})` : '';
  return `${error.message}${code}`;
}
