import { sql } from 'kysely';
import type { Account, Executor, WatcherLink, WatcherScope } from '../schema.js';

/*
 * Watcher links (migration 0023; docs/dashboard.md, "Watcher links"): read-only links to one account,
 * each with a scope, an optional expiry, its last use and revocation. The account's own observer key
 * is its default link, kept on the account row.
 */

/** A link's last use is written at most this often (observer pages poll every 30 s). */
const TOUCH_EVERY_MS = 60_000;

export interface NewWatcherLink {
  accountId: bigint;
  key: string;
  name: string;
  scope: WatcherScope;
  createdAt: Date;
  expiresAt: Date | null;
}

export function insertWatcherLink(db: Executor, link: NewWatcherLink): Promise<WatcherLink> {
  return db
    .insertInto('watcher_links')
    .values({
      account_id: link.accountId,
      key: link.key,
      name: link.name,
      scope: link.scope,
      created_at: link.createdAt,
      expires_at: link.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An account's links that were not revoked (expired ones too, to be shown as expired), oldest first. */
export function watcherLinksOf(db: Executor, accountId: bigint): Promise<WatcherLink[]> {
  return db
    .selectFrom('watcher_links')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** How many of an account's links still open its dashboard at `now`. */
export async function countLiveWatcherLinks(db: Executor, accountId: bigint, now: Date): Promise<number> {
  const row = await db
    .selectFrom('watcher_links')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Revokes one of the account's links; false when it has no such link, or it was revoked already. */
export async function revokeWatcherLink(db: Executor, accountId: bigint, id: bigint, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('watcher_links')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Revokes every link of an account (the account is removed). */
export async function revokeWatcherLinksOf(db: Executor, accountId: bigint, now: Date): Promise<void> {
  await db
    .updateTable('watcher_links')
    .set({ revoked_at: now })
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** A live link of a live account by its key: neither revoked nor expired at `now`. */
export async function watcherLinkByKey(
  db: Executor,
  key: string,
  now: Date,
): Promise<{ account: Account; link: WatcherLink } | undefined> {
  const link = await db
    .selectFrom('watcher_links')
    .selectAll()
    .where('key', '=', key)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirst();
  if (!link) return undefined;
  const account = await db
    .selectFrom('accounts')
    .selectAll()
    .where('id', '=', link.account_id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return account ? { account, link } : undefined;
}

/** Notes a link's use at `now`, at most once a minute. */
export async function touchWatcherLink(db: Executor, id: bigint, now: Date): Promise<void> {
  await db
    .updateTable('watcher_links')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(now.getTime() - TOUCH_EVERY_MS))]),
    )
    .execute();
}

/** Notes the use of an account's default link (its observer key) at `now`, at most once a minute. */
export async function touchObserverKey(db: Executor, accountId: bigint, now: Date): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ observer_key_used_at: now })
    .where('id', '=', accountId)
    .where(
      sql<boolean>`(observer_key_used_at is null or observer_key_used_at < ${new Date(now.getTime() - TOUCH_EVERY_MS)})`,
    )
    .execute();
}
