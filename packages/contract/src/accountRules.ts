/**
 * The rules and messages of the account fields (username, e-mail, password, 2FA code, coupon), as
 * plain functions without zod: the contract's schemas (account.ts) are built from them, and the
 * website's forms import them, so a form refuses exactly what the server would, in the same words,
 * and the website's bundle stays free of zod. The fixed texts of the product are kept word for word;
 * the others are the contract's own (docs/decisions.md, Account pages (website), Form checks).
 */

export const ACCOUNT_MESSAGES = {
  usernameRequired: 'Username is required',
  usernameInvalid: 'Username must be 3 to 32 letters, digits, dashes or underscores',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 10 characters',
  passwordTooLong: 'Password must be at most 128 characters',
  totpCode: 'The 2FA code has 6 digits',
  couponRequired: 'Coupon code is required',
  redirectPercentage: 'Percentages are 0 to 100',
  redirectTotal: 'The percentages add up to more than 100',
  /** The product's fixed text, word for word. */
  robot: 'Please verify you are not a robot.',
  recoveryKey: 'Invalid recovery key',
  offlineWindow: 'Enter whole minutes from 5 to 10080, or leave empty for automatic',
} as const;

/** Account names are the `{account}` of the stratum login `{account}.{worker}`. */
export const ACCOUNT_NAME_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;
/** Server-side password length (ours: docs/decisions.md, Account pages (website)). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;
/** RFC 5321's longest forward path less its angle brackets. */
export const EMAIL_MAX_LENGTH = 254;
export const COUPON_MAX_LENGTH = 64;
/**
 * A practical address shape (dot-separated words before the @, not ending in a dot or an apostrophe;
 * a dotted domain ending in a name of two letters or more): the shape zod's `z.email()` accepts by
 * default (zod 4's `regexes.email`), so the server refuses nothing it accepted before.
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
/^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+.-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** A problem with a field: the message to show, or null when the value is accepted. */
export type FieldProblem = string | null;

export function usernameProblem(input: string): FieldProblem {
  const name = input.trim();
  if (name === '') return ACCOUNT_MESSAGES.usernameRequired;
  return ACCOUNT_NAME_PATTERN.test(name) ? null : ACCOUNT_MESSAGES.usernameInvalid;
}

/**
 * `.invalid` is reserved (RFC 2606) and is where erased users' addresses go (`deleted-N@deleted.invalid`),
 * so nobody can register one and block another user's erasure.
 */
export function isReservedEmail(address: string): boolean {
  return address.trim().toLowerCase().endsWith('.invalid');
}

export function emailProblem(input: string): FieldProblem {
  const address = input.trim();
  if (address === '') return ACCOUNT_MESSAGES.emailRequired;
  if (address.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(address) || isReservedEmail(address)) {
    return ACCOUNT_MESSAGES.emailInvalid;
  }
  return null;
}

/** A new password (register, reset): 10 to 128 characters, as typed (never trimmed). */
export function newPasswordProblem(password: string): FieldProblem {
  if (password === '') return ACCOUNT_MESSAGES.passwordRequired;
  if (password.length < PASSWORD_MIN_LENGTH) return ACCOUNT_MESSAGES.passwordTooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return ACCOUNT_MESSAGES.passwordTooLong;
  return null;
}

/** The password at login: any non-empty text up to the longest a password can be. */
export function loginPasswordProblem(password: string): FieldProblem {
  if (password === '') return ACCOUNT_MESSAGES.passwordRequired;
  return password.length > PASSWORD_MAX_LENGTH ? ACCOUNT_MESSAGES.passwordTooLong : null;
}

export function couponProblem(input: string): FieldProblem {
  return input.trim() === '' ? ACCOUNT_MESSAGES.couponRequired : null;
}

/** One redirect's share of the account's earnings, in percent (0 to 100, docs/accounts.md, Redirects). */
export function redirectPercentageProblem(percentage: number): FieldProblem {
  return Number.isFinite(percentage) && percentage >= 0 && percentage <= 100
    ? null
    : ACCOUNT_MESSAGES.redirectPercentage;
}

/**
 * All redirects of an account together: at most 100%. A hair of tolerance for floating-point sums
 * (33.3 + 33.3 + 33.4); the server checks the exact sum when it stores them.
 */
export function redirectTotalProblem(percentages: readonly number[]): FieldProblem {
  const total = percentages.reduce((sum, p) => sum + p, 0);
  return total <= 100 + 1e-9 ? null : ACCOUNT_MESSAGES.redirectTotal;
}

/**
 * The offline-worker alert window a miner may set (docs/notifications.md, "The window"), in whole
 * minutes; empty means automatic (ten of the worker's own expected share intervals, 10 minutes to
 * 24 hours). Five minutes is the shortest that is not a reconnect; a week the longest that still alerts.
 */
export const OFFLINE_WINDOW_MINUTES_MIN = 5;
export const OFFLINE_WINDOW_MINUTES_MAX = 10_080;

/** The window as typed: null for automatic (empty), whole minutes, or undefined when refused. */
export function parseOfflineWindow(input: string): number | null | undefined {
  const text = input.trim();
  if (text === '') return null;
  if (!/^[0-9]{1,6}$/.test(text)) return undefined;
  const minutes = Number(text);
  return minutes >= OFFLINE_WINDOW_MINUTES_MIN && minutes <= OFFLINE_WINDOW_MINUTES_MAX ? minutes : undefined;
}

export function offlineWindowProblem(input: string): FieldProblem {
  return parseOfflineWindow(input) === undefined ? ACCOUNT_MESSAGES.offlineWindow : null;
}
