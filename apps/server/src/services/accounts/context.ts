import { appendUserLog, type DB, type Executor } from '@lodestone/db';
import type { Kysely } from 'kysely';
import type { Sessions } from '../auth/sessions.js';

/** What the account services use: the database, sessions (to end them) and the clock. */
export interface AccountsContext {
  db: Kysely<DB>;
  sessions: Sessions;
  now(): Date;
}

export interface LogEvent {
  userId: bigint;
  accountId?: bigint | null;
  name: string;
  value?: Record<string, unknown>;
}

/** Appends a security event to the user log (in the caller's transaction when given one). */
export function logEvent(db: Executor, now: Date, event: LogEvent): Promise<void> {
  return appendUserLog(db, { ...event, time: now });
}

/** The constraint a PostgreSQL unique violation (23505) names, or undefined for any other error. */
export function uniqueViolation(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && typeof constraint === 'string' ? constraint : undefined;
}

/** True for a PostgreSQL check violation (23514) of the named constraint (or trigger-raised check). */
export function checkViolation(error: unknown, name: string): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23514' && constraint === name;
}
