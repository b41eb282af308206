/**
 * What a request looks like in the logs. Query strings are dropped (they carry e-mail addresses,
 * recovery keys, API and observer keys) and path segments that are secrets are masked (the 2FA
 * secret of the QR image, the observer key of an observer dashboard), so reading the logs never
 * gives access to an account.
 */
const SECRET_PATHS: RegExp[] = [/^(\/v1\/2fa\/)[^/]+/, /^(\/dashboard\/)[^/]+/];

export function redactUrl(url: string): string {
  const path = url.split('?')[0] ?? '';
  let safe = path;
  for (const pattern of SECRET_PATHS) safe = safe.replace(pattern, '$1[redacted]');
  return url.includes('?') ? `${safe}?[redacted]` : safe;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

export function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Serializers for every logger of the process (pino and Fastify's request logs). */
export const LOG_SERIALIZERS = { req: serializeRequest };
