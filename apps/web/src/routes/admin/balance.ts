import { ADMIN_BALANCE_DECIMALS, ADMIN_BALANCE_MAX_COINS, BALANCE_VALUE_MESSAGES } from '@lodestone/contract';
import { ALGORITHMS, type AlgorithmName } from '@lodestone/domain';
import { ApiError } from '../../api/errors';

/** The Balance screen's texts (docs/admin.md, The screens). */
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

/** Send is enabled only when username, algorithm, coin and value are all filled. */
export function canSend(values: BalanceValues): boolean {
  return (
    values.username.trim() !== '' &&
    values.algorithm !== undefined &&
    values.ticker !== '' &&
    values.value.trim() !== ''
  );
}

const PLAIN_DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** The parts of a plain decimal ("-1.50" → sign "-", whole "1", fraction "5"), trailing zeros dropped. */
function decimalParts(input: string): { negative: boolean; whole: string; fraction: string } | null {
  const m = PLAIN_DECIMAL.exec(input.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  return { negative: m[1] === '-', whole: m[2] || '0', fraction: (m[3] ?? '').replace(/0+$/, '') };
}

/**
 * Why the typed value cannot be sent, in the server's words, or null. Checked before sending: a
 * value with more decimals than the ledger (8) or the coin keeps is blocked here with the bound
 * named, never rounded (it is money) and never sent raw to be refused. Trailing zeros are not
 * precision: 0.100000000 is 0.1.
 */
export function valueProblem(input: string, coin?: { ticker: string; decimals: number }): string | null {
  const parts = decimalParts(input);
  if (!parts) return BALANCE_VALUE_MESSAGES.notNumber;
  const whole = BigInt(parts.whole);
  const max = BigInt(ADMIN_BALANCE_MAX_COINS);
  if (whole > max || (whole === max && parts.fraction !== '')) return BALANCE_VALUE_MESSAGES.tooLarge;
  if (parts.fraction.length > ADMIN_BALANCE_DECIMALS) return BALANCE_VALUE_MESSAGES.decimals;
  if (coin && parts.fraction.length > coin.decimals)
    return BALANCE_VALUE_MESSAGES.coinDecimals(coin.ticker, coin.decimals);
  return null;
}

/**
 * The value is sent with 8 decimals (docs/admin.md, The screens): "1.5" → "1.50000000", padded as text so nothing is
 * rounded by floating point. Text `valueProblem` refuses is returned as typed (it is never sent).
 */
export function valueWithEightDecimals(input: string): string {
  const parts = decimalParts(input);
  if (!parts || parts.fraction.length > 8) return input.trim();
  return `${parts.negative ? '-' : ''}${parts.whole}.${parts.fraction.padEnd(8, '0')}`;
}

/**
 * The fields of POST admin/balance: the algorithm as its index (docs/admin.md, Balance adjustments); the
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
 * What a 200 answer means (true on success, else a string or an object with `error`).
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
