import { type Executor, liveAccountNameExists } from '@lodestone/db';

export interface AuthorizerOptions {
  /** How long a "this account may mine" answer is remembered (default 60 s). */
  allowTtlMs?: number;
  /** How long a refusal is remembered (default 10 s), so a miner retrying fast costs one query. */
  denyTtlMs?: number;
  /** Names remembered at most (the oldest are forgotten first). */
  maxEntries?: number;
  now?: () => number;
}

/**
 * The stratum `authorize` hook: only live (not removed) accounts may mine, by their exact name.
 * Answers are cached briefly, so a fleet of reconnecting workers costs a query per name per minute;
 * a removed account is refused to new connections within `allowTtlMs`.
 */
export function accountAuthorizer(
  db: Executor,
  options: AuthorizerOptions = {},
): (account: string) => Promise<boolean> {
  const allowTtl = options.allowTtlMs ?? 60_000;
  const denyTtl = options.denyTtlMs ?? 10_000;
  const maxEntries = options.maxEntries ?? 100_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { allowed: boolean; until: number }>();
  return async (account) => {
    const hit = cache.get(account);
    if (hit && hit.until > now()) return hit.allowed;
    let allowed: boolean;
    try {
      allowed = await liveAccountNameExists(db, account);
    } catch (error) {
      // The database is out of reach (restarting, a network cut): a miner it allowed before logs in
      // again as before, so a reconnect during the outage does not cost the shares it goes on finding.
      if (hit?.allowed) return true;
      throw error;
    }
    cache.delete(account);
    if (cache.size >= maxEntries) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(account, { allowed, until: now() + (allowed ? allowTtl : denyTtl) });
    return allowed;
  };
}
