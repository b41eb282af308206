/**
 * npm run bench:api — throughput of GET /v1/pool/stats against a bare route of the same server
 * (/v1/health/live, no database) in the same run, so the ratio shows what the database read and
 * the contract check cost, whatever the machine. The load generator runs in a child process so it
 * does not share the server's event loop. `--short` runs each target for 2 s (CI proves it works).
 */
import { fork } from 'node:child_process';
import { createDatabase, insertPoolStats, MEMORY_DATA_DIR, migrate } from '@lodestone/db';
import { ALGORITHMS } from '@lodestone/domain';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { describeStratum } from '../src/services/stratumInfo.js';

interface LoadResult {
  url: string;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

const LOAD_FLAG = '--load';

async function runLoad(url: string, seconds: number): Promise<LoadResult> {
  const { default: autocannon } = await import('autocannon');
  const result = await autocannon({ url, connections: 16, duration: seconds });
  return {
    url,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

function measure(url: string, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(process.argv[1] as string, [LOAD_FLAG, url, String(seconds)], { stdio: 'inherit' });
    child.once('message', (m) => resolve(m as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
    });
  });
}

async function main(): Promise<void> {
  const short = process.argv.includes('--short');
  const seconds = short ? 2 : 10;
  // DATABASE_URL (through the usual configuration) selects PostgreSQL; unset, the embedded database in memory.
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const database = await createDatabase({ url: config.databaseUrl, dataDir: MEMORY_DATA_DIR });
  await migrate(database);
  const now = new Date();
  for (const [i, a] of ALGORITHMS.entries()) {
    await insertPoolStats(database.db, {
      algorithm: a.key,
      taken_at: now,
      hashrate: String(1.5e12 * (i + 1)),
      miners: 10 * (i + 1),
      workers: 25 * (i + 1),
      profit: '0.0000000000000001',
      profit_avg_24h: '0.00000000000000009',
    });
  }
  const app = await buildApp({
    config,
    database,
    network: { demo: false },
    stratum: () => describeStratum(config),
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const base = `http://127.0.0.1:${address.port}/v1`;

  const bare = await measure(`${base}/health/live`, seconds);
  const stats = await measure(`${base}/pool/stats`, seconds);
  await app.close();
  await database.close();

  for (const r of [bare, stats]) {
    if (r.errors > 0 || r.non2xx > 0) throw new Error(`${r.url}: ${r.errors} errors, ${r.non2xx} non-2xx answers`);
  }
  const row = (name: string, r: LoadResult) =>
    `${name.padEnd(28)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s   p99 ${r.p99Ms.toFixed(1).padStart(6)} ms`;
  console.log(`bench:api (${database.engine}, ${seconds}s per target, 16 connections)`);
  console.log(row('GET /v1/health/live (bare)', bare));
  console.log(row('GET /v1/pool/stats', stats));
  console.log(
    `ratio pool/stats ÷ bare: throughput ${(stats.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}, p99 ${(stats.p99Ms / Math.max(bare.p99Ms, 0.001)).toFixed(2)}`,
  );
}

if (process.argv[2] === LOAD_FLAG) {
  const [, , , url, seconds] = process.argv;
  runLoad(url as string, Number(seconds)).then(
    (r) => {
      process.send?.(r);
      process.disconnect?.();
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
