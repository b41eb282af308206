import { ALGORITHMS, type AlgorithmName } from '@lodestone/domain';
import { ApiError } from '../../api/errors';

/** The Balance screen's texts (spec 8 "Admin"). */
export const BALANCE_MESSAGES = {
  success: 'Balance submitted successfully.',
  unknown: 'Unknown error',
  failed: 'Failed to submit balance.',
  coinsFailed: 'Error loading coins',
} as const;

export interface BalanceValues {
  username: string;
  algorithm: AlgorithmName;
  /** '' until a coin is chosen ('Select coin'). */
  ticker: string;
  /** As typed in the number input. */
  value: string;
  /** Optional (ours): kept on the ledger transaction and in the logs; the server has a default text. */
  reason?: string;
}

/** Spec 5: Send is enabled only when username, algorithm, coin and value are all filled. */
export function canSend(values: BalanceValues): boolean {
  return (
    values.username.trim() !== '' &&
    values.algorithm !== undefined &&
    values.ticker !== '' &&
    values.value.trim() !== ''
  );
}

/**
 * Spec 5: the value is "sent with 8 decimals": "1.5" → "1.50000000", padded as text so nothing is
 * rounded by floating point. A value with more than 8 decimals (or not a plain decimal) is sent as
 * typed, so the server's refusal says what is wrong rather than the page silently rounding money.
 */
export function valueWithEightDecimals(input: string): string {
  const text = input.trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return text;
  const fraction = m[3] ?? '';
  if (fraction.length > 8) return text;
  return `${m[1] === '-' ? '-' : ''}${m[2] || '0'}.${fraction.padEnd(8, '0')}`;
}

/**
 * The fields of POST admin/balance: the algorithm as its index (spec 3 "Balance submission"); the
 * reason only when one was written.
 */
export function balanceFields(values: BalanceValues): BalanceFields {
  const fields: BalanceFields = {
    username: values.username.trim(),
    algorithm: String(ALGORITHMS.findIndex((a) => a.name === values.algorithm)),
    ticker: values.ticker,
    value: valueWithEightDecimals(values.value),
  };
  const reason = values.reason?.trim();
  if (reason) fields.reason = reason;
  return fields;
}

export interface BalanceFields {
  username: string;
  algorithm: string;
  ticker: string;
  value: string;
  reason?: string;
}

/**
 * What a 200 answer means (spec 7: true on success, else a string or an object with `error`).
 * null: success; otherwise the text to show.
 */
export function balanceAnswerError(answer: unknown): string | null {
  if (answer === true) return null;
  if (typeof answer === 'string' && answer.trim() !== '') return answer;
  if (answer !== null && typeof answer === 'object' && 'error' in answer) {
    const { error } = answer as { error: unknown };
    if (typeof error === 'string' && error.trim() !== '') return error;
  }
  return BALANCE_MESSAGES.unknown;
}

/**
 * A failed call: the server's own text when it sent one; 'Unknown error' when it answered without
 * one; 'Failed to submit balance.' when the call itself failed (no answer at all).
 */
export function balanceFailureText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.fromServer) return error.message;
    return error.status === 0 ? BALANCE_MESSAGES.failed : BALANCE_MESSAGES.unknown;
  }
  return BALANCE_MESSAGES.failed;
}
