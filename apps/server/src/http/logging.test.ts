import { describe, expect, it } from 'vitest';
import { redactUrl, serializeRequest } from './logging.js';

describe('request logging', () => {
  it('drops query strings, which carry e-mails and keys', () => {
    expect(redactUrl('/newPassword?k=secretkey&email=a@b.c')).toBe('/newPassword?[redacted]');
    expect(redactUrl('/v1/pool/stats')).toBe('/v1/pool/stats');
  });

  it('masks secret path segments', () => {
    expect(redactUrl('/v1/2fa/JBSWY3DPEHPK3PXP')).toBe('/v1/2fa/[redacted]');
    expect(redactUrl('/dashboard/0123abcd?tab=revenue')).toBe('/dashboard/[redacted]?[redacted]');
    expect(redactUrl('/dashboard')).toBe('/dashboard');
  });

  it('serializes a request without its secrets', () => {
    expect(
      serializeRequest({
        method: 'GET',
        url: '/v1/2fa/SECRET',
        host: 'pool',
        ip: '1.2.3.4',
        socket: { remotePort: 5 },
      }),
    ).toEqual({ method: 'GET', url: '/v1/2fa/[redacted]', host: 'pool', remoteAddress: '1.2.3.4', remotePort: 5 });
  });
});
