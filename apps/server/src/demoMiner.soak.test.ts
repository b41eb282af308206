import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DemoJobSource, encodeSegwitAddress } from '@lodestone/chain';
import {
  captchaChallengeResponse,
  coinsResponse,
  lifetimeEarningsResponse,
  miningSummaryResponse,
  miningWorkersResponse,
  paymentConfigResponse,
  resultResponse,
  revenueBalanceResponse,
  revenuePayoutsResponse,
  stratumResponse,
} from '@lodestone/contract';
import {
  DEFAULT_STATS_WINDOW_MINUTES,
  Exact,
  feeRate,
  HASHRATE_UNITS,
  networkDifficulty,
  shareValue,
  statsWindow,
} from '@lodestone/domain';
import { POW } from '@lodestone/pow';
import { solveChallenge } from 'altcha-lib/v1';
import { beforeAll, describe, expect, it, onTestFailed, vi } from 'vitest';
import type { z } from 'zod';
import { buildBundle, freePort, type Run, run, waitForHealth } from '../test/process.js';
import { type Fleet, startFleet } from './demo/fleet.js';
import { SILENT_LOG } from './stratum/log.js';

/**
 * The dashboard's acceptance point, on the real program: a miner on the demo network sees its worker
 * with a hashrate within 10% of what it hashes over the statistics window, its balance rising with PPS
 * credits, and after a payout the payment listed with its txid.
 *
 * A soak test: `npm run test:soak` (SOAK=full) runs it over the pool's default 10-minute window (about
 * 12 minutes); `npm test` runs the short form, the same test over a 1-minute window (2 to 3 minutes).
 * The window is made of whole UTC minutes (STATS_WINDOW_MINUTES: the complete minutes and the current one
 * so far, summed from the pool's minute rows), so one minute is the shortest there is.
 *
 * Statistics: a hashrate read from shares is off by about 1/√shares. Its edges are off in time too: a
 * share batch (one per 5 s) counts wholly in the minute it ends in, so the window may hold up to 5 s of
 * shares from before its start, and the newest batch (up to 5 s, and the moment accounting takes to
 * commit it) may not be in the database yet when it is read. The window is read at least 30 s into a
 * minute, so it is at least 90 s long: the edges cost at most 6.1%, and 10% stays a 4σ bound with at
 * more than about 10,600 shares in the window (the test works the bound out for the window it reads and asserts
 * the count). At 160 shares a second the window holds about 14,400 (±0.8%). The difficulty is pinned on
 * the port so vardiff cannot stretch the interval; 160 shares a second of 128 hashes each is 20,480 H/s
 * of sha256d: hashing them takes under a tenth of one core, the pool about a tenth more to take them.
 */

/** SOAK=full: the soak tests at full length (`npm run test:soak`); else their short form. */
const FULL = process.env.SOAK === 'full';
/** At full length the pool runs with its default window (STATS_WINDOW_MINUTES unset). */
const WINDOW_MINUTES = FULL ? DEFAULT_STATS_WINDOW_MINUTES : 1;
const SHARES_PER_SECOND = 160;
const HASHES_PER_SHARE = 128;
const HASHRATE = SHARES_PER_SECOND * HASHES_PER_SHARE;
const SHARE_DIFFICULTY = HASHES_PER_SHARE / POW.sha256.hashesPerDifficulty;
const FEE_PERCENT = '1';
const MINUTE_MS = 60_000;
/** The window is read between these moments of a minute: at least 30 s of the current minute in it. */
const READ_FROM_MS = 30_000;
const READ_UNTIL_MS = 55_000;
/**
 * How far the window's shares may be off in time: a share batch (5 s) and accounting's commit. The start
 * can only add shares and the end only miss some, so together they are off by at most this much.
 */
const EDGE_SECONDS = 5.5;

/**
 * The share count a window of `seconds` must exceed for 10% to be a 4σ bound with its edges off the
 * most they can be; never less than 2,500, the floor that shows the miner kept its rate over a long window.
 */
function sharesFor4Sigma(seconds: number): number {
  return Math.max(2500, Math.ceil((4 / (0.1 - EDGE_SECONDS / seconds)) ** 2));
}

/** A session of the website: the site's Origin on every call and the session cookie once logged in. */
class Site {
  cookie = '';
  constructor(readonly base: string) {}

  private headers(): Record<string, string> {
    return { origin: this.base, ...(this.cookie ? { cookie: `lodestone_session=${this.cookie}` } : {}) };
  }

  async get<T extends z.ZodType>(route: string, query: Record<string, string>, schema: T): Promise<z.output<T>> {
    const url = `${this.base}/v1${route}?${new URLSearchParams(query)}`;
    const res = await fetch(url, { headers: this.headers() });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET ${route}: ${res.status} ${body}`);
    return schema.parse(JSON.parse(body));
  }

  /** A form POST encoded as the browser's FormData; keeps the session the answer sets. */
  async post(route: string, query: Record<string, string>, fields: Record<string, string>): Promise<void> {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    const url = `${this.base}/v1${route}?${new URLSearchParams(query)}`;
    const res = await fetch(url, { method: 'POST', body: form, headers: this.headers() });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`POST ${route}: ${res.status} ${body}`);
    resultResponse.parse(JSON.parse(body));
    const session = res.headers.getSetCookie().find((c) => c.startsWith('lodestone_session='));
    if (session) this.cookie = session.slice('lodestone_session='.length).split(';')[0] ?? '';
  }

  /** The robot check, solved for real as the browser widget does. */
  async captcha(): Promise<string> {
    const c = await this.get('/captcha/challenge', {}, captchaChallengeResponse);
    const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
    if (!solution) throw new Error('captcha challenge not solvable');
    const { algorithm, challenge, salt, signature } = c;
    return Buffer.from(JSON.stringify({ algorithm, challenge, number: solution.number, salt, signature })).toString(
      'base64',
    );
  }
}

/** A hashrate answer in H/s, from its value and unit. */
function hashesPerSecond(value: number, units: string): number {
  const step = HASHRATE_UNITS.indexOf(units as (typeof HASHRATE_UNITS)[number]);
  if (step < 0) throw new Error(`unknown hashrate unit ${units}`);
  return value * 1000 ** step;
}

interface Sample {
  at: number;
  hashes: number;
  accepted: number;
}

/** The miner's own count at `at`, read between the two samples around it. */
function countAt(samples: readonly Sample[], at: number, key: 'hashes' | 'accepted'): number {
  const after = samples.findIndex((s) => s.at >= at);
  if (after <= 0) throw new Error(`no samples around ${new Date(at).toISOString()}`);
  const a = samples[after - 1] as Sample;
  const b = samples[after] as Sample;
  return a[key] + ((b[key] - a[key]) * (at - a.at)) / (b.at - a.at);
}

/** A coin amount in decimal text as smallest units; refuses anything finer than the coin's unit. */
function toUnits(amount: string, decimals: number): bigint {
  const shifted = Exact.of(amount).shifted(decimals);
  const units = shifted.floor();
  if (shifted.compare(Exact.of(units)) !== 0) throw new Error(`${amount} has more than ${decimals} decimals`);
  return units;
}

/** How often a test looks again at the pool's answers (its batches come every 5 s). */
const EVERY_SECOND = 1000;

describe('a miner on the demo network', () => {
  beforeAll(() => buildBundle(), 120_000);

  it('sees its worker at the hashrate it mines, its balance rising with PPS credits, and its payout', {
    // About the window and 1 to 2 minutes more on a quiet machine (the statistics window must lie wholly
    // after the miner started, and a payout run must come); a loaded CI machine needs the margin.
    timeout: (WINDOW_MINUTES + 8) * MINUTE_MS,
  }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const r: Run = run({
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'lodestone-data-')),
      LOG_LEVEL: 'warn',
      STRATUM_LISTENERS: JSON.stringify([
        {
          algorithm: 'sha256',
          port: 0,
          host: '127.0.0.1',
          start_difficulty: SHARE_DIFFICULTY,
          min_difficulty: SHARE_DIFFICULTY,
          max_difficulty: SHARE_DIFFICULTY,
        },
      ]),
      // Only this miner: the pool's own fleet would cost CPU and add nothing to the account's figures.
      DEMO_WORKERS: '0',
      // Shares valued at the demo chain's own easy difficulty: the balance reaches the payout threshold
      // within minutes (at the default, a real coin's difficulty, 4 kH/s earns nothing in a day).
      DEMO_VALUATION: 'chain',
      ...(FULL ? {} : { STATS_WINDOW_MINUTES: String(WINDOW_MINUTES) }),
      PAYOUTS_EVERY_MINUTES: '1',
      FEE_PERCENT,
      // The robot check's work is a setting; a small one keeps registering fast (it is still solved).
      CAPTCHA_MAX_NUMBER: '1000',
    });
    onTestFailed(() => console.error(`lodestone stderr:\n${r.stderr()}\nlodestone log (newest part):\n${r.stdout()}`));
    let fleet: Fleet | undefined;
    let sampler: NodeJS.Timeout | undefined;
    try {
      await waitForHealth(port, r, 60_000);
      const site = new Site(base);

      // The port the pool publishes is the demo network's, at the pinned difficulty.
      const { listeners } = await site.get('/pool/stratum', {}, stratumResponse);
      expect(listeners).toHaveLength(1);
      const listener = listeners[0] as (typeof listeners)[number];
      expect(listener).toMatchObject({
        algorithm: 'sha256',
        demo: true,
        start_difficulty: SHARE_DIFFICULTY,
        min_difficulty: SHARE_DIFFICULTY,
        max_difficulty: SHARE_DIFFICULTY,
      });

      // Registering creates the account the stratum login `account.worker` names.
      const prefix = `m${process.pid}x`;
      const account = `${prefix}1`;
      await site.post(
        '/user/register',
        {},
        {
          username: account,
          email: `${account}@example.com`,
          password: 'correct horse battery',
          referral: '',
          captchaToken: await site.captcha(),
        },
      );
      expect(site.cookie).not.toBe('');
      const mining = { account_name: account, algorithm: 'sha256' };

      fleet = startFleet({
        targets: [{ algorithm: 'sha256', host: '127.0.0.1', port: listener.port }],
        workers: 1,
        accounts: 1,
        accountPrefix: prefix,
        hashrate: { sha256: HASHRATE },
        shareIntervalSeconds: HASHES_PER_SHARE / HASHRATE,
        reconnectDelayMs: 1000,
        log: SILENT_LOG,
      });
      const worker = fleet.workers[0];
      if (!worker) throw new Error('no worker');
      expect(worker.login).toBe(`${account}.rig1`);
      // The miner's own count of the hashes it did, against which the dashboard is judged.
      const samples: Sample[] = [{ at: Date.now(), hashes: 0, accepted: 0 }];
      sampler = setInterval(
        () => samples.push({ at: Date.now(), hashes: worker.hashes, accepted: worker.accepted }),
        1000,
      );
      await vi.waitFor(() => expect(worker.accepted, 'the first accepted share').toBeGreaterThan(0), {
        timeout: 30_000,
        interval: EVERY_SECOND,
      });
      const startedAt = (samples.findLast((s) => s.hashes === 0) as Sample).at;

      // Balances rise with every share batch (instant credits at the static demo prices); nothing can
      // be paid yet, as the account has no payout address.
      const btcBalance = async () => {
        const rows = await site.get('/user/revenue/balance', { account_name: account }, revenueBalanceResponse);
        const btc = rows.find((row) => row.coin_ticker === 'BTC');
        return { rows, units: btc ? BigInt(btc.coin_balance) : 0n, warning: btc?.show_warning };
      };
      const balances: bigint[] = [];
      // Every 10 s holds at least one share batch (one per 5 s), so within 10 s each reading is above the one before.
      for (let i = 0; i < 6; i++) {
        const before = balances.at(-1) ?? 0n;
        const balance = await vi.waitFor(
          async () => {
            const reading = await btcBalance();
            expect(reading.units).toBeGreaterThan(before);
            return reading;
          },
          { timeout: 10_000, interval: EVERY_SECOND },
        );
        expect(balance.rows.map((row) => row.coin_ticker)).toEqual(['BTC']);
        expect(balance.warning).toBe(true);
        balances.push(balance.units);
      }

      // The payout address, set as the website does, at the coin's smallest threshold and interval.
      const coins = await site.get('/coins', {}, coinsResponse);
      const btc = coins.BTC;
      if (!btc) throw new Error('BTC is not in the coin catalogue');
      expect(btc.payouts_enabled).toBe(true);
      const address = encodeSegwitAddress(
        'bc',
        0,
        Uint8Array.from({ length: 20 }, (_, i) => (i * 37 + 11) & 255),
      );
      await site.post(
        '/user/payment_config/update',
        { account_name: account },
        {
          payment_settings: JSON.stringify({
            BTC: {
              threshold: btc.threshold_min,
              interval: btc.interval_min,
              addresses: [{ address, proportion: 100 }],
            },
          }),
          // Setting where the money goes asks for the password again (docs/money.md).
          password: 'correct horse battery',
        },
      );
      const config = await site.get('/user/payment_config', { account_name: account }, paymentConfigResponse);
      // The first payout setup is not paused for 24 hours: nothing was ever paid elsewhere.
      expect(config.payout_settings).toEqual([
        {
          ticker: 'BTC',
          threshold: btc.threshold_min,
          interval: btc.interval_min,
          addresses: [{ address, percentage: 100 }],
          paused_until: null,
        },
      ]);
      // Mined up to the coin's smallest threshold (the balance rises with every batch, as above).
      const beforePayout = await vi.waitFor(
        async () => {
          const { units } = await btcBalance();
          expect(units).toBeGreaterThanOrEqual(toUnits(btc.threshold_min, btc.decimals));
          return units;
        },
        { timeout: 60_000, interval: EVERY_SECOND },
      );

      // The payout job runs every minute; the demo wallet sends at once with a `demo…` txid.
      const payout = await vi.waitFor(
        async () => {
          const list = await site.get('/user/revenue/payouts', { account_name: account }, revenuePayoutsResponse);
          const sent = list.find((p) => p.payout_txid !== 'Pending');
          expect(sent, 'the payout').toBeDefined();
          return sent as (typeof list)[number];
        },
        { timeout: 150_000, interval: EVERY_SECOND },
      );
      const afterPayout = await btcBalance();
      const paid = BigInt(payout.coin_balance);
      expect(payout).toMatchObject({
        coin_ticker: 'BTC',
        coin_decimals: btc.decimals,
        payout_address: address,
        payout_txid_url: null,
      });
      expect(payout.payout_txid).toMatch(/^demo[0-9a-f]{60}$/);
      // The whole balance was paid: at least what it held when the address was set; what is left is
      // only what was credited since, far less than the payout.
      expect(paid).toBeGreaterThanOrEqual(beforePayout);
      expect(afterPayout.units).toBeLessThan(paid);
      // The coin keeps its row (payouts are set up for it), now without the "cannot be paid" warning.
      expect(afterPayout.rows.map((b) => b.coin_ticker)).toContain('BTC');
      expect(afterPayout.warning).toBe(false);

      // Once the statistics window lies wholly after the miner started, it is "mining for the whole window";
      // it is read far enough into a minute to be long enough, and far enough from its end that the
      // reading stays in that minute.
      const windowCovered = () => {
        const now = Date.now();
        const intoMinute = now % MINUTE_MS;
        return (
          statsWindow(new Date(now), WINDOW_MINUTES).from.getTime() >= startedAt &&
          intoMinute >= READ_FROM_MS &&
          intoMinute < READ_UNTIL_MS
        );
      };
      await vi.waitFor(() => expect(windowCovered(), 'the window after the start').toBe(true), {
        timeout: (WINDOW_MINUTES + 1) * MINUTE_MS + READ_UNTIL_MS,
        interval: EVERY_SECOND,
      });

      const asked = Date.now();
      const workers = await site.get('/user/mining/workers', mining, miningWorkersResponse);
      const summary = await site.get('/user/mining', mining, miningSummaryResponse);
      const answered = Date.now();
      // The samples must reach past the moment of reading before it can be read between two of them.
      await vi.waitFor(() => expect(samples.at(-1)?.at).toBeGreaterThan(answered), {
        timeout: 5000,
        interval: 100,
      });
      // The server read its clock between asking and answering; its window is statsWindow of that.
      const readAt = (asked + answered) / 2;
      const window = statsWindow(new Date(readAt), WINDOW_MINUTES);
      const hashed = countAt(samples, readAt, 'hashes') - countAt(samples, window.from.getTime(), 'hashes');
      const sharesInWindow = countAt(samples, readAt, 'accepted') - countAt(samples, window.from.getTime(), 'accepted');
      const real = hashed / window.seconds;

      expect(workers).toHaveLength(1);
      const row = workers[0] as (typeof workers)[number];
      expect(row.name).toBe('rig1');
      const shown = hashesPerSecond(row.hashrate, row.hashrate_units);
      const card = hashesPerSecond(summary.hashrate, summary.hashrate_units);
      const figures = {
        window: `${window.from.toISOString()} + ${window.seconds.toFixed(1)} s`,
        realHs: Math.round(real),
        workerHs: shown,
        cardHs: card,
        workerError: `${(((shown - real) / real) * 100).toFixed(2)}%`,
        sharesInWindow: Math.round(sharesInWindow),
        sharesFor4Sigma: sharesFor4Sigma(window.seconds),
        accepted: worker.accepted,
        rejected: worker.rejected,
        validShares: row.valid_shares,
        balances: balances.map(String),
        beforePayout: String(beforePayout),
        payout: { amount: payout.coin_balance, txid: payout.payout_txid, date: payout.payout_date },
        afterPayout: String(afterPayout.units),
      };
      // The share count is what makes the 10% bound a statistical certainty; fewer would mean the miner
      // could not hash at its rate and the comparison proves less.
      expect(sharesInWindow, JSON.stringify(figures)).toBeGreaterThan(sharesFor4Sigma(window.seconds));
      expect(Math.abs(shown / real - 1), JSON.stringify(figures)).toBeLessThan(0.1);
      expect(Math.abs(card / real - 1), JSON.stringify(figures)).toBeLessThan(0.1);
      expect(summary).toMatchObject({ active_workers: 1, total_workers: 1 });
      expect(summary.estimated_revenue).toBeGreaterThan(0);
      // Valid shares reach the dashboard within a share batch (5 s) plus accounting.
      expect(row.valid_shares).toBeLessThanOrEqual(worker.accepted);
      expect(row.valid_shares).toBeGreaterThanOrEqual(countAt(samples, asked - 30_000, 'accepted'));
      expect(row.invalid_shares + row.stale_shares).toBeLessThanOrEqual(worker.rejected);

      await fleet.stop();
      fleet = undefined;
      clearInterval(sampler);
      const accepted = worker.accepted;

      // What PPS owes for every accepted share, worked out from the demo network's block reward and
      // difficulty (the pool runs the default demo chain when it has no fleet of its own, valued at its
      // own target), less the fee.
      const demo = new DemoJobSource({ algorithm: 'sha256', valuation: 'chain' });
      await demo.start();
      const job = demo.current();
      await demo.stop();
      if (!job) throw new Error('no demo job');
      const gross = shareValue(
        Exact.of(SHARE_DIFFICULTY).times(accepted),
        job.coinbaseValue,
        networkDifficulty(job.valuationTarget, POW.sha256.hashesPerDifficulty),
      );
      const owed = gross.times(Exact.ONE.minus(feeRate(FEE_PERCENT, 0))).floor();

      // The last batches are credited a few seconds after the miner stops. Whole units are credited and
      // the fraction carried, so the ledger holds the owed amount or one unit less.
      let lifetime = 0n;
      let balance: Awaited<ReturnType<typeof btcBalance>> | undefined;
      try {
        await vi.waitFor(
          async () => {
            const earned = await site.get(
              '/user/revenue/lifetimeearnings',
              { ...mining, timezone: 'UTC' },
              lifetimeEarningsResponse,
            );
            lifetime = toUnits(earned.BTC ?? '0', btc.decimals);
            balance = await btcBalance();
            expect(lifetime).toBeGreaterThanOrEqual(owed - 1n);
          },
          { timeout: 60_000, interval: EVERY_SECOND },
        );
      } finally {
        Object.assign(figures, { owed: String(owed), lifetime: String(lifetime), final: String(balance?.units) });
        console.info(`demo miner: ${JSON.stringify(figures)}`);
      }
      expect(lifetime).toBeLessThanOrEqual(owed);
      // Every credit is in the balance except exactly what the payout took.
      expect(balance?.units).toBe(lifetime - paid);
      // With an address for the coin, the balance no longer carries the "cannot be paid" warning.
      expect(balance?.warning).toBe(false);
      const payouts = await site.get('/user/revenue/payouts', { account_name: account }, revenuePayoutsResponse);
      expect(payouts).toEqual([payout]);

      const stopping = Date.now();
      r.child.kill('SIGTERM');
      expect(await r.exit).toBe(0);
      console.info(`demo miner: the pool stopped ${Date.now() - stopping} ms after SIGTERM`);
      // Nothing went wrong on the way: the pool logged no error (pino level 50 and up) the whole run.
      expect(r.stdout()).not.toMatch(/"level":(5|6)\d/);
    } finally {
      clearInterval(sampler);
      await fleet?.stop();
      if (r.child.exitCode === null && r.child.signalCode === null) {
        r.child.kill('SIGTERM');
        await r.exit;
      }
    }
  });
});
