import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { PGlite, type Results } from '@electric-sql/pglite';
import type { PGliteSession } from './pgliteDialect.js';
import { PGLITE_OPTIONS } from './pgliteOptions.js';

/**
 * The embedded database in a worker thread of its own. PGlite is PostgreSQL compiled to WebAssembly:
 * every statement runs on the thread that calls it, and at a few hundred shares a second the share
 * accounting kept the main thread busy for 140–470 ms every 5 s, so every stratum answer and HTTP
 * request waited behind it (issue 21: p99 204 ms, max 433 ms). In a worker the statements run on
 * another core; the main thread only sends SQL and receives rows (structured clones: text, numbers,
 * bigints, Dates and arrays cross as they are).
 *
 * The main side (`openPGliteInWorker`) is a PGliteSession like PGlite itself, so the Kysely dialect
 * and its one-transaction-at-a-time mutex stay on the main thread unchanged. Errors cross with their
 * PostgreSQL fields (code, constraint, detail, …), which the services read to tell a taken name from
 * any other failure.
 */

interface WorkerSetup {
  /** PGlite's data directory; undefined keeps the database in memory. */
  directory: string | undefined;
  session: { sql: string; parameters: unknown[] };
}

type Call = { op: 'exec'; sql: string } | { op: 'query'; sql: string; params: unknown[] };
type Request = Call & { id: number };

type Reply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: SerializedError }
  | { id: 0; ready: true }
  | { id: 0; ready: false; error: SerializedError };

type SerializedError = Record<string, string | number | boolean | undefined> & { message: string };

function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { message: String(error) };
  const out: SerializedError = { message: error.message, name: error.name };
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) out[key] = value as string | number | boolean;
  }
  return out;
}

function deserializeError(fields: SerializedError): Error {
  const error = new Error(fields.message);
  Object.assign(error, fields);
  return error;
}

/** The worker's side: call this as the whole body of the worker script. */
export function servePGliteInWorker(): void {
  const port = parentPort;
  if (!port) throw new Error('servePGliteInWorker runs inside a worker thread');
  const setup = workerData as WorkerSetup;
  void (async () => {
    let pglite: PGlite;
    try {
      pglite = await PGlite.create({ ...(setup.directory ? { dataDir: setup.directory } : {}), ...PGLITE_OPTIONS });
      await pglite.query(setup.session.sql, setup.session.parameters);
    } catch (error) {
      port.postMessage({ id: 0, ready: false, error: serializeError(error) } satisfies Reply);
      return;
    }
    port.on('message', async (message: Request | { op: 'close' }) => {
      if (message.op === 'close') {
        await pglite.close();
        port.close();
        return;
      }
      try {
        const result =
          message.op === 'exec' ? await pglite.exec(message.sql) : await pglite.query(message.sql, message.params);
        port.postMessage({ id: message.id, ok: true, result } satisfies Reply);
      } catch (error) {
        port.postMessage({ id: message.id, ok: false, error: serializeError(error) } satisfies Reply);
      }
    });
    port.postMessage({ id: 0, ready: true } satisfies Reply);
  })();
}

/**
 * Starts `script` (a file whose body calls `servePGliteInWorker`) and opens the database in it.
 * Rejects with the worker's own error when PGlite cannot open the directory.
 *
 * A new directory is first initialized by a worker of its own, which then exits: creating a cluster
 * (initdb) leaves some 400 MB of garbage in the thread's heap that an idle database thread would
 * keep for a long time; a thread that ends returns it all.
 */
export async function openPGliteInWorker(
  script: URL,
  directory: string | undefined,
  session: WorkerSetup['session'],
): Promise<PGliteSession> {
  if (directory !== undefined && !existsSync(join(directory, 'PG_VERSION'))) {
    await (await startPGliteWorker(script, directory, session)).close();
  }
  return startPGliteWorker(script, directory, session);
}

async function startPGliteWorker(
  script: URL,
  directory: string | undefined,
  session: WorkerSetup['session'],
): Promise<PGliteSession> {
  const worker = new Worker(script, { workerData: { directory, session } satisfies WorkerSetup });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  let onStart: { error(error: Error): void; exit(code: number): void; message(reply: Reply): void } | undefined;
  await new Promise<void>((resolve, reject) => {
    onStart = {
      error: reject,
      exit: (code) => reject(new Error(`the embedded database worker exited with code ${code}`)),
      message: (reply) => {
        if ('ready' in reply && reply.ready) resolve();
        else if ('error' in reply) reject(deserializeError(reply.error));
      },
    };
    worker.on('error', onStart.error).on('exit', onStart.exit).on('message', onStart.message);
  })
    .catch(async (error: unknown) => {
      await worker.terminate();
      throw error;
    })
    .finally(() => {
      if (onStart) worker.off('error', onStart.error).off('exit', onStart.exit).off('message', onStart.message);
    });
  worker.on('message', (reply: Reply) => {
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if ('ok' in reply && reply.ok) waiter.resolve(reply.result);
    else if ('error' in reply) waiter.reject(deserializeError(reply.error));
  });
  worker.on('error', (error) => fail(new Error(`the embedded database worker failed: ${error.message}`)));
  worker.on('exit', (code) => fail(new Error(`the embedded database worker stopped (exit code ${code})`)));

  const call = <T>(request: Call): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...request, id });
    });
  };
  return {
    exec: (sql) => call<Results[]>({ op: 'exec', sql }),
    query: <R>(sql: string, params: unknown[]) => call<Results<R>>({ op: 'query', sql, params }),
    async close() {
      if (failure) return;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage({ op: 'close' });
      await exited;
    },
  };
}
