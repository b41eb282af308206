import type { Results } from '@electric-sql/pglite';
import {
  CompiledQuery,
  createQueryId,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  sql,
  type TransactionSettings,
} from 'kysely';
import { Mutex } from './mutex.js';

/** What the driver uses of PGlite: PGlite itself, or PGlite in a worker thread (pgliteWorker.ts). */
export interface PGliteSession {
  exec(sql: string): Promise<Results[]>;
  query<R>(sql: string, params: unknown[]): Promise<Results<R>>;
  close(): Promise<void>;
}

/**
 * Kysely over an embedded PGlite. PGlite speaks PostgreSQL, so the SQL side (adapter, compiler,
 * introspector) is Kysely's own PostgreSQL one; only the driver is ours.
 */
export class PGliteDialect implements Dialect {
  readonly #pglite: PGliteSession;

  constructor(pglite: PGliteSession) {
    this.#pglite = pglite;
  }

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.#pglite);
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

/**
 * PGlite is one session. Kysely acquires a connection for each query and holds it for a whole
 * transaction, so a mutex around acquire/release gives a transaction the session exclusively: a
 * concurrent query or transaction waits for COMMIT/ROLLBACK instead of running inside it.
 *
 * Consequence: inside `db.transaction().execute(async (trx) => ...)` use `trx`, never `db`; a query
 * on `db` would wait for the transaction that is waiting for it. (On PostgreSQL it would silently run
 * outside the transaction, which is a bug as well.)
 */
class PGliteDriver implements Driver {
  readonly #pglite: PGliteSession;
  readonly #mutex = new Mutex();
  #closed = false;

  constructor(pglite: PGliteSession) {
    this.#pglite = pglite;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.lock();
    if (this.#closed) {
      release();
      throw new Error('the embedded database (PGlite) is closed');
    }
    return new PGliteConnection(this.#pglite, release);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof PGliteConnection) connection.release();
  }

  // Plain BEGIN/COMMIT/ROLLBACK through the held connection, as Kysely's PostgreSQL driver does, so
  // both engines run the same statements. (PGlite's own `transaction()` could not span Kysely calls.)
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // Kysely has validated both settings against its fixed lists, so they are safe to splice in.
    const parts = ['start transaction'];
    if (settings.isolationLevel) parts.push(`isolation level ${settings.isolationLevel}`);
    if (settings.accessMode) parts.push(settings.accessMode);
    await connection.executeQuery(CompiledQuery.raw(parts.join(' ')));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await connection.executeQuery(compile(sql`savepoint ${sql.id(name)}`.toOperationNode(), createQueryId()));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await connection.executeQuery(
      compile(sql`rollback to savepoint ${sql.id(name)}`.toOperationNode(), createQueryId()),
    );
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await connection.executeQuery(compile(sql`release savepoint ${sql.id(name)}`.toOperationNode(), createQueryId()));
  }

  /** Waits for the current holder (an open transaction finishes first), then closes PGlite. */
  async destroy(): Promise<void> {
    const release = await this.#mutex.lock();
    try {
      if (!this.#closed) {
        this.#closed = true;
        await this.#pglite.close();
      }
    } finally {
      release();
    }
  }
}

/** One hold of the session. After release it refuses to run anything, so a leaked reference fails. */
class PGliteConnection implements DatabaseConnection {
  readonly #pglite: PGliteSession;
  #release: (() => void) | undefined;

  constructor(pglite: PGliteSession, release: () => void) {
    this.#pglite = pglite;
    this.#release = release;
  }

  release(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.#release) throw new Error('PGlite connection used after it was released');
    // Like pg: a query without parameters goes through the simple protocol, which accepts several
    // statements (a migration file); with parameters, the extended protocol. Same rules, both engines.
    if (query.parameters.length === 0) {
      const results = await this.#pglite.exec(query.sql);
      return toQueryResult<R>(results.at(-1));
    }
    return toQueryResult<R>(await this.#pglite.query<R>(query.sql, [...query.parameters]));
  }

  // biome-ignore lint/correctness/useYield: it refuses before producing anything.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    // Kysely's pg dialect also refuses unless configured with pg-cursor, which we do not use.
    throw new Error('streaming queries are not supported; page with limit/offset or keyset instead');
  }
}

function toQueryResult<R>(result: Results<R> | Results | undefined): QueryResult<R> {
  if (!result) return { rows: [] };
  // Same rule as Kysely's pg driver: the command tag's count, only for statements that change rows.
  const changesRows = ['INSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(result.command ?? '');
  return {
    rows: result.rows as R[],
    ...(changesRows ? { numAffectedRows: BigInt(result.rowCount ?? 0) } : {}),
  };
}
