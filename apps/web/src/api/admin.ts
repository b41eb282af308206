import { setIsLoggedIn, setSelectedAccount } from '../state/hooks';
import { call, callResult } from './client';

/**
 * The admin calls (docs/admin.md, Calls), used only by the /admin screens. A visitor's call answers 401
 * and goes to /login (client.ts); the screens never call for a user who is not an admin, since
 * those calls answer 404 by design.
 */
function formOf(fields: Record<string, string | undefined>): { form: FormData } {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.set(key, value);
  return { form };
}

/** GET admin/users: every user; the Users screen searches and pages them itself. */
export function getAdminUsers(signal?: AbortSignal) {
  return call('adminUsers', { signal });
}

/** What the Logs screen searches by: an e-mail, an account, or both (trimmed, non-empty). */
export interface LogFilters {
  email?: string;
  username?: string;
}

/**
 * POST admin/logs/user {email[, username]} when there is an e-mail, else admin/logs/account
 * {username}. The answer is left `unknown`: the screen reads it with its tolerant parser (docs/admin.md, The screens:
 * an array or an object with `items`, values as objects or JSON strings).
 */
export function searchLogs(filters: LogFilters, page: number, signal?: AbortSignal): Promise<unknown> {
  const fields: Record<string, string> = { page: String(page) };
  if (filters.username) fields.username = filters.username;
  if (filters.email) {
    fields.email = filters.email;
    return call('adminLogsUser', { ...formOf(fields), signal });
  }
  return call('adminLogsAccount', { ...formOf(fields), signal });
}

/**
 * POST admin/login {email}: the browser now holds that user's session (the admin's own ended).
 * The logged-in flag stays true; the dashboard's remembered account was the admin's, so it is forgotten.
 */
export async function loginAsUser(email: string) {
  const answer = await callResult('adminLogin', formOf({ email }));
  setIsLoggedIn(true);
  setSelectedAccount(null);
  return answer;
}

/**
 * POST admin/balance: `true` on success (docs/admin.md, Balance adjustments); anything else is returned for the screen
 * to explain.
 */
export function submitBalance(fields: {
  username: string;
  algorithm: string;
  ticker: string;
  value: string;
  reason?: string;
}): Promise<unknown> {
  return call('adminBalance', formOf(fields));
}

/** GET admin/treasury: per coin, what is owed, due, held and short (docs/admin.md, Treasury). */
export function getTreasury(signal?: AbortSignal) {
  return call('adminTreasury', { signal });
}

/** GET /coins: the coin list of the Balance screen's dropdown (its keys are the tickers). */
export function getCoinList(signal?: AbortSignal) {
  return call('coins', { signal });
}
