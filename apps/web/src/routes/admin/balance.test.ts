import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import {
  BALANCE_MESSAGES,
  balanceAnswerError,
  balanceFailureText,
  balanceFields,
  canSend,
  valueProblem,
  valueWithEightDecimals,
} from './balance';

const filled = { username: 'miner01', algorithm: 'SCRYPT' as const, ticker: 'LTC', value: '1.5' };

describe('balance form', () => {
  it('enables Send only when username, algorithm, coin and value are filled', () => {
    expect(canSend(filled)).toBe(true);
    expect(canSend({ ...filled, username: '  ' })).toBe(false);
    expect(canSend({ ...filled, ticker: '' })).toBe(false);
    expect(canSend({ ...filled, value: '' })).toBe(false);
  });

  it('blocks a value the server would refuse, naming the bound, before sending (never rounding money)', () => {
    expect(valueProblem('0.123456789')).toBe('Value has at most 8 decimals');
    expect(valueProblem('0.000000001', { ticker: 'LTC', decimals: 8 })).toBe('Value has at most 8 decimals');
    expect(valueProblem('0.1234567', { ticker: 'USDC', decimals: 6 })).toBe('USDC has only 6 decimals');
    expect(valueProblem('0.100000000', { ticker: 'USDC', decimals: 6 })).toBeNull();
    expect(valueProblem('ten')).toBe('Value must be a number, for example 0.00012345 or -0.5');
    expect(valueProblem('1e-8')).toBe('Value must be a number, for example 0.00012345 or -0.5');
    expect(valueProblem('-0.5', { ticker: 'BTC', decimals: 8 })).toBeNull();
    expect(valueProblem('1000000')).toBeNull();
    expect(valueProblem('-1000000.0')).toBeNull();
    expect(valueProblem('1000000.00000001')).toBe('Value is at most 1,000,000 coins either way');
    expect(valueProblem('-2000000')).toBe('Value is at most 1,000,000 coins either way');
  });

  it('sends the value with 8 decimals, as text (no float rounding)', () => {
    expect(valueWithEightDecimals('1.5')).toBe('1.50000000');
    expect(valueWithEightDecimals('2')).toBe('2.00000000');
    expect(valueWithEightDecimals('.25')).toBe('0.25000000');
    expect(valueWithEightDecimals('-0.1')).toBe('-0.10000000');
    expect(valueWithEightDecimals('0.12345678')).toBe('0.12345678');
    expect(valueWithEightDecimals('12345678901234567.1')).toBe('12345678901234567.10000000');
    // Trailing zeros past the eighth decimal are not precision.
    expect(valueWithEightDecimals('0.100000000')).toBe('0.10000000');
    // More than 8 decimals, or not a plain decimal: left as typed (valueProblem blocks it).
    expect(valueWithEightDecimals('0.123456789')).toBe('0.123456789');
    expect(valueWithEightDecimals('1e-8')).toBe('1e-8');
    expect(valueWithEightDecimals('-')).toBe('-');
  });

  it('sends the algorithm as its index (0 = SCRYPT … 5 = KHEAVYHASH) and the username trimmed', () => {
    expect(balanceFields({ ...filled, username: ' miner01 ' })).toEqual({
      username: 'miner01',
      algorithm: '0',
      ticker: 'LTC',
      value: '1.50000000',
    });
    expect(balanceFields({ ...filled, algorithm: 'SHA256' }).algorithm).toBe('1');
    expect(balanceFields({ ...filled, algorithm: 'KHEAVYHASH' }).algorithm).toBe('5');
    expect(balanceFields({ ...filled, reason: '  Outage refund ' }).reason).toBe('Outage refund');
    expect('reason' in balanceFields({ ...filled, reason: '   ' })).toBe(false);
  });
});

describe('balance answers', () => {
  it('true is success; a string or {error} is the error; anything else is Unknown error', () => {
    expect(balanceAnswerError(true)).toBeNull();
    expect(balanceAnswerError('Account not found')).toBe('Account not found');
    expect(balanceAnswerError({ error: 'No such coin' })).toBe('No such coin');
    expect(balanceAnswerError({ result: true })).toBe('Unknown error');
    expect(balanceAnswerError(false)).toBe('Unknown error');
    expect(balanceAnswerError('')).toBe('Unknown error');
  });

  it("shows the server's text, else Unknown error, else Failed to submit balance.", () => {
    expect(balanceFailureText(new ApiError(400, 'BALANCE_BELOW_ZERO', 'Refused: …', true))).toBe('Refused: …');
    expect(balanceFailureText(new ApiError(502, 'http_502', 'The server answered with status 502.'))).toBe(
      BALANCE_MESSAGES.unknown,
    );
    expect(balanceFailureText(new ApiError(0, 'network_error', 'unreachable'))).toBe('Failed to submit balance.');
    expect(balanceFailureText(new Error('boom'))).toBe('Failed to submit balance.');
  });
});
