import { DomainError, type DomainErrorKind, RateLimitedError } from '../services/errors.js';

/**
 * The one error type of the API. `code` is stable (clients and tests match on it), `message` is what
 * a person reads, `status` the HTTP status; `reportable` errors are logged as errors, the rest are
 * the client's fault and logged at info level.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly reportable = status >= 500,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** A 429 that tells the client when to come back (sent as Retry-After). */
export class RetryAfterError extends AppError {
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, 429, message);
  }
}

export const errors = {
  notFound: (what = 'Not found') => new AppError('NOT_FOUND', 404, what),
  validation: (message: string) => new AppError('VALIDATION_FAILED', 400, message),
  badRequest: (message: string) => new AppError('BAD_REQUEST', 400, message),
  /** A refusal with its own stable code, e.g. USERNAME_TAKEN (400 unless said otherwise). */
  refused: (code: string, message: string, status = 400) => new AppError(code, status, message),
  unauthenticated: () => new AppError('UNAUTHENTICATED', 401, 'Not logged in'),
  forbidden: (message = 'Forbidden') => new AppError('FORBIDDEN', 403, message),
  tooManyRequests: (message: string, retryAfterSeconds: number) =>
    new RetryAfterError('RATE_LIMITED', message, retryAfterSeconds),
  payloadTooLarge: () => new AppError('PAYLOAD_TOO_LARGE', 413, 'Request body is too large'),
  unsupportedMediaType: () => new AppError('UNSUPPORTED_MEDIA_TYPE', 415, 'Unsupported content type'),
  unavailable: (message = 'Service unavailable') => new AppError('UNAVAILABLE', 503, message),
  internal: () => new AppError('INTERNAL', 500, 'Internal server error'),
};

const malformedForm = (detail: string) => errors.badRequest(`Malformed multipart form: ${detail}`);

/** Fastify's own client errors (body parsing, limits) mapped onto our codes. */
const FASTIFY_CLIENT_ERRORS: Record<string, () => AppError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: errors.payloadTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: errors.unsupportedMediaType,
  // @fastify/multipart: a part that declares application/json but is not JSON (it would say 406),
  // and the form limits of app.ts (its own messages read "reach parts limit").
  FST_INVALID_JSON_FIELD_ERROR: () => malformedForm('a field declared as JSON is not valid JSON'),
  FST_PARTS_LIMIT: () => new AppError('PAYLOAD_TOO_LARGE', 413, 'The form has too many fields'),
  FST_FIELDS_LIMIT: () => new AppError('PAYLOAD_TOO_LARGE', 413, 'The form has too many fields'),
  FST_FILES_LIMIT: () => new AppError('PAYLOAD_TOO_LARGE', 413, 'Forms take text fields only, no files'),
};

/**
 * The multipart parser (@fastify/busboy, under @fastify/multipart) reports a body it cannot read
 * with plain Errors that carry no code and no status, only these messages; they are the client's
 * fault. Each maps to what the client should fix. Any other uncoded error stays a 500.
 */
const MULTIPART_PARSE_ERRORS: [RegExp, string][] = [
  [/^Multipart: Boundary not found$/, 'the Content-Type header names no boundary'],
  [/^The needle cannot /, 'the boundary is too long (RFC 2046 allows 70 characters)'],
  [/unexpected end of multipart data$/i, 'the body ends before its closing boundary'],
];

function multipartParseError(error: object): AppError | undefined {
  if (error.constructor !== Error) return undefined;
  const { message } = error as Error;
  const known = MULTIPART_PARSE_ERRORS.find(([pattern]) => pattern.test(message));
  return known && malformedForm(known[1]);
}

/** The HTTP status of each kind of refusal a service speaks (services/errors.ts). */
const DOMAIN_ERROR_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  refused: 400,
  notFound: 404,
  taken: 409,
  forbidden: 403,
  unauthenticated: 401,
  unavailable: 503,
  rateLimited: 429,
};

function fromDomainError(error: DomainError): AppError {
  if (error instanceof RateLimitedError) return new RetryAfterError(error.code, error.message, error.retryAfterSeconds);
  return new AppError(error.code, DOMAIN_ERROR_STATUS[error.kind], error.message);
}

/** Turns anything thrown in a handler into the error we answer with. 5xx details never leave the server. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof DomainError) return fromDomainError(error);
  if (error && typeof error === 'object') {
    const { code, statusCode, message } = error as { code?: unknown; statusCode?: unknown; message?: unknown };
    const mapped = typeof code === 'string' ? FASTIFY_CLIENT_ERRORS[code] : undefined;
    if (mapped) return mapped();
    const malformed = multipartParseError(error);
    if (malformed) return malformed;
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
      const text = typeof message === 'string' && message ? message : 'Bad request';
      return new AppError(statusCode === 400 ? 'BAD_REQUEST' : `HTTP_${statusCode}`, statusCode, text);
    }
  }
  return errors.internal();
}
