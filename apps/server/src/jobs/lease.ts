import type { Database } from '@lodestone/db';
import { sql } from 'kysely';
import type { Log } from './types.js';

/**
 * The jobs role's leadership on PostgreSQL (docs/deployment.md, "Jobs: active and standby").
 *
 * One process holds the lease and does the work; the others stand by and take it when it expires.
 * Two rules make a frozen holder (SIGSTOP, a VM paused, a process stuck in swap) harmless:
 * - the holder counts its lease as held only until `ttl` after it *sent* its last successful
 *   renewal, on its monotonic clock, which runs on while the process is stopped; the database's
 *   `expires_at` is at least that late, so a standby can never take a lease its holder still counts;
 * - the new holder ends the previous holder's database sessions (named by `application_name`), so a
 *   statement the frozen process had begun is rolled back rather than committed after the take-over.
 */
export interface LeaseOptions {
  database: Database;
  /** Which lease (one per kind of singleton work). */
  name: string;
  /** This process, unique per start; also the application_name of its database sessions. */
  holder: string;
  /** How long a renewal keeps the lease. Default 15 s. */
  ttlMs?: number;
  log: Log;
}

export const DEFAULT_LEASE_TTL_MS = 15_000;

export interface Acquired {
  token: bigint;
  /** The holder the lease was taken from, when it had expired in another process's hands. */
  previousHolder: string | null;
}

export class Lease {
  readonly ttlMs: number;
  #token: bigint | undefined;
  /** performance.now() until which this process may act as the holder. */
  #validUntil = 0;

  constructor(private readonly options: LeaseOptions) {
    this.ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  }

  /** True while this process holds the lease by its own clock: the check before any work starts. */
  held(): boolean {
    return this.#token !== undefined && performance.now() < this.#validUntil;
  }

  /** Takes the lease when it is free or expired; undefined when another process holds it. */
  async tryAcquire(): Promise<Acquired | undefined> {
    const { database, name, holder } = this.options;
    const sentAt = performance.now();
    const { rows } = await sql<{ token: string; previous_holder: string | null }>`
      insert into jobs_lease (name, holder, token, expires_at)
      values (${name}, ${holder}, 1, now() + ${this.ttlMs} * interval '1 millisecond')
      on conflict (name) do update
        set holder = excluded.holder,
            token = jobs_lease.token + 1,
            expires_at = excluded.expires_at,
            released = false,
            previous_holder = case when jobs_lease.released or jobs_lease.holder = excluded.holder then null
                                   else jobs_lease.holder end
        where jobs_lease.expires_at <= now() or jobs_lease.holder = excluded.holder
      returning token::text, previous_holder`.execute(database.db);
    const row = rows[0];
    if (row === undefined) return undefined;
    this.#token = BigInt(row.token);
    this.#validUntil = sentAt + this.ttlMs;
    const previousHolder = row.previous_holder;
    if (previousHolder !== null) await this.#fence(previousHolder);
    return { token: this.#token, previousHolder };
  }

  /**
   * Extends the lease. False when it was lost (taken by another process after it expired); a
   * database error propagates and the lease stays held until its deadline, so a short outage costs
   * nothing and a long one ends with `held()` false.
   */
  async renew(): Promise<boolean> {
    const token = this.#token;
    if (token === undefined) return false;
    const sentAt = performance.now();
    const { rows } = await sql<{ token: string }>`
      update jobs_lease set expires_at = now() + ${this.ttlMs} * interval '1 millisecond'
      where name = ${this.options.name} and holder = ${this.options.holder} and token = ${token.toString()}::bigint
      returning token::text`.execute(this.options.database.db);
    if (rows.length === 0) {
      this.#token = undefined;
      return false;
    }
    // A renewal that took longer than the lease itself extends nothing we can count on.
    this.#validUntil = Math.max(this.#validUntil, sentAt + this.ttlMs);
    return true;
  }

  /** Gives the lease up at once, so a standby need not wait out its deadline (a clean stop). */
  async release(): Promise<void> {
    const token = this.#token;
    this.#token = undefined;
    if (token === undefined) return;
    await sql`
      update jobs_lease set expires_at = now(), released = true
      where name = ${this.options.name} and holder = ${this.options.holder} and token = ${token.toString()}::bigint`.execute(
      this.options.database.db,
    );
  }

  /** Forgets the lease locally (it was lost, or its deadline passed). */
  drop(): void {
    this.#token = undefined;
  }

  /**
   * Ends the database sessions of the holder the lease was taken from: the statements a frozen
   * process had in flight roll back, and the session locks it held are freed.
   */
  async #fence(previousHolder: string): Promise<void> {
    const { rows } = await sql<{ ended: number }>`
      select count(*) filter (where pg_terminate_backend(pid))::int as ended
      from pg_stat_activity
      where application_name = ${previousHolder} and pid <> pg_backend_pid()`.execute(this.options.database.db);
    const ended = rows[0]?.ended ?? 0;
    this.options.log.warn(
      { lease: this.options.name, previousHolder, sessionsEnded: ended },
      'took over an expired lease; the previous holder is fenced off',
    );
  }
}
