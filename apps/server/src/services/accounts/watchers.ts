import { MAX_WATCHER_LINKS, type WatcherLink } from '@lodestone/contract';
import {
  type Account,
  countLiveWatcherLinks,
  insertWatcherLink,
  lockAccount,
  revokeWatcherLink,
  type User,
  type WatcherLink as WatcherLinkRow,
  type WatcherScope,
  watcherLinksOf,
} from '@lodestone/db';
import { randomToken } from '../auth/tokens.js';
import { errors } from '../errors.js';
import { logEvent } from '../userLog.js';
import type { AccountsContext } from './context.js';

/*
 * Watcher links (docs/dashboard.md, "Watcher links"): read-only links to one account's dashboard.
 * The observer routes open them (http/auth.ts, observerAccount); this is their management by the
 * account's owner. Each creation and revocation is written to the user log.
 */

const DAY_MS = 86_400_000;

/** The name the account's own observer key is listed under. */
export const DEFAULT_LINK_NAME = 'Observer link';

function presentLink(link: WatcherLinkRow, now: Date): WatcherLink {
  return {
    id: link.id.toString(),
    name: link.name,
    scope: link.scope,
    key: link.key,
    default: false,
    created_at: link.created_at.toISOString(),
    expires_at: link.expires_at?.toISOString() ?? null,
    expired: link.expires_at !== null && link.expires_at.getTime() <= now.getTime(),
    last_used_at: link.last_used_at?.toISOString() ?? null,
  };
}

/** GET /v1/user/watchers: the default link, then the others that were not revoked. */
export async function readWatcherLinks(ctx: AccountsContext, account: Account): Promise<{ links: WatcherLink[] }> {
  const now = ctx.now();
  const links = await watcherLinksOf(ctx.db, account.id);
  const own: WatcherLink[] = account.observer_key
    ? [
        {
          id: 'default',
          name: DEFAULT_LINK_NAME,
          scope: 'payouts',
          key: account.observer_key,
          default: true,
          created_at: null,
          expires_at: null,
          expired: false,
          last_used_at: account.observer_key_used_at?.toISOString() ?? null,
        },
      ]
    : [];
  return { links: [...own, ...links.map((l) => presentLink(l, now))] };
}

/** POST /v1/user/watchers/create: a new link with its own key; at most MAX_WATCHER_LINKS live ones. */
export async function createWatcherLink(
  ctx: AccountsContext,
  user: User,
  account: Account,
  input: { name: string; scope: WatcherScope; expiresInDays: number | undefined },
): Promise<WatcherLink> {
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    // Two creations at once must not both pass the limit.
    await lockAccount(trx, account.id);
    if ((await countLiveWatcherLinks(trx, account.id, now)) >= MAX_WATCHER_LINKS) {
      throw errors.taken(
        'WATCHER_LINK_LIMIT',
        `An account can have at most ${MAX_WATCHER_LINKS} watcher links. Revoke one to make another.`,
      );
    }
    const link = await insertWatcherLink(trx, {
      accountId: account.id,
      key: randomToken(32),
      name: input.name,
      scope: input.scope,
      createdAt: now,
      expiresAt: input.expiresInDays === undefined ? null : new Date(now.getTime() + input.expiresInDays * DAY_MS),
    });
    await logEvent(trx, now, {
      userId: user.id,
      accountId: account.id,
      name: 'watcher_link_created',
      value: { link: link.id.toString(), name: link.name, scope: link.scope, expires_at: link.expires_at },
    });
    return presentLink(link, now);
  });
}

/** POST /v1/user/watchers/revoke: the link stops working at once. */
export async function revokeWatcher(ctx: AccountsContext, user: User, account: Account, id: string): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await revokeWatcherLink(trx, account.id, BigInt(id), now))) throw errors.notFound('Link not found');
    await logEvent(trx, now, {
      userId: user.id,
      accountId: account.id,
      name: 'watcher_link_revoked',
      value: { link: id },
    });
  });
}
