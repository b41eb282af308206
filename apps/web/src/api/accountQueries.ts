import { useQuery } from '@tanstack/react-query';
import { getAccounts, getRedirectConfig, getReferrals, getUserConfig } from './account';
import { USER_QUERY_ROOT } from './queries';

/** The logged-in user's data for the account screens; all under USER_QUERY_ROOT (dropped on login/logout). */
export const accountQueryKeys = {
  config: [...USER_QUERY_ROOT, 'config'] as const,
  accounts: [...USER_QUERY_ROOT, 'accounts'] as const,
  redirect: (account: string) => [...USER_QUERY_ROOT, 'redirect', account] as const,
  referrals: (account: string) => [...USER_QUERY_ROOT, 'referrals', account] as const,
};

export function useUserConfig() {
  return useQuery({
    queryKey: accountQueryKeys.config,
    queryFn: ({ signal }) => getUserConfig(signal),
    staleTime: 0,
  });
}

export function useAccounts() {
  return useQuery({
    queryKey: accountQueryKeys.accounts,
    queryFn: ({ signal }) => getAccounts(signal),
    select: (answer) => answer.accounts.map((a) => a.username),
  });
}

export function useRedirectConfig(account: string) {
  return useQuery({
    queryKey: accountQueryKeys.redirect(account),
    queryFn: ({ signal }) => getRedirectConfig(account, signal),
    staleTime: 0,
  });
}

export function useReferrals(account: string | null) {
  return useQuery({
    queryKey: accountQueryKeys.referrals(account ?? ''),
    queryFn: ({ signal }) => getReferrals(account ?? '', signal),
    enabled: account !== null,
  });
}
