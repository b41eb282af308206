import { z } from 'zod';
import {
  ACCOUNT_NAME_PATTERN,
  COUPON_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  isReservedEmail,
  ACCOUNT_MESSAGES as M,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  parseOfflineWindow,
  redirectTotalProblem,
} from './accountRules.js';
import { algorithmKey, algorithmName } from './common.js';

/**
 * Accounts and sessions (docs/accounts.md). Form calls are multipart (docs/decisions.md, Server and API), so
 * request bodies arrive as strings: the schemas below validate the parsed fields. Answers are JSON.
 * A refused call answers the API's usual error body `{ error, code }` with a 4xx status; the
 * website shows `error` as is.
 */

/** Account names are the `{account}` of the stratum login `{account}.{worker}` (rules in accountRules.ts). */
export const accountName = z.string().trim().regex(ACCOUNT_NAME_PATTERN, M.usernameInvalid);

/** Trimmed and lower-cased, as stored; the shape and the reserved `.invalid` domain as in `emailProblem`. */
export const email = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, M.emailRequired)
  .pipe(z.email({ pattern: EMAIL_PATTERN, error: M.emailInvalid }).max(EMAIL_MAX_LENGTH, M.emailInvalid))
  .refine((address) => !isReservedEmail(address), M.emailInvalid);
/** A new password (`newPasswordProblem`): 10 to 128 characters. */
export const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, M.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, M.passwordTooLong);
/**
 * The current password, asked again before changes a stolen session cookie must not make (2FA on or
 * off, payout addresses). Empty when not sent: the server answers PASSWORD_REQUIRED where it is needed.
 */
export const currentPassword = z.string().max(PASSWORD_MAX_LENGTH, M.passwordTooLong).default('');
/** The current 2FA code where a change may need it (the user has 2FA on); empty when not sent. */
export const currentTotpCode = z.string().trim().max(6, M.totpCode).default('');
export const totpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, M.totpCode);
export const captchaToken = z.string({ error: M.robot }).min(1, M.robot).max(10_000, M.robot);

/** Every successful form call answers this (`{ result: true }`). */
export const resultResponse = z.object({ result: z.literal(true) });

// ── session ────────────────────────────────────────────────────────────────────────────────────

export const registerBody = z.object({
  username: accountName,
  email,
  password,
  /** Referral or discount code; empty when none. */
  referral: z.string().trim().max(64).default(''),
  captchaToken,
});

export const loginBody = z.object({
  email,
  password: z.string().min(1, M.passwordRequired).max(PASSWORD_MAX_LENGTH, M.passwordTooLong),
  /** TOTP code, required when the user has 2FA enabled. */
  code: z.string().trim().max(6).default(''),
  captchaToken,
});

export const accountSummary = z.object({
  username: z.string(),
  /** ISO time the account was created. */
  created_at: z.string(),
});

/** GET /v1/user/info — who is logged in. 401 when nobody is. */
/** GET /v1/user/info for a logged-in user. */
export const userInfo = z.object({
  result: z.literal(true),
  email: z.string(),
  accounts: z.array(accountSummary),
  two_factor_enabled: z.boolean(),
  is_admin: z.boolean(),
  /** True when an admin is logged in as this user (docs/admin.md, Logging in as a user). */
  impersonated: z.boolean(),
});
export type UserInfo = z.infer<typeof userInfo>;

/**
 * GET /v1/user/info: the user, or `{result: false}` when nobody is logged in — an expected answer
 * (every visitor's home page asks), so it is a 200 rather than a 401 the browser would log as an error.
 */
export const userInfoResponse = z.union([userInfo, z.object({ result: z.literal(false) })]);
export type UserInfoResponse = z.infer<typeof userInfoResponse>;

/** POST /v1/user/logout */
export const logoutResponse = z.object({ result: z.boolean() });

// ── settings ───────────────────────────────────────────────────────────────────────────────────

export const accountSettings = z.object({
  username: z.string(),
  api_key: z.string(),
  observer_key: z.string(),
  referral_code: z.string(),
  referral_show: z.boolean(),
  /** Fraction, e.g. 0.25 for 25% off the pool fee. */
  fee_discount: z.number().min(0).max(1),
});
export type AccountSettings = z.infer<typeof accountSettings>;

/** GET /v1/user/config */
export const userConfigResponse = z.object({
  anonymous: z.boolean(),
  send_monthly_reports: z.boolean(),
  offline_worker_notification: z.boolean(),
  /** Minutes without an accepted share before a worker is offline; null: automatic (docs/notifications.md). */
  offline_worker_window_minutes: z.number().int().nullable(),
  telegram_notifications: z.boolean(),
  /** Offline-worker alerts only on Telegram while they go there, not by e-mail too (docs/notifications.md). */
  offline_worker_telegram_only: z.boolean(),
  two_factor_enabled: z.boolean(),
  account_specific: z.array(accountSettings),
});
export type UserConfigResponse = z.infer<typeof userConfigResponse>;

const formBoolean = z.preprocess(
  (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
  z.boolean(),
);

/** POST /v1/user/config/update (multipart; every field optional, absent = unchanged) */
export const userConfigUpdateBody = z.object({
  anonymous: formBoolean.optional(),
  send_monthly_reports: formBoolean.optional(),
  offline_worker_notification: formBoolean.optional(),
  /** Whole minutes (5–10080), or empty (JSON: null) for automatic (accountRules.ts parseOfflineWindow). */
  offline_worker_window_minutes: z
    .union([z.string(), z.number(), z.null()])
    .transform((value, ctx) => {
      const minutes = value === null ? null : parseOfflineWindow(String(value));
      if (minutes === undefined) {
        ctx.addIssue({ code: 'custom', message: M.offlineWindow });
        return z.NEVER;
      }
      return minutes;
    })
    .optional(),
  telegram_notifications: formBoolean.optional(),
  offline_worker_telegram_only: formBoolean.optional(),
});

/** POST /v1/notifications/unsubscribe — the token of an e-mail's unsubscribe link (docs/notifications.md). */
export const unsubscribeBody = z.object({ token: z.string().min(1).max(200) });
export const unsubscribeResponse = z.object({ result: z.literal(true), topic: z.string() });

/** Query of every account call: which of the user's accounts. */
export const accountQuery = z.object({ account_name: accountName });

/** POST /v1/user/new_account */
export const newAccountBody = z.object({ username: accountName });
/** POST /v1/user/remove_account */
export const removeAccountBody = z.object({ account_name: accountName });

/** GET /v1/user/accounts — the account list (our path: docs/decisions.md, Public website calls and public API). */
export const accountListResponse = z.object({ accounts: z.array(accountSummary) });

/** POST /v1/user/keys/regenerate?account_name= — new API or observer key (ours). */
/** One logged-in session of the user (Settings, "Sessions"; docs/accounts.md). */
export const sessionEntry = z.object({
  /** Names the session in a log-out request (the SHA-256 of its cookie, which it cannot be turned back into). */
  id: z.string(),
  /** Browser and system from its User-Agent: "Chrome 120 on Windows 10". */
  device: z.string(),
  /** The network it was last used from, never the full address: "203.0.113.0/24"; null when not known. */
  ip_range: z.string().nullable(),
  /** ISO times: the login, and the last use (kept to the nearest 10 minutes). */
  created_at: z.string(),
  last_seen_at: z.string(),
  /** The session of this request. */
  current: z.boolean(),
  /** A pool admin logged in as the user (admin tools). */
  admin: z.boolean(),
});

/** GET /v1/user/sessions — the user's live sessions, the most recently used first. */
export const sessionsResponse = z.object({ sessions: z.array(sessionEntry) });
export type SessionsResponse = z.infer<typeof sessionsResponse>;

/** POST /v1/user/sessions/logout — ends one of the user's other sessions. */
export const sessionLogoutBody = z.object({
  id: z.string({ error: 'Session is required' }).regex(/^[0-9a-f]{64}$/, 'Session not found'),
});

export const regenerateKeyBody = z.object({ key: z.enum(['api_key', 'observer_key']) });
export const regenerateKeyResponse = z.object({ result: z.literal(true), value: z.string() });

/** GET /v1/user/redirect_config?account_name= — percentages of earnings sent to other accounts. */
export const redirectConfigResponse = z.object({
  redirect_settings: z.array(z.object({ username: z.string(), percentage: z.number().min(0).max(100) })),
});
/** POST /v1/user/redirect_config/update?account_name= — field redirect_settings: JSON map username → percentage. */
export const redirectSettings = z
  .record(accountName, z.number().min(0, M.redirectPercentage).max(100, M.redirectPercentage))
  .refine((m) => redirectTotalProblem(Object.values(m)) === null, M.redirectTotal);
export const redirectConfigUpdateBody = z.object({
  /** A JSON text in a multipart form; JSON API clients may send the map itself. */
  redirect_settings: z.unknown().transform((value, ctx) => {
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', message: 'redirect_settings is required' });
      return z.NEVER;
    }
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'redirect_settings must be JSON' });
      return z.NEVER;
    }
  }),
});

// ── 2FA ────────────────────────────────────────────────────────────────────────────────────────

/** GET /v1/user/config/generate2FA — a new secret, pending until enabled with a valid code. */
export const generate2faResponse = z.object({ result: z.string(), otpauth_url: z.string() });
/**
 * POST /v1/user/config/enable2FA and disable2FA. Both need the current password (a session cookie
 * alone cannot switch 2FA on or off); `code` is the pending secret's code when enabling, the active
 * secret's when disabling.
 */
export const twoFactorBody = z.object({ password: currentPassword, code: totpCode });
/** GET /v1/2fa/:secret — PNG QR code of the otpauth URL; only for the logged-in user's pending secret. */
export const twoFactorQrParams = z.object({ secret: z.string().regex(/^[A-Z2-7]{16,128}$/, 'Unknown secret') });

// ── recovery ───────────────────────────────────────────────────────────────────────────────────

/** POST /v1/password/reset — always the same answer, whether the address is registered or not. */
export const passwordResetBody = z.object({ email, captchaToken });
/** POST /v1/password/reset_send?email= */
export const passwordResetSendQuery = z.object({ email });
export const passwordResetSendBody = z.object({
  password,
  recovery_key: z.string().min(1, M.recoveryKey).max(200, M.recoveryKey),
});

// ── referrals, coupons ─────────────────────────────────────────────────────────────────────────

/** GET /v1/user/referrals?account_name= */
export const referralsResponse = z.object({
  referral_count: z.number().int(),
  /** BTC earned from referrals, as a decimal string. */
  revenue: z.string(),
  hashrates: z.array(z.object({ algorithm: algorithmKey, value: z.number(), units: z.string() })),
  referals: z.array(
    z.object({
      username: z.string(),
      revenue: z.string(),
      hashrates: z.array(z.object({ algorithm: algorithmKey, hashrate: z.number(), units: z.string() })),
    }),
  ),
});
export type ReferralsResponse = z.infer<typeof referralsResponse>;

/** POST /v1/user/coupon?account_name= */
export const couponBody = z.object({ coupon: z.string().trim().min(1, M.couponRequired).max(COUPON_MAX_LENGTH) });
/** GET /v1/user/set_referral?code= — records where a visitor came from (landing routes). */
export const setReferralQuery = z.object({
  code: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9_-]{1,32}$/, 'Unknown referral source'),
});

/** GET /v1/user/mostUsedAlgo?account_name= */
export const mostUsedAlgoResponse = z.object({ algorithm: algorithmName });

/** GET /v1/captcha/challenge — a self-hosted proof-of-work challenge (ALTCHA), no third party. */
export const captchaChallengeResponse = z.object({
  algorithm: z.string(),
  challenge: z.string(),
  maxnumber: z.number().optional(),
  salt: z.string(),
  signature: z.string(),
});
export type CaptchaChallengeResponse = z.infer<typeof captchaChallengeResponse>;

/**
 * GET /v1/user/telegram — Telegram in Settings (docs/notifications.md, "Telegram"): whether the pool
 * has a bot, its @username, and the user's linked chat.
 */
export const telegramStatusResponse = z.object({
  /** The pool has a bot (its jobs role has reached it with TELEGRAM_BOT_TOKEN); false: no linking offered. */
  available: z.boolean(),
  /** The jobs role reached the bot in the last 10 minutes: links can be made (and messages go out). */
  reachable: z.boolean(),
  /** Null until the jobs role has reached the bot. */
  bot_username: z.string().nullable(),
  linked: z.boolean(),
  /** The linked chat's @username when it has one. */
  telegram_username: z.string().nullable(),
  /** ISO 8601. */
  linked_at: z.string().nullable(),
});
export type TelegramStatusResponse = z.infer<typeof telegramStatusResponse>;

/** POST /v1/user/telegram/link — a one-time code (15 minutes) and the t.me link that sends it to the bot. */
export const telegramLinkResponse = z.object({
  result: z.literal(true),
  url: z.string(),
  code: z.string(),
  /** ISO 8601. */
  expires_at: z.string(),
});
export type TelegramLinkResponse = z.infer<typeof telegramLinkResponse>;
