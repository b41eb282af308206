import { algorithmStatsResponse, chartResponse, errorResponse } from '@lodestone/contract';
import { insertAccount, insertPoolStats, insertUser } from '@lodestone/db';
import { insertedRow, testEngines } from '@lodestone/db/testing';
import { DEFAULT_STATS_WINDOW_MINUTES, statsWindow } from '@lodestone/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { applyShareBatch, recordFoundBlock } from '../../jobs/accounting.js';
import { rollupPoolStats } from '../../jobs/rollup.js';
import { foundBlock, shareBatch, shareCounts } from '../../jobs/testing.js';
import { powHashesPerDifficulty } from '../../services/hashesPerDifficulty.js';
import { CHART_BUCKET_MINUTES, CHART_POINTS } from '../../services/poolDetail.js';

const MINUTE = 60_000;

describe.each(testEngines())('GET /v1/pool/stats/{algorithm} on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({}, undefined, engine);
  });
  afterEach(() => t.close());

  it('answers 404 in our error shape for an unknown algorithm', async () => {
    for (const url of ['/v1/pool/stats/md5', '/v1/pool/stats/md5/chart?timezone=UTC']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(errorResponse.parse(res.json())).toEqual({ error: 'Unknown algorithm: md5', code: 'NOT_FOUND' });
    }
  });

  it('answers zeros and empty lists before the pool has data', async () => {
    const res = await t.app.inject({ url: '/v1/pool/stats/sha256' });
    expect(res.statusCode).toBe(200);
    expect(algorithmStatsResponse.parse(res.json())).toEqual({
      hashrate: 0,
      hashrate_units: 'H/s',
      miners: 0,
      workers: 0,
      users: 0,
      blocks: 0,
      hashes: 0,
      hashes_units: 'H',
      profit: 0,
      profit_avg: 0,
      profit_speed: 0,
      profit_units: 'BTC/PH/s',
      top_hashrate: [],
      top_hashrate_units: 'H/s',
      top_hashers_past: [],
      top_hashers_past_units: 'H',
      networks: [],
    });
  });

  it('shows the pool figures and the top lists, sorted, ten long, each in one unit', async () => {
    const now = new Date();
    const window = statsWindow(now, DEFAULT_STATS_WINDOW_MINUTES);
    // Well inside the window even if the clock crosses a minute before the request.
    const inWindow = new Date(window.from.getTime() + 4 * MINUTE + 30_000).toISOString();
    const longAgo = new Date(now.getTime() - 120 * MINUTE).toISOString();
    const { db } = t.database;
    // u01 … u12 with 1000 … 12000 of accepted difficulty in the window
    for (let k = 1; k <= 12; k++) {
      const account = `u${String(k).padStart(2, '0')}`;
      await applyShareBatch(
        db,
        shareBatch(inWindow, [shareCounts(account, 'rig', { acceptedDifficulty: k * 1000, valid: k })]),
      );
    }
    // an old-timer, long outside the window: first of all time, absent from the current list
    await applyShareBatch(
      db,
      shareBatch(longAgo, [shareCounts('veteran', 'farm', { acceptedDifficulty: 1e9, valid: 100 })]),
    );
    await recordFoundBlock(db, foundBlock({ hash: '0a'.repeat(32), foundAt: now.getTime() - 5 * MINUTE }));
    // Names are public only for accounts whose user turned "anonymous" off: u12 and veteran here;
    // u11's user stays anonymous, the others have no registered account.
    const open = insertedRow(
      await insertUser(db, { email: 'open@example.org', passwordHash: '$argon2id$open', anonymous: false }),
    );
    const shy = insertedRow(await insertUser(db, { email: 'shy@example.org', passwordHash: '$argon2id$shy' }));
    for (const [user, username] of [
      [open, 'u12'],
      [open, 'veteran'],
      [shy, 'u11'],
    ] as const) {
      insertedRow(
        await insertAccount(db, {
          userId: user.id,
          username,
          apiKey: `api-${username}`,
          observerKey: `obs-${username}`,
          referralCode: `R${username.toUpperCase()}`,
        }),
      );
    }
    await rollupPoolStats(db, now, {
      windowMinutes: DEFAULT_STATS_WINDOW_MINUTES,
      hashesPerDifficulty: powHashesPerDifficulty,
    });

    // the algorithm's name works as well as its key
    const res = await t.app.inject({ url: '/v1/pool/stats/SCRYPT' });
    expect(res.statusCode).toBe(200);
    const body = algorithmStatsResponse.parse(res.json());

    // Σ 78000 × 65536 over the window (10 complete minutes + the current one so far)
    expect(body.hashrate).toBeCloseTo((78000 * 65536) / window.seconds / 1e6, 5);
    expect(body).toMatchObject({
      hashrate_units: 'Mh/s',
      miners: 12,
      workers: 12,
      // Registered users (open and shy), not the 13 accounts that mined.
      users: 2,
      blocks: 1,
      hashes_units: 'TH',
      profit: 0,
      profit_avg: 0,
      profit_speed: 0,
      profit_units: 'BTC/TH/s',
    });
    expect(body.hashes).toBeCloseTo(((1e9 + 78000) * 65536) / 1e12, 9);

    expect(body.top_hashrate_units).toBe('Mh/s'); // from the largest: 12000 × 65536 / 600…660 s ≈ 1.2–1.3 Mh/s
    expect(body.top_hashrate.map((e) => e.user)).toEqual([
      'u12',
      'u1***',
      'u1***',
      'u0***',
      'u0***',
      'u0***',
      'u0***',
      'u0***',
      'u0***',
      'u0***',
    ]);
    const top = body.top_hashrate[0]?.hashrate ?? 0;
    expect(top).toBeGreaterThan((12000 * 65536) / 660 / 1e6 - 1e-6);
    expect(top).toBeLessThanOrEqual(1.31072);
    expect(body.top_hashrate[9]?.hashrate).toBeCloseTo(top * 0.25, 5);
    const rates = body.top_hashrate.map((e) => e.hashrate);
    expect(rates).toEqual([...rates].sort((a, b) => b - a));

    expect(body.top_hashers_past_units).toBe('TH'); // veteran: 1e9 × 65536 = 65.536 TH
    expect(body.top_hashers_past).toHaveLength(10);
    expect(body.top_hashers_past[0]).toEqual({ user: 'veteran', hashes: 65.536 });
    expect(body.top_hashers_past[1]).toEqual({ user: 'u12', hashes: (12000 * 65536) / 1e12 });
    expect(body.top_hashers_past[2]).toMatchObject({ user: 'u1***' });
    const hashes = body.top_hashers_past.map((e) => e.hashes);
    expect(hashes).toEqual([...hashes].sort((a, b) => b - a));
  });
});

describe.each(testEngines())('GET /v1/pool/stats/{algorithm}/chart on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({}, undefined, engine);
  });
  afterEach(() => t.close());

  const bucketMs = CHART_BUCKET_MINUTES * MINUTE;

  /** Seeds snapshots around the current bucket, first waiting out a bucket boundary a few seconds away. */
  async function seed({ olderHistory = true } = {}) {
    const toBoundary = bucketMs - (Date.now() % bucketMs);
    if (toBoundary < 5000) await new Promise((resolve) => setTimeout(resolve, toBoundary + 10));
    const now = Date.now();
    const snapshot = (takenAt: number, hashrate: string) =>
      insertPoolStats(t.database.db, {
        algorithm: 'x11',
        taken_at: new Date(takenAt),
        hashrate,
        miners: 1,
        workers: 1,
        profit: '0',
        profit_avg_24h: '0',
      });
    const current = Math.floor(now / bucketMs) * bucketMs;
    // the current bucket: two snapshots averaging 3 Gh/s
    await snapshot(current, '2000000000');
    await snapshot(current + 1, '4000000000');
    // three buckets back: 1.5 Gh/s
    await snapshot(current - 3 * bucketMs + 5 * MINUTE, '1500000000');
    // older than the chart's 24 hours: left out (and the pool's first record then is before the chart)
    if (olderHistory) await snapshot(current - CHART_POINTS * bucketMs, '999000000000');
    return current;
  }

  it('answers 48 half-hour points of the last 24 hours in one unit, labelled in UTC by default', async () => {
    const current = await seed();
    const res = await t.app.inject({ url: '/v1/pool/stats/x11/chart' });
    expect(res.statusCode).toBe(200);
    const body = chartResponse.parse(res.json());
    expect(body.label).toBe('Hashrate (Gh/s)');
    expect(body.x_axis).toHaveLength(CHART_POINTS);
    expect(body.y_axis).toHaveLength(CHART_POINTS);
    expect(body.y_axis.at(-1)).toBe(3);
    expect(body.y_axis.at(-4)).toBe(1.5);
    expect(body.y_axis.filter((y) => y !== 0)).toHaveLength(2);
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    expect(body.x_axis.at(-1)).toBe(hhmm(current));
    expect(body.x_axis[0]).toBe(hhmm(current - (CHART_POINTS - 1) * bucketMs));
  });

  it('starts at the bucket of the pool’s first snapshot, not with zeros; later buckets without one read 0', async () => {
    const current = await seed({ olderHistory: false });
    const body = chartResponse.parse((await t.app.inject({ url: '/v1/pool/stats/x11/chart' })).json());
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    expect(body.x_axis).toEqual([3, 2, 1, 0].map((back) => hhmm(current - back * bucketMs)));
    // the two buckets between are an outage of the rollup: real zeros
    expect(body.y_axis).toEqual([1.5, 0, 0, 3]);
    expect(body.label).toBe('Hashrate (Gh/s)');
  });

  it('answers 7 days in 4-hour points and 30 days in days, from the point of the first snapshot', async () => {
    const current = await seed();
    const week = chartResponse.parse((await t.app.inject({ url: '/v1/pool/stats/x11/chart?period=7d' })).json());
    const fourHours = 240 * MINUTE;
    const pointOf = (ms: number) => Math.floor(ms / fourHours) * fourHours;
    const older = current - CHART_POINTS * bucketMs;
    const label = (ms: number) => {
      const iso = new Date(ms).toISOString();
      return `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
    };
    // The snapshot of 24 hours ago starts the week alone in its point; the current point holds the
    // current snapshots, and the 1.5 Gh/s one when it fell in the same 4 hours.
    expect(week.x_axis[0]).toBe(label(pointOf(older)));
    expect(week.y_axis[0]).toBe(999);
    expect(week.x_axis.at(-1)).toBe(label(pointOf(current)));
    const together = pointOf(current - 3 * bucketMs + 5 * MINUTE) === pointOf(current);
    expect(week.y_axis.at(-1)).toBe(together ? 2.5 : 3);
    const month = chartResponse.parse((await t.app.inject({ url: '/v1/pool/stats/x11/chart?period=30d' })).json());
    expect(month.x_axis[0]).toBe(new Date(older).toISOString().slice(0, 10));
    expect(month.x_axis.at(-1)).toBe(new Date(current).toISOString().slice(0, 10));
    expect((await t.app.inject({ url: '/v1/pool/stats/x11/chart?period=1y' })).statusCode).toBe(400);
  });

  it('writes the x labels in the requested time zone', async () => {
    const current = await seed();
    const utc = chartResponse.parse((await t.app.inject({ url: '/v1/pool/stats/x11/chart?timezone=UTC' })).json());
    const kolkata = chartResponse.parse(
      (await t.app.inject({ url: '/v1/pool/stats/x11/chart?timezone=Asia/Kolkata' })).json(),
    );
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Kolkata',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(current));
    expect(kolkata.x_axis.at(-1)).toBe(local);
    // UTC+05:30: every label moves by five and a half hours; the points stay the same
    const minutes = (label: string) => Number(label.slice(0, 2)) * 60 + Number(label.slice(3));
    kolkata.x_axis.forEach((label, i) => {
      expect((minutes(label) - minutes(utc.x_axis[i] ?? '') + 1440) % 1440).toBe(330);
    });
    expect(kolkata.y_axis).toEqual(utc.y_axis);
  });

  it('answers 400 for a time zone that does not exist', async () => {
    for (const zone of ['Mars/Olympus_Mons', 'not a zone', '']) {
      const res = await t.app.inject({ url: `/v1/pool/stats/x11/chart?timezone=${encodeURIComponent(zone)}` });
      expect(res.statusCode).toBe(400);
      expect(errorResponse.parse(res.json())).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });

  it('answers no points (not 48 zeros) for an algorithm without snapshots', async () => {
    const body = chartResponse.parse((await t.app.inject({ url: '/v1/pool/stats/kheavyhash/chart' })).json());
    expect(body).toEqual({ x_axis: [], y_axis: [], label: 'Hashrate (H/s)' });
  });
});
