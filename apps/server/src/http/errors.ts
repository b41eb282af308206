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

export const errors = {
  notFound: (what = 'Not found') => new AppError('NOT_FOUND', 404, what),
  validation: (message: string) => new AppError('VALIDATION_FAILED', 400, message),
  badRequest: (message: string) => new AppError('BAD_REQUEST', 400, message),
  payloadTooLarge: () => new AppError('PAYLOAD_TOO_LARGE', 413, 'Request body is too large'),
  unsupportedMediaType: () => new AppError('UNSUPPORTED_MEDIA_TYPE', 415, 'Unsupported content type'),
  unavailable: (message = 'Service unavailable') => new AppError('UNAVAILABLE', 503, message),
  internal: () => new AppError('INTERNAL', 500, 'Internal server error'),
};

/** Fastify's own client errors (body parsing, limits) mapped onto our codes. */
const FASTIFY_CLIENT_ERRORS: Record<string, () => AppError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: errors.payloadTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: errors.unsupportedMediaType,
};

/** Turns anything thrown in a handler into the error we answer with. 5xx details never leave the server. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error && typeof error === 'object') {
    const { code, statusCode, message } = error as { code?: unknown; statusCode?: unknown; message?: unknown };
    const mapped = typeof code === 'string' ? FASTIFY_CLIENT_ERRORS[code] : undefined;
    if (mapped) return mapped();
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
      const text = typeof message === 'string' && message ? message : 'Bad request';
      return new AppError(statusCode === 400 ? 'BAD_REQUEST' : `HTTP_${statusCode}`, statusCode, text);
    }
  }
  return errors.internal();
}
