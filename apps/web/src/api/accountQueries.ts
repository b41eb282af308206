import type { AlgorithmKey } from '@lodestone/domain';
import { useQuery } from '@tanstack/react-query';
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
import { getWorkers } from './dashboard';
import { queryKeys } from './queryKeys';

/** The logged-in user's data for the account screens; all under USER_QUERY_ROOT (dropped on login/logout). */

export function useUserConfig() {
  return useQuery({
    queryKey: queryKeys.config,
    queryFn: ({ signal }) => getUserConfig(signal),
    staleTime: 0,
  });
}

export function useAccounts() {
  return useQuery({
    queryKey: queryKeys.accounts,
    queryFn: ({ signal }) => getAccounts(signal),
    select: (answer) => answer.accounts.map((a) => a.username),
  });
}

export function useRedirectConfig(account: string) {
  return useQuery({
    queryKey: queryKeys.redirect(account),
    queryFn: ({ signal }) => getRedirectConfig(account, signal),
    staleTime: 0,
  });
}

export function useReferrals(account: string | null) {
  return useQuery({
    queryKey: queryKeys.referrals(account ?? ''),
    queryFn: ({ signal }) => getReferrals(account ?? '', signal),
    enabled: account !== null,
  });
}

/** Telegram in Settings; `waitingForLink` polls while a link code is out, so linking shows up by itself. */
export function useTelegram(waitingForLink = false) {
  return useQuery({
    queryKey: queryKeys.telegram,
    queryFn: ({ signal }) => getTelegram(signal),
    staleTime: 0,
    refetchInterval: waitingForLink ? 3000 : false,
  });
}

/** Where the user is logged in (Settings, Sessions). */
export function useSessions() {
  return useQuery({
    queryKey: queryKeys.sessions,
    queryFn: ({ signal }) => getSessions(signal),
    staleTime: 0,
  });
}

/** An account's watcher links (Settings, docs/dashboard.md, Watcher links). */
export function useWatcherLinks(account: string) {
  return useQuery({
    queryKey: queryKeys.watchers(account),
    queryFn: ({ signal }) => getWatcherLinks(account, signal),
    staleTime: 0,
  });
}

/** An account's hashrate alert rules (Settings, docs/notifications.md, Hashrate alerts). */
export function useHashrateAlerts(account: string | null) {
  return useQuery({
    queryKey: queryKeys.hashrateAlerts(account ?? ''),
    queryFn: ({ signal }) => getHashrateAlerts(account ?? '', signal),
    enabled: account !== null,
    staleTime: 0,
  });
}

/**
 * The worker groups an account has on an algorithm now (docs/dashboard.md, Worker groups), from the dashboard's
 * workers read under its key: the hashrate alert form's suggestions.
 */
export function useWorkerGroups(account: string | null, algorithm: AlgorithmKey) {
  return useQuery({
    queryKey: queryKeys.workers({ kind: 'user', account: account ?? '' }, algorithm),
    queryFn: ({ signal }) => getWorkers({ kind: 'user', account: account ?? '' }, algorithm, signal),
    enabled: account !== null,
    select: (workers) => workers.map((w) => w.group),
  });
}
