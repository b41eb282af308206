import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase } from '@lodestone/db';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildBundle, freePort, type Run, run as runBundle, START_UP_MS, waitForHealth } from '../test/process.js';
import { NatsBus } from './bus/nats.js';

/** Sends mining.subscribe to a stratum port and returns the first answer line. */
function subscribe(port: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`${JSON.stringify({ id: 1, method: 'mining.subscribe', params: ['test/1.0'] })}\n`);
    });
    let buffer = '';
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer from stratum')));
    socket.on('data', (chunk) => {
      buffer += String(chunk);
      const newline = buffer.indexOf('\n');
      if (newline >= 0) {
        socket.end();
        resolve(JSON.parse(buffer.slice(0, newline)));
      }
    });
    socket.on('error', reject);
  });
}

/** The bundle with this file's defaults: two demo algorithms on ports the system picks, a small fleet. */
function run(env: Record<string, string>, args: string[] = []): Run {
  return runBundle(
    {
      LOG_LEVEL: 'warn',
      STRATUM_LISTENERS: JSON.stringify([
        { algorithm: 'sha256', port: 0, host: '127.0.0.1' },
        { algorithm: 'scrypt', port: 0, host: '127.0.0.1' },
      ]),
      DEMO_WORKERS: '2',
      ...env,
    },
    args,
  );
}

describe('the lodestone process', () => {
  beforeAll(() => {
    // The process under test is the real bundle that `npm start` runs.
    buildBundle();
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT: expected an integer'],
    [{ DATABASE_URL: 'mysql://root@localhost/pool' }, "DATABASE_URL: unsupported scheme 'mysql:'"],
    [{ FEE_PERCENT: '-1' }, 'FEE_PERCENT:'],
  ])('refuses to start with %o and names the setting', async (env, message) => {
    const r = run(env);
    const code = await r.exit;
    expect(code).not.toBe(0);
    expect(r.stderr()).toContain(message);
  });

  it('refuses to run only some roles without the NATS bus and PostgreSQL', async () => {
    const r = run({}, ['--role=stratum']);
    expect(await r.exit).toBe(78);
    expect(r.stderr()).toContain('needs NATS_URL');
    const bad = run({}, ['--role=miner']);
    expect(await bad.exit).toBe(78);
    expect(bad.stderr()).toContain('--role');
  });

  it('refuses to start the jobs role with a hot wallet key file other users can read (exit 78, the chmod named)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lodestone-key-'));
    const keyFile = path.join(dir, 'eth.key');
    writeFileSync(keyFile, `0x${'11'.repeat(32)}\n`);
    chmodSync(keyFile, 0o644);
    const wallet = { kind: 'evm', ticker: 'ETH', rpc_url: 'http://127.0.0.1:1', chain_id: 1, key_file: keyFile };
    const r = run({ DATA_DIR: dir, WALLETS: JSON.stringify([{ ...wallet, max_fee_gwei: '50' }]) });
    expect(await r.exit).toBe(78);
    expect(r.stderr()).toContain(`can be read or written by other users (mode 644); run chmod 600 ${keyFile}`);
  });

  // Issue 32: on PostgreSQL the jobs role deadlocked at start-up (eleven jobs, ten connections), so
  // nothing was credited, no job ran, and SIGTERM could not stop it.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'starts on PostgreSQL (DATABASE_URL): serves the API, counts demo shares, runs its jobs, stops on SIGTERM',
    { timeout: START_UP_MS + 120_000 },
    async () => {
      const adminUrl = process.env.TEST_DATABASE_URL as string;
      const admin = await createDatabase({ url: adminUrl });
      const name = `lodestone_start_${randomBytes(6).toString('hex')}`;
      await sql`create database ${sql.id(name)}`.execute(admin.db);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const port = await freePort();
      const r = run({
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'lodestone-data-')),
        DATABASE_URL: url.toString(),
      });
      let database: Awaited<ReturnType<typeof createDatabase>> | undefined;
      try {
        await waitForHealth(port, r);
        database = await createDatabase({ url: url.toString() });
        const { db } = database;
        const count = async (table: string) =>
          Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]?.n);
        // Each table is written by its own job: accounting, prices, the pool stats rollup, wallet snapshots.
        await vi.waitFor(
          async () => {
            for (const table of ['share_batches', 'prices', 'pool_stats', 'wallet_snapshots']) {
              expect(await count(table), table).toBeGreaterThan(0);
            }
          },
          { timeout: 60_000, interval: 500 },
        );
        const stats = await fetch(`http://127.0.0.1:${port}/v1/pool/stats`);
        expect(stats.status).toBe(200);
        // One process on PostgreSQL takes the jobs lease and says so.
        const health = await (await fetch(`http://127.0.0.1:${port}/v1/health`)).json();
        expect(health).toMatchObject({ status: 'ok', database: 'up', bus: 'up', jobs: 'active' });
        // PPS credits: whole units on the ledger, or the fractions below one unit a CPU's share earns.
        await vi.waitFor(
          async () => expect((await count('ledger_entries')) + (await count('pps_accruals'))).toBeGreaterThan(0),
          { timeout: 30_000, interval: 500 },
        );
        r.child.kill('SIGTERM');
        expect(await r.exit).toBe(0);
      } finally {
        if (r.child.exitCode === null) r.child.kill('SIGKILL');
        await database?.close();
        await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.db);
        await admin.close();
      }
    },
  );

  // A first start creates the embedded database (PGlite's initdb, then the migrations): seconds on a
  // quiet machine, up to about 20 s on a loaded CI box, so start-up gets a minute.
  it('starts on the embedded database, serves the API, and exits cleanly on SIGTERM', {
    timeout: START_UP_MS + 30_000,
  }, async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lodestone-data-'));
    const r = run({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir });
    await waitForHealth(port, r);
    const stats = await fetch(`http://127.0.0.1:${port}/v1/pool/stats`);
    expect(stats.status).toBe(200);
    expect(Object.keys((await stats.json()) as object)).toHaveLength(6);
    expect(existsSync(dataDir) && readdirSync(dataDir).length).toBeGreaterThan(0);

    // The stratum ports the API publishes are the ones really listening.
    const stratum = (await (await fetch(`http://127.0.0.1:${port}/v1/pool/stratum`)).json()) as {
      listeners: { algorithm: string; port: number; demo: boolean }[];
    };
    expect(stratum.listeners.map((l) => [l.algorithm, l.demo])).toEqual([
      ['sha256', true],
      ['scrypt', true],
    ]);
    for (const l of stratum.listeners) {
      expect(l.port).toBeGreaterThan(0);
      const greeting = await subscribe(l.port);
      expect(greeting).toMatchObject({ id: 1, error: null });
    }
    // Stratum and HTTP metrics share the process's registry.
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toContain('lodestone_stratum_sessions');
    expect(metrics).toContain('lodestone_http_request_duration_seconds');

    r.child.kill('SIGTERM');
    expect(await r.exit).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/v1/health/live`)).rejects.toThrow();
  });

  it('shows six live algorithms on the home page within a minute of starting on its defaults', {
    timeout: START_UP_MS + 70_000,
  }, async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lodestone-data-'));
    // The default listeners (one trio per algorithm) on ports the system picks, the default fleet.
    const algorithms = ['sha256', 'scrypt', 'x11', 'eaglesong', 'blake2s', 'kheavyhash'];
    const listeners = algorithms.map((algorithm) => ({ algorithm, port: 0, host: '127.0.0.1' }));
    const r = runBundle({
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STRATUM_LISTENERS: JSON.stringify(listeners),
    });
    try {
      // The minute counts from when the process answers (start-up itself is slower on a loaded CI box).
      await vi.waitFor(
        async () => expect(await fetch(`http://127.0.0.1:${port}/v1/health`).catch(() => undefined)).toBeDefined(),
        { timeout: START_UP_MS, interval: 100 },
      );
      type Row = { hashrate: number; miners: number };
      await vi.waitFor(
        async () => {
          const stats = await fetch(`http://127.0.0.1:${port}/v1/pool/stats`).catch(() => undefined);
          const rows = stats?.ok ? ((await stats.json()) as Record<string, Row>) : {};
          const dead = algorithms.filter((a) => !((rows[a]?.miners ?? 0) > 0 && (rows[a]?.hashrate ?? 0) > 0));
          expect(dead, r.stderr()).toEqual([]);
        },
        { timeout: 60_000, interval: 1000 },
      );
    } finally {
      r.child.kill('SIGTERM');
    }
    expect(await r.exit).toBe(0);
  });

  it(
    'carries shares through NATS JetStream when NATS_URL is set',
    async () => {
      const port = await freePort();
      const prefix = `T${Date.now().toString(36).toUpperCase()}`;
      const r = run({
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'lodestone-data-')),
        NATS_URL: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
        NATS_STREAM_PREFIX: prefix,
      });
      try {
        // Start-up first (the embedded database's initdb): on a loaded machine it took most of the minute below.
        await waitForHealth(port, r);
        // The demo fleet's shares go stratum → NATS → accounting → rollup (every 20 s) → API.
        await vi.waitFor(
          async () => {
            const res = await fetch(`http://127.0.0.1:${port}/v1/pool/stats`).catch(() => undefined);
            const sha256 = res?.ok ? ((await res.json()) as { sha256: { hashrate: number } }).sha256.hashrate : 0;
            expect(sha256, r.stderr()).toBeGreaterThan(0);
          },
          { timeout: 65_000, interval: 500 },
        );
      } finally {
        r.child.kill('SIGTERM');
        expect(await r.exit).toBe(0);
        const cleaner = await NatsBus.connect({
          servers: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
          prefix,
        });
        await cleaner.deleteStreams();
        await cleaner.close();
      }
    },
    START_UP_MS + 90_000,
  );
});
