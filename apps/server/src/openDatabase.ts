import { createDatabase, type Database, type DatabaseOptions } from '@lodestone/db';
import type { Logger } from 'pino';

/** Why a PostgreSQL server could not be reached that waiting can fix: it is down, starting or restarting. */
const PASSING = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
]);

/** True when `error` (or what caused it) says the server is out of reach for now, not misconfigured. */
export function isPassingOutage(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue = [error];
  while (queue.length > 0) {
    const e = queue.shift();
    if (typeof e !== 'object' || e === null || seen.has(e)) continue;
    seen.add(e);
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && PASSING.has(code)) return true;
    if (typeof message === 'string' && /Connection terminated/.test(message)) return true;
    queue.push((e as { cause?: unknown }).cause);
    if (e instanceof AggregateError) queue.push(...e.errors);
  }
  return false;
}

export interface OpenDatabaseTiming {
  /** First wait after a failed attempt; doubles up to `maxDelayMs`. Default 1 s. */
  firstDelayMs?: number;
  /** Default 30 s. */
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Opens the database, waiting out a PostgreSQL server that is down or restarting (back-off from 1 s
 * to 30 s, each attempt logged) instead of exiting: processes started before their database, or
 * together with it, come up when it does. A refusal that waiting cannot fix — a wrong password, a
 * database that does not exist, the embedded database's files — fails at once.
 */
export async function openDatabase(
  options: DatabaseOptions,
  log: Pick<Logger, 'warn' | 'info'>,
  timing: OpenDatabaseTiming = {},
): Promise<Database> {
  const { firstDelayMs = 1_000, maxDelayMs = 30_000 } = timing;
  const sleep = timing.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let delay = firstDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const database = await createDatabase(options);
      if (attempt > 1) log.info({ attempts: attempt }, 'database reachable');
      return database;
    } catch (error) {
      if (!isPassingOutage(error)) throw error;
      log.warn(
        { err: error, attempt, retryInMs: delay },
        'the database is out of reach; trying again (health answers 503 meanwhile)',
      );
      await sleep(delay);
      delay = Math.min(maxDelayMs, delay * 2);
    }
  }
}
