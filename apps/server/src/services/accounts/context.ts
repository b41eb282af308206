import type { DB } from '@lodestone/db';
import type { Kysely } from 'kysely';
import type { Sessions } from '../auth/sessions.js';

/** What the account services use: the database, sessions (to end them) and the clock. */
export interface AccountsContext {
  db: Kysely<DB>;
  sessions: Sessions;
  now(): Date;
}
