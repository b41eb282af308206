import {
  couponProblem,
  emailProblem,
  loginPasswordProblem,
  newPasswordProblem,
  usernameProblem,
} from '@lodestone/contract';
import { formOf } from '../../api/formBody';
import { MESSAGES } from './messages';

/**
 * Pure helpers of the login, register, password recovery and coupon forms: reading the query, validating what was typed
 * (first problem wins, as one message under the form), and building the multipart bodies. The forms use `noValidate`,
 * so these checks are the only ones: the messages are fixed and read the same in every browser (docs/website.md, Forms
 * and messages). The field rules (username, e-mail, password, coupon) are the contract's own (accountRules.ts): a form
 * refuses what the server would, in the server's words.
 */

/** A validation result: null when the form may be sent, otherwise the message to show. */
export type Problem = string | null;

/** A query parameter, trimmed; null when absent or blank. */
export function queryParam(search: URLSearchParams, name: string): string | null {
  const value = search.get(name)?.trim();
  return value ? value : null;
}

// ── login ────────────────────────────────────────────────────────────────────────────────────────

export interface LoginValues {
  email: string;
  password: string;
  /** 2FA code, optional (no client check). */
  code: string;
}

/** Login: email and password required, robot check required; the 2FA code is optional. */
export function validateLogin(values: LoginValues, captchaToken: string | null): Problem {
  return emailProblem(values.email) ?? loginPasswordProblem(values.password) ?? robot(captchaToken);
}

export function loginForm(values: LoginValues, captchaToken: string): FormData {
  return formOf({
    email: values.email.trim(),
    password: values.password,
    code: values.code.trim(),
    captchaToken,
  });
}

// ── register ─────────────────────────────────────────────────────────────────────────────────────

export interface RegisterValues {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
  referral: string;
  acceptTerms: boolean;
}

/**
 * The `r` query parameter pre-fills the referral code and locks the field (docs/decisions.md, Account pages (website)).
 */
export function referralFromQuery(search: URLSearchParams): string | null {
  return queryParam(search, 'r');
}

/**
 * Register: username, email and passwords required; passwords equal; terms accepted; robot
 * check. In that order, so the robot check (the slow part) is asked for last.
 */
export function validateRegister(values: RegisterValues, captchaToken: string | null): Problem {
  const fields = usernameProblem(values.username) ?? emailProblem(values.email) ?? newPasswords(values);
  if (fields) return fields;
  if (!values.acceptTerms) return MESSAGES.terms;
  return robot(captchaToken);
}

export function registerForm(values: RegisterValues, captchaToken: string): FormData {
  return formOf({
    username: values.username.trim(),
    email: values.email.trim(),
    password: values.password,
    referral: values.referral.trim(),
    captchaToken,
  });
}

// ── forgot password ──────────────────────────────────────────────────────────────────────────────

export function validateForgotPassword(email: string, captchaToken: string | null): Problem {
  return emailProblem(email) ?? robot(captchaToken);
}

export function forgotPasswordForm(email: string, captchaToken: string): FormData {
  return formOf({ email: email.trim(), captchaToken });
}

// ── reset password (/newPassword?k=…&email=…) ────────────────────────────────────────────────────

export interface ResetLink {
  /** Recovery key (`k`), shown read-only. */
  key: string | null;
  email: string | null;
}

/**
 * The recovery link's parameters. A `+` in an address that was not percent-encoded arrives as a
 * space; an e-mail address never contains a space, so it is turned back into `+`.
 */
export function resetLinkFromQuery(search: URLSearchParams): ResetLink {
  const email = queryParam(search, 'email');
  return { key: queryParam(search, 'k'), email: email ? email.replace(/ /g, '+') : null };
}

export interface ResetValues {
  password: string;
  confirmPassword: string;
}

/** Reset: missing key, missing (or malformed) e-mail, passwords that differ. */
export function validateReset(link: ResetLink, values: ResetValues): Problem {
  if (!link.key) return MESSAGES.invalidRecoveryKey;
  if (!link.email || emailProblem(link.email)) return MESSAGES.invalidMail;
  return newPasswords(values);
}

/** Body of POST password/reset_send (the e-mail goes in the query). */
export function resetForm(key: string, values: ResetValues): FormData {
  return formOf({ password: values.password, recovery_key: key });
}

// ── coupon ───────────────────────────────────────────────────────────────────────────────────────

export function validateCoupon(coupon: string): Problem {
  return couponProblem(coupon);
}

export function couponForm(coupon: string): FormData {
  return formOf({ coupon: coupon.trim() });
}

// ── shared ───────────────────────────────────────────────────────────────────────────────────────

/** A new password and its confirmation: the contract's password rule, then 'Passwords do not match'. */
function newPasswords(values: ResetValues): Problem {
  if (values.confirmPassword === '') return newPasswordProblem(values.password) ?? newPasswordProblem('');
  return (
    newPasswordProblem(values.password) ??
    (values.password === values.confirmPassword ? null : MESSAGES.passwordsMismatch)
  );
}

function robot(captchaToken: string | null): Problem {
  return captchaToken ? null : MESSAGES.robot;
}
