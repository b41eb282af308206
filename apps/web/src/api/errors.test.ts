import { describe, expect, it } from 'vitest';
import { ApiError, apiErrorFrom, networkError, serverErrorText } from './errors';

describe('apiErrorFrom', () => {
  it('keeps the server message and code', () => {
    const error = apiErrorFrom(404, { error: 'No such algorithm', code: 'not_found' });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(404);
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('No such algorithm');
    expect(error.isClientError).toBe(true);
    expect(error.fromServer).toBe(true);
  });

  it('names a code from the status when the body has none', () => {
    const error = apiErrorFrom(500, { error: 'Internal error' });
    expect(error.code).toBe('http_500');
    expect(error.message).toBe('Internal error');
    expect(error.isClientError).toBe(false);
  });

  it.each([null, undefined, 'Bad Gateway', 42, [], {}, { error: '' }, { error: 3, code: 'x' }])(
    'gives a readable error for an unexpected body %j',
    (body) => {
      const error = apiErrorFrom(502, body);
      expect(error.status).toBe(502);
      expect(error.code).toBe('http_502');
      expect(error.message).toBe('The server answered with status 502.');
      expect(error.fromServer).toBe(false);
    },
  );
});

describe('networkError', () => {
  it('has status 0 and keeps the cause', () => {
    const cause = new TypeError('Failed to fetch');
    const error = networkError(cause);
    expect(error.status).toBe(0);
    expect(error.code).toBe('network_error');
    expect(error.cause).toBe(cause);
    expect(error.isClientError).toBe(false);
  });
});

describe('serverErrorText', () => {
  it("shows the server's own text verbatim", () => {
    expect(serverErrorText(apiErrorFrom(400, { error: 'Wrong e-mail or password', code: 'x' }), 'fallback')).toBe(
      'Wrong e-mail or password',
    );
  });

  it('falls back when the server sent no text, the network failed, or something else was thrown', () => {
    expect(serverErrorText(apiErrorFrom(502, 'Bad Gateway'), 'fallback')).toBe('fallback');
    expect(serverErrorText(networkError(new TypeError('Failed to fetch')), 'fallback')).toBe('fallback');
    expect(serverErrorText(new TypeError('x is undefined'), 'fallback')).toBe('fallback');
    expect(serverErrorText(undefined, 'fallback')).toBe('fallback');
  });
});
