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
