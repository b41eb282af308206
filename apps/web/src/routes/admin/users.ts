import type { AdminUser } from '@lodestone/contract';
import { type PageWindow, pageOf } from '@lodestone/domain';

/** Rows per page of the users list (docs/website.md, Lists, refresh and copying). */
export const USERS_PAGE_SIZE = 10;

export const USERS_SEARCH_PLACEHOLDER = 'Search by email or username (comma separated)';

/**
 * The search box's terms (docs/admin.md, The screens): split on commas, trimmed, lower-cased, empty ones dropped.
 * "Alice, ,BOB " → ["alice", "bob"].
 */
export function searchTerms(input: string): string[] {
  return input
    .split(',')
    .map((term) => term.trim().toLowerCase())
    .filter((term) => term !== '');
}

/** A user matches when any term is contained in the e-mail or in any username; no terms match everyone. */
export function matchesTerms(user: Pick<AdminUser, 'email' | 'usernames'>, terms: readonly string[]): boolean {
  if (terms.length === 0) return true;
  const email = user.email.toLowerCase();
  const usernames = user.usernames.map((u) => u.toLowerCase());
  return terms.some((term) => email.includes(term) || usernames.some((name) => name.includes(term)));
}

/** The users the search box keeps, in the server's order. */
export function filterUsers<T extends Pick<AdminUser, 'email' | 'usernames'>>(users: readonly T[], input: string): T[] {
  const terms = searchTerms(input);
  return users.filter((user) => matchesTerms(user, terms));
}

/** One page of the filtered list (pages start at 1 and are clamped, docs/website.md, Lists, refresh and copying). */
export function usersPage<T>(users: readonly T[], page: number): { rows: T[]; window: PageWindow } {
  return pageOf(users, USERS_PAGE_SIZE, page);
}

/** "2026-05-03 14:07 UTC", or "Never" for a user who never logged in themselves. */
export function formatLastLogin(iso: string | null): string {
  if (iso === null) return 'Never';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
