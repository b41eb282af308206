import { describe, expect, it } from 'vitest';
import {
  apiCaches,
  cacheNames,
  clearsOfflineAnswers,
  isStorableAnswer,
  OFFLINE_ANSWER_HEADER,
  offlineAnswerTime,
  staleCaches,
  strategyFor,
} from './rules';

const ORIGIN = 'https://pool.example';
const get = (path: string, mode = 'cors') => ({ method: 'GET', url: `${ORIGIN}${path}`, mode });

describe('strategyFor', () => {
  it('serves page loads from the network, with the stored shell behind them', () => {
    expect(strategyFor(get('/dashboard', 'navigate'), ORIGIN)).toBe('shell');
    expect(strategyFor(get('/dashboard/abc123?x=1', 'navigate'), ORIGIN)).toBe('shell');
    expect(strategyFor(get('/', 'navigate'), ORIGIN)).toBe('shell');
  });

  it('takes hashed assets from the cache first, other files of the site from the network first', () => {
    expect(strategyFor(get('/assets/index-RqS-GEbZ.js'), ORIGIN)).toBe('asset');
    expect(strategyFor(get('/assets/index-DiujSPsL.css'), ORIGIN)).toBe('asset');
    expect(strategyFor(get('/favicon.svg'), ORIGIN)).toBe('file');
    expect(strategyFor(get('/manifest.webmanifest'), ORIGIN)).toBe('file');
    expect(strategyFor(get('/sw.js'), ORIGIN)).toBe('network');
  });

  it("keeps both dashboards' reads, with their queries", () => {
    for (const path of [
      '/v1/user/info',
      '/v1/user/accounts',
      '/v1/user/mining?account_name=bob01&algorithm=scrypt',
      '/v1/user/mining/workers?account_name=bob01&algorithm=scrypt&timezone=UTC',
      '/v1/user/mining/workers/page?account_name=bob01&algorithm=scrypt&page=2&search=rack1&state=all&group=all',
      '/v1/observer/mining/workers/page?observer_key=k&algorithm=scrypt&page=1&search=&state=all&group=all',
      '/v1/user/mining/chart?account_name=bob01&algorithm=scrypt',
      '/v1/user/overview?algorithm=scrypt',
      '/v1/user/mining/workers/chart?account_name=bob01&algorithm=scrypt&worker_id=7&period=24h',
      '/v1/user/mining/workers/rejects?account_name=bob01&algorithm=scrypt&worker_id=7',
      '/v1/observer/mining/workers/connections?observer_key=k&algorithm=scrypt&worker_id=7',
      '/v1/user/revenue/balance?account_name=bob01',
      '/v1/observer/mining?observer_key=k&algorithm=scrypt',
      '/v1/observer/revenue/payouts?observer_key=k',
      '/v1/site',
      '/v1/coins',
    ]) {
      expect(strategyFor(get(path), ORIGIN), path).toBe('read');
    }
  });

  it('never keeps writes, GETs that write or hold secrets, downloads, admin reads or the account settings', () => {
    for (const path of [
      '/v1/user/mining/workers/remove/12',
      '/v1/user/mining/workers/removeall?account_name=bob01',
      '/v1/user/set_referral?code=abc',
      '/v1/user/config/generate2FA',
      '/v1/2fa/SECRET',
      '/v1/user/config',
      '/v1/user/revenue/earnings/download?account_name=bob01&date=2025-06',
      '/v1/user/revenue/payouts/csv?account_name=bob01',
      '/v1/admin/users',
      '/v1/captcha/challenge',
      '/v1/user/info/extra',
      '/v1',
    ]) {
      expect(strategyFor(get(path), ORIGIN), path).toBe('network');
    }
    expect(strategyFor({ method: 'POST', url: `${ORIGIN}/v1/user/login`, mode: 'cors' }, ORIGIN)).toBe('network');
    expect(strategyFor({ method: 'POST', url: `${ORIGIN}/v1/user/mining`, mode: 'cors' }, ORIGIN)).toBe('network');
    expect(strategyFor({ method: 'HEAD', url: `${ORIGIN}/dashboard`, mode: 'navigate' }, ORIGIN)).toBe('network');
  });

  it('leaves other origins alone, even at the same path', () => {
    expect(strategyFor(get('/v1/user/info'), 'https://other.example')).toBe('network');
    expect(strategyFor({ method: 'GET', url: 'http://pool.example/v1/user/info', mode: 'cors' }, ORIGIN)).toBe(
      'network',
    );
  });
});

describe('isStorableAnswer', () => {
  it('stores only a 200 with a JSON body', () => {
    expect(isStorableAnswer(200, 'application/json; charset=utf-8')).toBe(true);
    expect(isStorableAnswer(200, 'text/html')).toBe(false);
    expect(isStorableAnswer(200, null)).toBe(false);
    for (const status of [201, 204, 304, 401, 404, 429, 500, 503]) {
      expect(isStorableAnswer(status, 'application/json'), String(status)).toBe(false);
    }
  });
});

describe('clearsOfflineAnswers', () => {
  it('clears after any change of session and after any 401', () => {
    expect(clearsOfflineAnswers('POST', '/v1/user/login', 200)).toBe(true);
    expect(clearsOfflineAnswers('POST', '/v1/user/login', 400)).toBe(true);
    expect(clearsOfflineAnswers('POST', '/v1/user/logout', 200)).toBe(true);
    expect(clearsOfflineAnswers('POST', '/v1/user/sessions/logout_all', 200)).toBe(true);
    expect(clearsOfflineAnswers('POST', '/v1/user/register', 200)).toBe(true);
    expect(clearsOfflineAnswers('POST', '/v1/admin/login', 200)).toBe(true);
    expect(clearsOfflineAnswers('GET', '/v1/user/mining', 401)).toBe(true);
    expect(clearsOfflineAnswers('POST', '/v1/user/config/update', 401)).toBe(true);
  });

  it('keeps them for every other answer', () => {
    expect(clearsOfflineAnswers('GET', '/v1/user/mining', 200)).toBe(false);
    expect(clearsOfflineAnswers('GET', '/v1/user/mining', 500)).toBe(false);
    expect(clearsOfflineAnswers('POST', '/v1/user/config/update', 200)).toBe(false);
    expect(clearsOfflineAnswers('GET', '/v1/user/logout', 200)).toBe(false);
    expect(clearsOfflineAnswers('GET', '/dashboard', 401)).toBe(false);
  });
});

describe('cache names', () => {
  it("names both caches by the build and removes other builds' caches only", () => {
    expect(cacheNames('abc')).toEqual({ shell: 'lodestone-shell-abc', api: 'lodestone-api-abc' });
    const existing = ['lodestone-shell-abc', 'lodestone-api-abc', 'lodestone-shell-old', 'lodestone-api-old', 'other'];
    expect(staleCaches(existing, 'abc')).toEqual(['lodestone-shell-old', 'lodestone-api-old']);
    expect(apiCaches(existing)).toEqual(['lodestone-api-abc', 'lodestone-api-old']);
  });
});

describe('offlineAnswerTime', () => {
  it('reads the time the worker stored an answer; an answer without it came from the network', () => {
    expect(OFFLINE_ANSWER_HEADER).toBe('x-lodestone-offline-from');
    expect(offlineAnswerTime('2026-11-25T14:05:00.000Z')).toBe(Date.UTC(2026, 10, 25, 14, 5));
    expect(offlineAnswerTime(null)).toBeNull();
    expect(offlineAnswerTime('yesterday-ish')).toBeNull();
  });
});
