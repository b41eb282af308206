import type {
  accountListResponse,
  generate2faResponse,
  mostUsedAlgoResponse,
  ReferralsResponse,
  ResultResponse,
  redirectConfigResponse,
  regenerateKeyResponse,
  UserConfigResponse,
} from '@lodestone/contract';
import { setIsLoggedIn } from '../state/hooks';
import { apiUrl, request, requestResult } from './client';

/**
 * The account and session calls (spec 7 "Account and session") used by the account screens. Form
 * bodies are multipart FormData, built by the pages' pure helpers. A failed call throws an ApiError;
 * a 401 has already cleared the logged-in flag and gone to /login (client.ts).
 */
type Output<S extends { _output: unknown }> = S['_output'];
export type AccountListResponse = Output<typeof accountListResponse>;
export type RegenerateKeyResponse = Output<typeof regenerateKeyResponse>;
export type RedirectConfigResponse = Output<typeof redirectConfigResponse>;
export type Generate2faResponse = Output<typeof generate2faResponse>;
export type MostUsedAlgoResponse = Output<typeof mostUsedAlgoResponse>;
export type KeyKind = 'api_key' | 'observer_key';

const post = (form: FormData, query?: Record<string, string>) => ({ method: 'POST' as const, form, query });

/** POST user/login (email, password, code, captchaToken). Success sets the logged-in flag. */
export async function login(form: FormData): Promise<ResultResponse> {
  const answer = await requestResult<ResultResponse>('/user/login', post(form));
  setIsLoggedIn(true);
  return answer;
}

/** POST user/register (username, email, password, referral, captchaToken). Success sets the logged-in flag. */
export async function register(form: FormData): Promise<ResultResponse> {
  const answer = await requestResult<ResultResponse>('/user/register', post(form));
  setIsLoggedIn(true);
  return answer;
}

/** POST password/reset (email, captchaToken). */
export function requestPasswordReset(form: FormData): Promise<ResultResponse> {
  return requestResult('/password/reset', post(form));
}

/** POST password/reset_send?email= (password, recovery_key). */
export function resetPassword(email: string, form: FormData): Promise<ResultResponse> {
  return requestResult('/password/reset_send', post(form, { email }));
}

export function getUserConfig(signal?: AbortSignal): Promise<UserConfigResponse> {
  return request('/user/config', { signal });
}

/** POST user/config/update (anonymous, send_monthly_reports, offline_worker_notification, telegram_notifications). */
export function updateUserConfig(form: FormData): Promise<ResultResponse> {
  return requestResult('/user/config/update', post(form));
}

export function getAccounts(signal?: AbortSignal): Promise<AccountListResponse> {
  return request('/user/accounts', { signal });
}

/** POST user/new_account (username). */
export function createAccount(username: string): Promise<ResultResponse> {
  const form = new FormData();
  form.set('username', username);
  return requestResult('/user/new_account', post(form));
}

/** POST user/remove_account (account_name). */
export function removeAccount(accountName: string): Promise<ResultResponse> {
  const form = new FormData();
  form.set('account_name', accountName);
  return requestResult('/user/remove_account', post(form));
}

/** POST user/keys/regenerate?account_name= (key) → the new key. */
export function regenerateKey(accountName: string, key: KeyKind): Promise<RegenerateKeyResponse> {
  const form = new FormData();
  form.set('key', key);
  return requestResult('/user/keys/regenerate', post(form, { account_name: accountName }));
}

export function getRedirectConfig(accountName: string, signal?: AbortSignal): Promise<RedirectConfigResponse> {
  return request('/user/redirect_config', { query: { account_name: accountName }, signal });
}

/** POST user/redirect_config/update?account_name= (redirect_settings: JSON map username → percentage). */
export function updateRedirectConfig(accountName: string, form: FormData): Promise<ResultResponse> {
  return requestResult('/user/redirect_config/update', post(form, { account_name: accountName }));
}

export function getReferrals(accountName: string, signal?: AbortSignal): Promise<ReferralsResponse> {
  return request('/user/referrals', { query: { account_name: accountName }, signal });
}

/** POST user/coupon?account_name= (coupon). */
export function redeemCoupon(accountName: string, form: FormData): Promise<ResultResponse> {
  return requestResult('/user/coupon', post(form, { account_name: accountName }));
}

/** GET user/config/generate2FA → a new pending secret (`result`) and its otpauth URL. */
export function generate2fa(): Promise<Generate2faResponse> {
  return request('/user/config/generate2FA');
}

/**
 * POST user/config/enable2FA or disable2FA (password, code): both need the current password; the
 * code is the new secret's when enabling, the authenticator's current one when disabling.
 */
export function setTwoFactor(enable: boolean, form: FormData): Promise<ResultResponse> {
  return requestResult(enable ? '/user/config/enable2FA' : '/user/config/disable2FA', post(form));
}

/** The QR image of a 2FA secret (GET /v1/2fa/{secret}), for an <img src>. */
export function twoFactorQrUrl(secret: string): string {
  return apiUrl(`/2fa/${encodeURIComponent(secret)}`);
}

export function getMostUsedAlgo(accountName: string, signal?: AbortSignal): Promise<MostUsedAlgoResponse> {
  return request('/user/mostUsedAlgo', { query: { account_name: accountName }, signal });
}

/** The ALTCHA widget fetches its proof-of-work challenge here (GET /v1/captcha/challenge). */
export const CAPTCHA_CHALLENGE_URL = apiUrl('/captcha/challenge');
