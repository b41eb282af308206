import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../test/helpers.js';
import { AppError } from './http/errors.js';
import { addRoute } from './http/route.js';

describe('the HTTP server', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('answers unknown API paths with a JSON 404', async () => {
    t = await createTestApp();
    for (const url of ['/v1/nope', '/v1', '/v1/pool/stats/scrypt/extra?x=1']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' });
    }
    expect((await t.app.inject({ method: 'POST', url: '/v1/pool/stats' })).statusCode).toBe(404);
  });

  it('refuses malformed and oversize bodies with 400 and 413', async () => {
    t = await createTestApp({ BODY_LIMIT_BYTES: '2048' }, (app) => {
      app.post('/v1/test/echo', async (request) => ({ received: request.body }));
    });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'BAD_REQUEST' });

    const big = await t.app.inject({
      method: 'POST',
      url: '/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ a: 'x'.repeat(4096) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' });

    const type = await t.app.inject({
      method: 'POST',
      url: '/v1/test/echo',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'hello',
    });
    expect(type.statusCode).toBe(415);
  });

  it('hides the details of server errors and keeps stable codes for ours', async () => {
    t = await createTestApp({}, (app) => {
      app.get('/v1/test/crash', async () => {
        throw new Error('password=hunter2 at db.internal:5432');
      });
      app.get('/v1/test/refuse', async () => {
        throw new AppError('ACCOUNT_LOCKED', 423, 'Account locked');
      });
    });
    const crash = await t.app.inject({ url: '/v1/test/crash' });
    expect(crash.statusCode).toBe(500);
    expect(crash.json()).toEqual({ error: 'Internal server error', code: 'INTERNAL' });
    expect(crash.body).not.toContain('hunter2');

    const refuse = await t.app.inject({ url: '/v1/test/refuse' });
    expect(refuse.statusCode).toBe(423);
    expect(refuse.json()).toEqual({ error: 'Account locked', code: 'ACCOUNT_LOCKED' });
  });

  it('validates inputs and checks answers against the contract, stripping unknown fields', async () => {
    const contract = { method: 'GET' as const, path: '/test/contract', response: z.object({ n: z.number() }) };
    t = await createTestApp({}, (app) => {
      app.register(
        async (api) => {
          addRoute(api, contract, { query: z.object({ n: z.coerce.number().int() }) }, async ({ query }) => {
            if (query.n < 0) return { n: 'negative' } as unknown as { n: number };
            return Object.assign({ n: query.n }, { secret: 'must not leak' });
          });
        },
        { prefix: '/v1' },
      );
    });
    const ok = await t.app.inject({ url: '/v1/test/contract?n=5' });
    expect(ok.json()).toEqual({ n: 5 });

    const invalid = await t.app.inject({ url: '/v1/test/contract?n=abc' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    // A sentence naming the parameter, never a schema path ("query.n: …").
    expect(invalid.json().error).toMatch(/^The query parameter n is invalid \(expected number/);

    const broken = await t.app.inject({ url: '/v1/test/contract?n=-1' });
    expect(broken.statusCode).toBe(500);
    expect(broken.json()).toEqual({ error: 'Internal server error', code: 'INTERNAL' });
  });

  it('serves the website: index.html uncached for client routes, hashed assets immutable', async () => {
    t = await createTestApp();
    for (const url of ['/', '/stats', '/dashboard/abc123', '/reddit?x=1']) {
      const page = await t.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.body).toContain('<div id="root">');
    }
    const asset = await t.app.inject({ url: '/assets/index-3f2a1b.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject({ url: '/favicon.svg' })).headers['cache-control']).toBe('public, max-age=3600');
    expect((await t.app.inject({ url: '/assets/missing-123.js' })).statusCode).toBe(404);
  });

  it('serves the service worker and the manifests revalidated on every use, with their own types', async () => {
    t = await createTestApp();
    const worker = await t.app.inject({ url: '/sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(worker.headers['cache-control']).toBe('no-cache');
    const manifest = await t.app.inject({ url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.json()).toMatchObject({ start_url: '/dashboard', scope: '/' });
    // The policy lets the page register a same-origin worker and read a same-origin manifest: worker-src and
    // manifest-src are not set, so they fall back to default-src 'self' (CSP Level 3, the directive fallback list).
    const csp = String(manifest.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toMatch(/worker-src|manifest-src|child-src/);

    // An observer's manifest opens their own dashboard; an unusable key is a 404, never the miner's manifest.
    const observer = await t.app.inject({ url: '/observer.webmanifest?key=k3y%2Fwith%20odd' });
    expect(observer.statusCode).toBe(404);
    const ok = await t.app.inject({ url: '/observer.webmanifest?key=abc_DEF-123' });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(ok.headers['cache-control']).toBe('no-cache');
    expect(ok.json()).toMatchObject({
      id: '/dashboard/abc_DEF-123',
      start_url: '/dashboard/abc_DEF-123',
      scope: '/',
      display: 'standalone',
      name: 'Observer dashboard',
    });
    expect((await t.app.inject({ url: '/observer.webmanifest' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/observer.webmanifest?key=${'x'.repeat(201)}` })).statusCode).toBe(404);
  });

  it('sends security headers with a policy that allows only our own origin', async () => {
    t = await createTestApp();
    const res = await t.app.inject({ url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    await t.close();
    t = await createTestApp({ PUBLIC_URL: 'https://pool.example.org' });
    const secure = await t.app.inject({ url: '/' });
    expect(String(secure.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    expect(secure.headers['strict-transport-security']).toContain('max-age=');
  });

  it('exposes Prometheus metrics by route template, and can turn them off', async () => {
    t = await createTestApp();
    await t.app.inject({ url: '/v1/pool/stats' });
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(
      /lodestone_http_request_duration_seconds_count\{method="GET",route="\/v1\/pool\/stats",status="200"\} 1/,
    );
    expect(res.body).toContain('lodestone_process_cpu_user_seconds_total');

    await t.close();
    t = await createTestApp({ METRICS_ENABLED: 'false' });
    expect((await t.app.inject({ url: '/metrics' })).body).not.toContain('lodestone_http_request');
  });

  it('finishes in-flight requests when closing, and refuses new ones', async () => {
    let entered = false;
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    t = await createTestApp({}, (app) => {
      app.get('/v1/test/slow', async () => {
        entered = true;
        await finished;
        return { done: true };
      });
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    const inFlight = fetch(`http://127.0.0.1:${address.port}/v1/test/slow`);
    await vi.waitFor(() => expect(entered).toBe(true), { timeout: 5000, interval: 5 });
    const closing = t.app.close();
    // Closing has begun while the slow request is in flight: the server takes no new connection. Only
    // then does the slow request finish.
    await vi.waitFor(() => expect(fetch(`http://127.0.0.1:${address.port}/v1/health/live`)).rejects.toThrow(), {
      timeout: 5000,
      interval: 5,
    });
    finish();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await closing;
    await expect(fetch(`http://127.0.0.1:${address.port}/v1/health/live`)).rejects.toThrow();
  });
});
