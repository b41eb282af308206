/**
 * Every failed call surfaces as an ApiError: the HTTP status (0 when the server could not be reached),
 * the server's stable error code, and a message fit to show to people.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /**
     * True when `message` is the server's own `error` text (docs/website.md, Forms and messages), not one made up here.
     */
    readonly fromServer = false,
  ) {
    super(message);
  }

  /** 4xx: asking again will get the same answer. */
  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

/**
 * Builds the error for a non-2xx answer from its status and parsed body. The server answers
 * `{ error, code }`; a proxy or a crash may answer anything else, which still gives a readable error.
 */
export function apiErrorFrom(status: number, body: unknown): ApiError {
  if (typeof body === 'object' && body !== null) {
    const { error, code } = body as Record<string, unknown>;
    if (typeof error === 'string' && error.trim() !== '') {
      return new ApiError(status, typeof code === 'string' && code !== '' ? code : `http_${status}`, error, true);
    }
  }
  return new ApiError(status, `http_${status}`, `The server answered with status ${status}.`);
}

export function networkError(cause: unknown): ApiError {
  const error = new ApiError(0, 'network_error', 'The server could not be reached. Check your connection.');
  error.cause = cause;
  return error;
}

/**
 * The text to show for a failed form call: the server's own error text when it sent one, otherwise
 * `fallback` (that form's fixed message). A network failure has no server text.
 */
export function serverErrorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.fromServer ? error.message : fallback;
}
