import { captchaChallengeResponse } from '@lodestone/contract';
import { solveChallenge } from 'altcha-lib/v1';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';

/** The site's own origin in tests (PUBLIC_URL's default), sent on state-changing requests. */
export const ORIGIN = 'http://localhost:8080';
export const SESSION = 'lodestone_session';

/** Fetches a robot-check challenge and solves it for real, as the browser widget does. */
export async function solveCaptcha(app: FastifyInstance, remoteAddress = '127.0.0.1'): Promise<string> {
  const res = await app.inject({ url: '/v1/captcha/challenge', remoteAddress });
  if (res.statusCode !== 200) throw new Error(`challenge: ${res.statusCode} ${res.body}`);
  const c = captchaChallengeResponse.parse(res.json());
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new Error('captcha challenge not solvable');
  const payload = {
    algorithm: c.algorithm,
    challenge: c.challenge,
    number: solution.number,
    salt: c.salt,
    signature: c.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/** A multipart form body, encoded exactly as a browser's FormData. */
export async function multipart(
  fields: Record<string, string>,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}

export interface PostOptions {
  cookie?: string | undefined;
  query?: Record<string, string>;
  remoteAddress?: string;
  origin?: string | null;
  /** Send the fields as JSON instead of multipart. */
  json?: boolean;
  /** The browser's User-Agent header (light-my-request sends its own otherwise). */
  userAgent?: string;
}

/** A form POST as the website sends it: multipart, with the site's Origin and the session cookie. */
export async function post(
  app: FastifyInstance,
  url: string,
  fields: Record<string, string> = {},
  options: PostOptions = {},
): Promise<LightMyRequestResponse> {
  const body = options.json
    ? { payload: JSON.stringify(fields), headers: { 'content-type': 'application/json' } }
    : await multipart(fields);
  const headers: Record<string, string> = { ...body.headers };
  if (options.origin !== null) headers.origin = options.origin ?? ORIGIN;
  if (options.userAgent !== undefined) headers['user-agent'] = options.userAgent;
  const request: InjectOptions = {
    method: 'POST',
    url,
    payload: body.payload,
    headers,
    remoteAddress: options.remoteAddress ?? '127.0.0.1',
    ...(options.query ? { query: options.query } : {}),
    ...(options.cookie ? { cookies: { [SESSION]: options.cookie } } : {}),
  };
  return app.inject(request);
}

export async function get(
  app: FastifyInstance,
  url: string,
  options: { cookie?: string | undefined; query?: Record<string, string>; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'GET',
    url,
    remoteAddress: options.remoteAddress ?? '127.0.0.1',
    ...(options.query ? { query: options.query } : {}),
    ...(options.cookie ? { cookies: { [SESSION]: options.cookie } } : {}),
  });
}

/** The session token the answer set, or undefined. */
export function sessionCookie(res: LightMyRequestResponse): string | undefined {
  const c = res.cookies.find((x) => x.name === SESSION);
  return c && c.value !== '' ? c.value : undefined;
}

let counter = 0;
/** A fresh client address per call, so per-address rate limits of one test never touch another's. */
export function nextAddress(): string {
  counter += 1;
  return `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
}

export interface TestUser {
  username: string;
  email: string;
  password: string;
  cookie: string;
  address: string;
}

let users = 0;
/** Registers a new user through the real call (robot check solved) and returns its session. */
export async function registerUser(
  app: FastifyInstance,
  overrides: Partial<Pick<TestUser, 'username' | 'email' | 'password'>> & { referral?: string } = {},
): Promise<TestUser> {
  users += 1;
  const tag = `${process.pid}x${users}`;
  const username = overrides.username ?? `miner${tag}`.slice(0, 32);
  const email = overrides.email ?? `miner${tag}@example.com`;
  const password = overrides.password ?? 'correct horse battery';
  const address = nextAddress();
  const res = await post(
    app,
    '/v1/user/register',
    { username, email, password, referral: overrides.referral ?? '', captchaToken: await solveCaptcha(app, address) },
    { remoteAddress: address },
  );
  const cookie = sessionCookie(res);
  if (res.statusCode !== 200 || !cookie) throw new Error(`register: ${res.statusCode} ${res.body}`);
  return { username, email: email.toLowerCase(), password, cookie, address };
}

/** Logs in through the real call; returns the answer (the session is in its cookie). */
export async function loginAs(
  app: FastifyInstance,
  fields: { email: string; password: string; code?: string },
  options: { remoteAddress?: string; cookie?: string; userAgent?: string } = {},
): Promise<LightMyRequestResponse> {
  const remoteAddress = options.remoteAddress ?? nextAddress();
  return post(
    app,
    '/v1/user/login',
    {
      email: fields.email,
      password: fields.password,
      code: fields.code ?? '',
      captchaToken: await solveCaptcha(app, remoteAddress),
    },
    { remoteAddress, cookie: options.cookie, ...(options.userAgent !== undefined && { userAgent: options.userAgent }) },
  );
}

/** The current TOTP code of a secret (at `epochSeconds`, default now). */
export function totpCode(secret: string, epochSeconds = Math.floor(Date.now() / 1000)): Promise<string> {
  return generate({ secret, epoch: epochSeconds });
}

/**
 * An app clock that stands still at the start of a 30-second TOTP step and moves only when a test moves it by whole
 * steps, so that each code is new when the test says so — never because the wall clock crossed a step between two
 * requests (which made a replayed code look fresh).
 */
export function totpClock() {
  const startMs = Math.floor(Date.now() / 30_000) * 30_000;
  let offsetMs = 0;
  const nowMs = () => startMs + offsetMs;
  return {
    now: () => new Date(nowMs()),
    epoch: () => Math.floor(nowMs() / 1000),
    nextStep: () => {
      offsetMs += 30_000;
    },
  };
}
