import type { UserInfo } from '@lodestone/contract';

/**
 * Who may see the /admin screens (docs/admin.md, The guard): the session
 * check decides. Visitors go to /login, logged-in users who are not admins go to the home page —
 * the same as for any unknown path, so the screens do not reveal themselves — and only admins see
 * them (the server checks again on every call). A session in which an admin is logged in as a user
 * is that user's, so it is sent away too.
 */
export type AdminAccess = 'checking' | 'failed' | 'visitor' | 'not-admin' | 'admin';

export function adminAccess(info: {
  data: UserInfo | null | undefined;
  isPending: boolean;
  isError: boolean;
}): AdminAccess {
  if (info.data === null) return 'visitor';
  if (info.data) return info.data.is_admin && !info.data.impersonated ? 'admin' : 'not-admin';
  if (info.isPending) return 'checking';
  return info.isError ? 'failed' : 'checking';
}

/** Where each kind of visitor is sent; null: stay. */
export function adminRedirect(access: AdminAccess): string | null {
  if (access === 'visitor') return '/login';
  if (access === 'not-admin') return '/';
  return null;
}
