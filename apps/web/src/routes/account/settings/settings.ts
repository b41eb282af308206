import {
  offlineWindowProblem,
  redirectPercentageProblem,
  redirectTotalProblem,
  type UserConfigResponse,
  usernameProblem,
  type WatcherLink,
} from '@lodestone/contract';
import { formOf } from '../../../api/formBody';
import { formatDateTime } from '../../../lib/dates';

/**
 * Pure helpers of the Settings screen: the toggles (with `anonymous` shown inverted), the redirect
 * rows, the observer link, the watcher links and the fee discount.
 */

/**
 * The toggles as the page shows them. `showInPublicLists` is the inverse of `anonymous` (docs/decisions.md, Account
 * pages (website)).
 */
export interface Toggles {
  showInPublicLists: boolean;
  sendMonthlyReports: boolean;
  offlineWorkerNotification: boolean;
  /** The offline-worker window in minutes as typed; empty: automatic (docs/notifications.md). */
  offlineWindow: string;
  telegramNotifications: boolean;
  /** Offline-worker alerts only on Telegram while they go there (docs/notifications.md). */
  alertsTelegramOnly: boolean;
}

export function togglesFromConfig(config: UserConfigResponse): Toggles {
  return {
    showInPublicLists: !config.anonymous,
    sendMonthlyReports: config.send_monthly_reports,
    offlineWorkerNotification: config.offline_worker_notification,
    offlineWindow: config.offline_worker_window_minutes === null ? '' : String(config.offline_worker_window_minutes),
    telegramNotifications: config.telegram_notifications,
    alertsTelegramOnly: config.offline_worker_telegram_only,
  };
}

/** Why the preferences cannot be saved as they are (the contract's rule, in its words), or null. */
export function preferencesProblem(toggles: Toggles): string | null {
  return offlineWindowProblem(toggles.offlineWindow);
}

/** Body of POST user/config/update: every switch as 'true' / 'false', the window as typed (empty: automatic). */
export function configUpdateForm(toggles: Toggles): FormData {
  return formOf({
    anonymous: String(!toggles.showInPublicLists),
    send_monthly_reports: String(toggles.sendMonthlyReports),
    offline_worker_notification: String(toggles.offlineWorkerNotification),
    offline_worker_window_minutes: toggles.offlineWindow.trim(),
    telegram_notifications: String(toggles.telegramNotifications),
    offline_worker_telegram_only: String(toggles.alertsTelegramOnly),
  });
}

// ── redirect settings ────────────────────────────────────────────────────────────────────────────

/** One row of the redirect modal, as typed. */
export interface RedirectRow {
  username: string;
  percentage: string;
}

export function rowsFromRedirectConfig(settings: readonly { username: string; percentage: number }[]): RedirectRow[] {
  return settings.map((s) => ({ username: s.username, percentage: String(s.percentage) }));
}

export type RedirectPayload =
  | { ok: true; form: FormData; settings: Record<string, number> }
  | { ok: false; error: string };

/**
 * The body of POST user/redirect_config/update: field `redirect_settings`, a JSON map username →
 * percentage. Rows left completely empty are dropped; percentages are 0–100, at most 100 in
 * total: the contract's rules (accountRules.ts), checked here too so the reason can be shown.
 */
export function redirectPayload(rows: readonly RedirectRow[]): RedirectPayload {
  const settings: Record<string, number> = {};
  for (const row of rows) {
    const username = row.username.trim();
    const text = row.percentage.trim();
    if (username === '' && text === '') continue;
    if (username === '') return { ok: false, error: 'Enter an account name on every row.' };
    const name = usernameProblem(username);
    if (name) return { ok: false, error: name };
    const percentage = text === '' ? Number.NaN : Number(text);
    const range = redirectPercentageProblem(percentage);
    if (range) return { ok: false, error: range };
    if (Object.hasOwn(settings, username)) return { ok: false, error: `${username} appears more than once.` };
    settings[username] = percentage;
  }
  const total = redirectTotalProblem(Object.values(settings));
  if (total) return { ok: false, error: total };
  return { ok: true, form: formOf({ redirect_settings: JSON.stringify(settings) }), settings };
}

export function redirectTotal(rows: readonly RedirectRow[]): number {
  return rows.reduce((sum, row) => {
    const value = Number(row.percentage);
    return Number.isFinite(value) && row.percentage.trim() !== '' ? sum + value : sum;
  }, 0);
}

// ── 2FA ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * Body of POST user/config/enable2FA and disable2FA: the current password as typed (passwords are
 * not trimmed) and the 6-digit code, trimmed. No client check: the server says what is wrong.
 */
export function twoFactorForm(password: string, code: string): FormData {
  return formOf({ password, code: code.trim() });
}

/** The look of Settings' lists (sessions, watcher links): a compact table in its panel, without a box of its own. */
export const LIST_TABLE = {
  className: '',
  tableClassName: 'w-full text-left text-sm',
  headClassName:
    'border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500 dark:border-slate-700 dark:text-slate-400',
  headerCellClassName: 'py-2 pr-4',
  cellClassName: 'py-2 pr-4 whitespace-nowrap tabular-nums',
} as const;

// ── per account ──────────────────────────────────────────────────────────────────────────────────

/** The read-only dashboard link of an observer key: `${origin}/dashboard/{observer_key}`. */
export function observerLink(origin: string, observerKey: string): string {
  return `${origin.replace(/\/+$/, '')}/dashboard/${encodeURIComponent(observerKey)}`;
}

/** Fee discount, a fraction, as a whole percent (docs/website.md, Figures): 0.25 → "25%". */
export function formatFeeDiscount(fraction: number): string {
  const percent = Number.isFinite(fraction) ? Math.round(fraction * 100) : 0;
  return `${percent}%`;
}

// ── watcher links (docs/dashboard.md, Watcher links) ─────────────────────────────────────────────

/** What a link of each scope shows, in words; each scope includes the ones before it. */
export const WATCHER_SCOPE_TEXT: Record<WatcherLink['scope'], string> = {
  mining: 'Mining only',
  revenue: 'Mining and revenue',
  payouts: 'Everything',
};

/** When a link stops working: its date, "Expired" once that has passed, "Never" without an expiry. */
export function watcherExpiryText(link: Pick<WatcherLink, 'expires_at' | 'expired'>): string {
  if (link.expired) return 'Expired';
  return link.expires_at === null ? 'Never' : formatDateTime(link.expires_at);
}

/** When the link last opened the dashboard or the API, or "Never used". */
export function watcherLastUsedText(link: Pick<WatcherLink, 'last_used_at'>): string {
  return link.last_used_at === null ? 'Never used' : formatDateTime(link.last_used_at);
}

/** The new link as typed. */
export interface WatcherDraft {
  name: string;
  scope: WatcherLink['scope'];
  /** Whole days as typed; empty: never expires. */
  days: string;
}

/** Body of POST user/watchers/create: the name and days as typed (the server trims and checks them), the scope. */
export function watcherCreateForm(draft: WatcherDraft): FormData {
  return formOf({ name: draft.name, scope: draft.scope, expires_in_days: draft.days.trim() });
}
