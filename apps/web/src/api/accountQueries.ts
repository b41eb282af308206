import { type AlgorithmKey, FIRST_WORKERS_PAGE, parseGroupFilter } from '@lodestone/domain';
import { type QueryKey, useQuery } from '@tanstack/react-query';
import {
  getAccounts,
  getHashrateAlerts,
  getRedirectConfig,
  getReferrals,
  getSessions,
  getTelegram,
  getUserConfig,
  getWatcherLinks,
} from './account';
import { getWorkersPage } from './dashboard';
import { type ReadOptions, useRead } from './queries';
import { queryKeys } from './queryKeys';

/** The logged-in user's data for the account screens; all under USER_QUERY_ROOT (dropped on login/logout). */

/** Asked again each time a screen mounts: a setting is shown as the server holds it, not as read up to 10 s ago. */
const fresh = { staleTime: 0 } as const;

/** A read of one of the user's mining accounts, not asked while there is none (`null`: none chosen, or none yet). */
export function useAccountRead<T>(
  account: string | null,
  key: (account: string) => QueryKey,
  get: (account: string, signal: AbortSignal) => Promise<T>,
  options: ReadOptions<T> = {},
) {
  const name = account ?? '';
  return useRead(key(name), (signal) => get(name, signal), { enabled: account !== null, ...options });
}

export function useUserConfig() {
  return useRead(queryKeys.config, getUserConfig, fresh);
}

export function useAccounts() {
  return useQuery({
    queryKey: queryKeys.accounts,
    queryFn: ({ signal }) => getAccounts(signal),
    select: (answer) => answer.accounts.map((a) => a.username),
  });
}

export function useRedirectConfig(account: string) {
  return useAccountRead(account, queryKeys.redirect, getRedirectConfig, fresh);
}

export function useReferrals(account: string | null) {
  return useAccountRead(account, queryKeys.referrals, getReferrals);
}

/** Telegram in Settings; `waitingForLink` polls while a link code is out, so linking shows up by itself. */
export function useTelegram(waitingForLink = false) {
  return useRead(queryKeys.telegram, getTelegram, { ...fresh, refetchInterval: waitingForLink ? 3000 : false });
}

/** Where the user is logged in (Settings, Sessions). */
export function useSessions() {
  return useRead(queryKeys.sessions, getSessions, fresh);
}

/** An account's watcher links (Settings, docs/dashboard.md, Watcher links). */
export function useWatcherLinks(account: string) {
  return useAccountRead(account, queryKeys.watchers, getWatcherLinks, fresh);
}

/** An account's hashrate alert rules (Settings, docs/notifications.md, Hashrate alerts). */
export function useHashrateAlerts(account: string | null) {
  return useAccountRead(account, queryKeys.hashrateAlerts, getHashrateAlerts, fresh);
}

/**
 * The worker groups an account has on an algorithm now (docs/dashboard.md, Worker groups), from the first page of the
 * workers table, which lists every group with its count: the hashrate alert form's suggestions.
 */
export function useWorkerGroups(account: string | null, algorithm: AlgorithmKey) {
  const source = { kind: 'user', account: account ?? '' } as const;
  return useQuery({
    queryKey: queryKeys.workersPage(source, algorithm, FIRST_WORKERS_PAGE),
    queryFn: ({ signal }) => getWorkersPage(source, algorithm, FIRST_WORKERS_PAGE, signal),
    enabled: account !== null,
    select: (page) =>
      page.groups.flatMap((g) => {
        const filter = parseGroupFilter(g.value);
        return filter.kind === 'group' ? [filter.group] : [];
      }),
  });
}
