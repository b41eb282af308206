import { MESSAGES } from './messages';

/**
 * Pure helpers of the login, register, password recovery and coupon forms: reading the query,
 * validating what was typed (first problem wins, as one message under the form), and building the
 * multipart bodies of spec 7. The forms use `noValidate`, so these checks are the only ones: the
 * messages are the spec's and read the same in every browser.
 */

/** A validation result: null when the form may be sent, otherwise the message to show. */
export type Problem = string | null;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkEmail(email: string): Problem {
  const trimmed = email.trim();
  if (trimmed === '') return MESSAGES.emailRequired;
  return EMAIL.test(trimmed) ? null : MESSAGES.emailInvalid;
}

/** A query parameter, trimmed; null when absent or blank. */
export function queryParam(search: URLSearchParams, name: string): string | null {
  const value = search.get(name)?.trim();
  return value ? value : null;
}

// ── login ────────────────────────────────────────────────────────────────────────────────────────

export interface LoginValues {
  email: string;
  password: string;
  /** 2FA code, optional (spec 5: no client check). */
  code: string;
}

/** Spec 5 "Login": email and password required, robot check required; the 2FA code is optional. */
export function validateLogin(values: LoginValues, captchaToken: string | null): Problem {
  return checkEmail(values.email) ?? (values.password === '' ? MESSAGES.passwordRequired : null) ?? robot(captchaToken);
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

/** The `r` query parameter pre-fills the referral code and locks the field (spec "Register"). */
export function referralFromQuery(search: URLSearchParams): string | null {
  return queryParam(search, 'r');
}

/**
 * Spec 5 "Register": username, email and passwords required; passwords equal; terms accepted; robot
 * check. In that order, so the robot check (the slow part) is asked for last.
 */
export function validateRegister(values: RegisterValues, captchaToken: string | null): Problem {
  if (values.username.trim() === '') return MESSAGES.usernameRequired;
  const email = checkEmail(values.email);
  if (email) return email;
  if (values.password === '' || values.confirmPassword === '') return MESSAGES.passwordRequired;
  if (values.password !== values.confirmPassword) return MESSAGES.passwordsMismatch;
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
  return checkEmail(email) ?? robot(captchaToken);
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

/** Spec 5 "Reset": missing key, missing (or malformed) e-mail, passwords that differ. */
export function validateReset(link: ResetLink, values: ResetValues): Problem {
  if (!link.key) return MESSAGES.invalidRecoveryKey;
  if (!link.email || !EMAIL.test(link.email)) return MESSAGES.invalidMail;
  if (values.password === '' || values.confirmPassword === '') return MESSAGES.passwordRequired;
  if (values.password !== values.confirmPassword) return MESSAGES.passwordsMismatch;
  return null;
}

/** Body of POST password/reset_send (the e-mail goes in the query). */
export function resetForm(key: string, values: ResetValues): FormData {
  return formOf({ password: values.password, recovery_key: key });
}

// ── coupon ───────────────────────────────────────────────────────────────────────────────────────

export function validateCoupon(coupon: string): Problem {
  return coupon.trim() === '' ? MESSAGES.couponRequired : null;
}

export function couponForm(coupon: string): FormData {
  return formOf({ coupon: coupon.trim() });
}

// ── shared ───────────────────────────────────────────────────────────────────────────────────────

function robot(captchaToken: string | null): Problem {
  return captchaToken ? null : MESSAGES.robot;
}

export function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}
