import { describe, expect, it } from 'vitest';
import { type DomainError, type DomainErrorKind, errors as domain } from '../services/errors.js';
import { AppError, RetryAfterError, toAppError } from './errors.js';

describe('toAppError: what a service says, as the API answers it', () => {
  // A Record over the kinds: a kind added without a status here does not compile.
  const answers: Record<DomainErrorKind, [DomainError, { code: string; status: number; message: string }]> = {
    invalid: [
      domain.invalid('Unknown coin: XYZ'),
      { code: 'VALIDATION_FAILED', status: 400, message: 'Unknown coin: XYZ' },
    ],
    refused: [
      domain.refused('COUPON_EXPIRED', 'This coupon has expired'),
      { code: 'COUPON_EXPIRED', status: 400, message: 'This coupon has expired' },
    ],
    notFound: [domain.notFound('Worker not found'), { code: 'NOT_FOUND', status: 404, message: 'Worker not found' }],
    taken: [
      domain.taken('USERNAME_TAKEN', 'This username is already taken'),
      { code: 'USERNAME_TAKEN', status: 409, message: 'This username is already taken' },
    ],
    forbidden: [
      domain.forbidden('TARGET_IS_ADMIN', 'Admins cannot log in as another admin'),
      { code: 'TARGET_IS_ADMIN', status: 403, message: 'Admins cannot log in as another admin' },
    ],
    unauthenticated: [
      domain.unauthenticated('INVALID_CREDENTIALS', 'Invalid email or password'),
      { code: 'INVALID_CREDENTIALS', status: 401, message: 'Invalid email or password' },
    ],
    unavailable: [
      domain.unavailable('PRICES_UNAVAILABLE', 'Prices are not available right now'),
      { code: 'PRICES_UNAVAILABLE', status: 503, message: 'Prices are not available right now' },
    ],
    rateLimited: [
      domain.rateLimited('LOGIN_LOCKED', 'Too many failed logins. Try again in 30 seconds.', 30),
      { code: 'LOGIN_LOCKED', status: 429, message: 'Too many failed logins. Try again in 30 seconds.' },
    ],
  };

  it.each(Object.entries(answers))('answers %s with its status, its code and its message', (kind, [error, answer]) => {
    expect(error.kind).toBe(kind);
    const mapped = toAppError(error);
    expect(mapped).toBeInstanceOf(AppError);
    expect({ code: mapped.code, status: mapped.status, message: mapped.message }).toEqual(answer);
  });

  it('keeps a named code where a kind has a default one', () => {
    expect(toAppError(domain.notFound('No such user', 'USER_NOT_FOUND'))).toMatchObject({
      code: 'USER_NOT_FOUND',
      status: 404,
      message: 'No such user',
    });
  });

  it('tells a rate-limited client when to come back (Retry-After)', () => {
    const mapped = toAppError(
      domain.rateLimited('LOGIN_LOCKED', 'Too many failed logins. Try again in 2 minutes.', 95),
    );
    expect(mapped).toBeInstanceOf(RetryAfterError);
    expect((mapped as RetryAfterError).retryAfterSeconds).toBe(95);
  });

  it("logs as an error only what is the pool's fault, not the client's", () => {
    const reportable = Object.entries(answers)
      .filter(([, [error]]) => toAppError(error).reportable)
      .map(([kind]) => kind);
    expect(reportable).toEqual(['unavailable']);
  });

  it('passes its own errors on and hides anything else behind a 500', () => {
    const own = new AppError('ACCOUNT_LOCKED', 423, 'Account locked');
    expect(toAppError(own)).toBe(own);
    const hidden = toAppError(
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
    );
    expect({ code: hidden.code, status: hidden.status, message: hidden.message }).toEqual({
      code: 'INTERNAL',
      status: 500,
      message: 'Internal server error',
    });
  });
});
