/**
 * What a service says when it will not do what it was asked, in the domain's words: a kind (what
 * went wrong), a stable code (clients and tests match on it) and the message a person reads. Services
 * know nothing of HTTP; only http/errors.ts turns a kind into a status.
 */
export type DomainErrorKind =
  /** The request's values break a rule of their shape (code VALIDATION_FAILED). */
  | 'invalid'
  /** A well-formed request that a rule refuses, with its own code (COUPON_EXPIRED, …). */
  | 'refused'
  /** What the request names does not exist (for this caller). */
  | 'notFound'
  /** A name or an address that someone already has. */
  | 'taken'
  /** The caller may not do this to that. */
  | 'forbidden'
  /** The credentials given do not prove who the caller is. */
  | 'unauthenticated'
  /** The pool's state, not the request, is the cause: the same request works later. */
  | 'unavailable'
  /** Too many tries: the caller waits `retryAfterSeconds` (RateLimitedError). */
  | 'rateLimited';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** Refused for a while; the caller may try again after `retryAfterSeconds`. */
export class RateLimitedError extends DomainError {
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rateLimited', code, message);
    this.name = 'RateLimitedError';
  }
}

export const errors = {
  invalid: (message: string) => new DomainError('invalid', 'VALIDATION_FAILED', message),
  refused: (code: string, message: string) => new DomainError('refused', code, message),
  notFound: (message: string, code = 'NOT_FOUND') => new DomainError('notFound', code, message),
  taken: (code: string, message: string) => new DomainError('taken', code, message),
  forbidden: (code: string, message: string) => new DomainError('forbidden', code, message),
  unauthenticated: (code: string, message: string) => new DomainError('unauthenticated', code, message),
  unavailable: (code: string, message: string) => new DomainError('unavailable', code, message),
  rateLimited: (code: string, message: string, retryAfterSeconds: number) =>
    new RateLimitedError(code, message, retryAfterSeconds),
};
