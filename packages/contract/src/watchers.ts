import { z } from 'zod';

/*
 * Watcher links (docs/dashboard.md, "Watcher links"): several read-only links to one account's
 * dashboard, each with a name, a scope, an optional expiry, its last use and revocation. The
 * account's own observer key is listed first as the default link (it shows everything and never
 * expires; Settings replaces it). Managed at /v1/user/watchers… by the account's owner.
 */

/** What a link shows, each scope including the ones before it. */
export const WATCHER_SCOPES = ['mining', 'revenue', 'payouts'] as const;
export const watcherScope = z.enum(WATCHER_SCOPES, { error: 'Choose what the link shows' });

/** Live links an account may have beside its default one. */
export const MAX_WATCHER_LINKS = 20;
/** The longest expiry a link can be given, in days. */
export const MAX_WATCHER_DAYS = 365;

export const watcherLink = z.object({
  /** The link's id, `default` for the account's own observer key. */
  id: z.string(),
  name: z.string(),
  scope: watcherScope,
  /** The observer key the link carries (the dashboard's /observer?key=…). */
  key: z.string(),
  default: z.boolean(),
  /** ISO times; null where not known (the default link's creation) or not set (no expiry, never used). */
  created_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  /** The expiry has passed: the link opens nothing (it is listed until revoked). */
  expired: z.boolean(),
  last_used_at: z.string().nullable(),
});
export type WatcherLink = z.infer<typeof watcherLink>;

/** GET /v1/user/watchers?account_name= — the default link first, then the others, oldest first. */
export const watcherLinksResponse = z.object({ links: z.array(watcherLink) });

/** POST /v1/user/watchers/create?account_name= */
export const watcherCreateBody = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(64, 'Name is at most 64 characters'),
  scope: watcherScope,
  /** Days until it stops working; absent or empty: never. */
  expires_in_days: z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: 'Expiry must be a whole number of days' })
      .int('Expiry must be a whole number of days')
      .min(1, 'Expiry must be at least 1 day')
      .max(MAX_WATCHER_DAYS, `Expiry must be at most ${MAX_WATCHER_DAYS} days`)
      .optional(),
  ),
});
export const watcherCreateResponse = z.object({ result: z.literal(true), link: watcherLink });

/** POST /v1/user/watchers/revoke?account_name= — a link's id (the default link is replaced, not revoked). */
export const watcherRevokeBody = z.object({
  id: z.string({ error: 'Link is required' }).regex(/^[1-9]\d{0,18}$/, 'Link not found'),
});
