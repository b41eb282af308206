import { setIsLoggedIn } from '../state/hooks';
import { call, callResult, routeUrl } from './client';
import { ApiError } from './errors';
import { formOf } from './formBody';

/**
 * The account and session calls (docs/accounts.md) used by the account screens. Form
 * bodies are multipart FormData, built by the pages' pure helpers. A failed call throws an ApiError;
 * a 401 has already cleared the logged-in flag and gone to /login (client.ts).
 */
export type KeyKind = 'api_key' | 'observer_key';

/** POST user/login (email, password, code, captchaToken). Success sets the logged-in flag. */
export async function login(form: FormData) {
  const answer = await callResult('userLogin', { form });
  setIsLoggedIn(true);
  return answer;
}

/** POST user/register (username, email, password, referral, captchaToken). Success sets the logged-in flag. */
export async function register(form: FormData) {
  const answer = await callResult('userRegister', { form });
  setIsLoggedIn(true);
  return answer;
}

/** POST password/reset (email, captchaToken). */
export function requestPasswordReset(form: FormData) {
  return callResult('passwordReset', { form });
}

/** POST password/reset_send?email= (password, recovery_key). */
export function resetPassword(email: string, form: FormData) {
  return callResult('passwordResetSend', { query: { email }, form });
}

export function getUserConfig(signal?: AbortSignal) {
  return call('userConfig', { signal });
}

/**
 * POST user/config/update (anonymous, send_monthly_reports, offline_worker_notification,
 * offline_worker_window_minutes, telegram_notifications, offline_worker_telegram_only).
 */
export function updateUserConfig(form: FormData) {
  return callResult('userConfigUpdate', { form });
}

export function getAccounts(signal?: AbortSignal) {
  return call('userAccounts', { signal });
}

/** POST user/new_account (username). */
export function createAccount(username: string) {
  return callResult('userNewAccount', { form: formOf({ username }) });
}

/** POST user/remove_account (account_name). */
export function removeAccount(accountName: string) {
  return callResult('userRemoveAccount', { form: formOf({ account_name: accountName }) });
}

/** POST user/keys/regenerate?account_name= (key) → the new key. */
export function regenerateKey(accountName: string, key: KeyKind) {
  return callResult('userKeysRegenerate', { query: { account_name: accountName }, form: formOf({ key }) });
}

export function getRedirectConfig(accountName: string, signal?: AbortSignal) {
  return call('userRedirectConfig', { query: { account_name: accountName }, signal });
}

/** POST user/redirect_config/update?account_name= (redirect_settings: JSON map username → percentage). */
export function updateRedirectConfig(accountName: string, form: FormData) {
  return callResult('userRedirectConfigUpdate', { query: { account_name: accountName }, form });
}

export function getReferrals(accountName: string, signal?: AbortSignal) {
  return call('userReferrals', { query: { account_name: accountName }, signal });
}

/** POST user/coupon?account_name= (coupon). */
export function redeemCoupon(accountName: string, form: FormData) {
  return callResult('userCoupon', { query: { account_name: accountName }, form });
}

/** GET user/config/generate2FA → a new pending secret (`result`) and its otpauth URL. */
export function generate2fa() {
  return call('userGenerate2fa');
}

/**
 * POST user/config/enable2FA or disable2FA (password, code): both need the current password; the
 * code is the new secret's when enabling, the authenticator's current one when disabling.
 */
export function setTwoFactor(enable: boolean, form: FormData) {
  return callResult(enable ? 'userEnable2fa' : 'userDisable2fa', { form });
}

/** The QR image of a 2FA secret, for an <img src>. */
export function twoFactorQrUrl(secret: string): string {
  return routeUrl('twoFactorQr', { params: { secret } });
}

export function getMostUsedAlgo(accountName: string, signal?: AbortSignal) {
  return call('userMostUsedAlgo', { query: { account_name: accountName }, signal });
}

/** The ALTCHA widget fetches its proof-of-work challenge here. */
export const CAPTCHA_CHALLENGE_URL = routeUrl('captchaChallenge');

/** POST notifications/unsubscribe (token of an e-mail's unsubscribe link; no session needed). */
export function unsubscribe(token: string) {
  return call('notificationsUnsubscribe', { form: formOf({ token }) });
}

/** GET user/telegram: whether the pool offers Telegram, and the user's linked chat. */
export function getTelegram(signal?: AbortSignal) {
  return call('userTelegram', { signal });
}

/** POST user/telegram/link: a one-time code and the t.me link that sends it to the bot. */
export function createTelegramLink() {
  return call('userTelegramLink', {});
}

/** POST user/telegram/unlink. */
export function unlinkTelegram() {
  return callResult('userTelegramUnlink', {});
}

/** GET user/sessions: the user's live sessions, the most recently used first (docs/accounts.md, Sessions). */
export function getSessions(signal?: AbortSignal) {
  return call('userSessions', { signal });
}

/**
 * POST user/sessions/logout (id): ends another of the user's sessions. One that has ended already (404: logged out
 * elsewhere, or expired) is no failure here: either way it is gone.
 */
export async function logOutSession(id: string): Promise<void> {
  try {
    await callResult('userSessionLogout', { form: formOf({ id }) });
  } catch (failure) {
    if (!(failure instanceof ApiError && failure.status === 404)) throw failure;
  }
}

/** GET user/watchers?account_name=: the account's watcher links, its default link first (docs/dashboard.md, Watcher links). */
export function getWatcherLinks(accountName: string, signal?: AbortSignal) {
  return call('userWatchers', { query: { account_name: accountName }, signal });
}

/** POST user/watchers/create?account_name= (name, scope, expires_in_days: empty for never) → the new link. */
export function createWatcherLink(accountName: string, form: FormData) {
  return callResult('userWatcherCreate', { query: { account_name: accountName }, form });
}

/** POST user/watchers/revoke?account_name= (id): the link stops working at once. */
export function revokeWatcherLink(accountName: string, id: string) {
  return callResult('userWatcherRevoke', { query: { account_name: accountName }, form: formOf({ id }) });
}

/** GET user/hashrate_alerts?account_name=: the account's hashrate alert rules, oldest first (docs/notifications.md). */
export function getHashrateAlerts(accountName: string, signal?: AbortSignal) {
  return call('userHashrateAlerts', { query: { account_name: accountName }, signal });
}

/**
 * POST user/hashrate_alerts/create?account_name= (algorithm, kind, threshold_hashrate or threshold_percent, or
 * min_workers; group: empty for the whole account) → the new rule.
 */
export function createHashrateAlert(accountName: string, form: FormData) {
  return callResult('userHashrateAlertCreate', { query: { account_name: accountName }, form });
}

/** POST user/hashrate_alerts/delete?account_name= (id). */
export function deleteHashrateAlert(accountName: string, id: string) {
  return callResult('userHashrateAlertDelete', { query: { account_name: accountName }, form: formOf({ id }) });
}
