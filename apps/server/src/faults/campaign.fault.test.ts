import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { findLitecoind, type LitecoinRegtest, startLitecoinRegtest } from '@lodestone/chain/testing';
import { createDatabase, type Database, migrate, reconcileLedger } from '@lodestone/db';
import { insertTestAccount } from '@lodestone/db/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findNatsServer, NatsServer } from '../../test/natsServer.js';
import { PoolProcesses } from '../../test/poolProcesses.js';
import { buildBundle, freePort } from '../../test/process.js';
import { TcpProxy } from '../../test/tcpProxy.js';
import { type Fleet, startFleet } from '../demo/fleet.js';
import { SILENT_LOG } from '../stratum/log.js';

/**
 * Issue 32's fault campaign: the multi-process pool as an operator runs it — two stratum nodes, an
 * API, an active and a standby jobs process, on PostgreSQL and NATS JetStream, mining litecoind
 * regtest — and one fault at a time while miners (the demo fleet's real hashing client) count every
 * share the pool answered true. Each row is mined by its own account, so its shares are counted
 * apart: answered true by the pool (the miners' count) against applied to the accounting (the
 * database), and the blocks on the chain against the blocks table.
 *
 * PostgreSQL is the machine's own server, reached through a TCP relay that the test cuts: every open
 * session ends and new ones are refused, which is what a restart or an outage looks like to its
 * clients. NATS is a server of the test's own, killed (SIGKILL) and started again on its store. The
 * coin daemon is cut the same way as PostgreSQL, by a relay in front of its RPC port.
 *
 * FAULT_CAMPAIGN_SCALE (default 1) scales the fault durations for a quick local run; CI runs them
 * as the issue states them.
 */

const databaseUrl = process.env.TEST_DATABASE_URL;
const scale = Number(process.env.FAULT_CAMPAIGN_SCALE ?? '1');
const seconds = (s: number) => Math.max(1, Math.round(s * scale)) * 1000;

interface Row {
  fault: string;
  answered: number;
  /** Shares sent whose answer never came back (a killed or frozen node): they may or may not count. */
  unanswered: number;
  credited: number;
  lost: number;
  doubled: number;
  blocksFound: number;
  blocksRecorded: number;
  /**
   * From the fault's end until every process is ready, one jobs process active, and every share
   * answered by then applied. A kill or a freeze of a jobs process counts from the fault itself: the
   * pool must recover while it lasts, without anyone ending it.
   */
  recoveryMs: number | undefined;
  note: string;
}

/** What a fault did: when it ended (the pool's recovery counts from there) and what the table should say. */
interface FaultOutcome {
  endedAt: number;
  note?: string;
  /** Every miner must be mining again afterwards, through a share answered true (no operator action). */
  everyMinerMines?: boolean;
}

const TIMEOUT_MS = 25 * 60_000;

describe.skipIf(!databaseUrl || !findNatsServer() || !findLitecoind())('the fault campaign', () => {
  // FAULT_LOG_DIR keeps every process's log in that folder, for a human looking into a failure.
  const pool = new PoolProcesses(process.env.FAULT_LOG_DIR);
  let chain: LitecoinRegtest;
  let nats: NatsServer;
  let postgres: TcpProxy;
  let daemon: TcpProxy;
  let admin: Database;
  let database: Database;
  let databaseName: string;
  const stratumPorts: Record<string, number> = {};

  beforeAll(async () => {
    buildBundle();
    chain = await startLitecoinRegtest({
      // The daemon as docs/deployment.md tells an operator to set it up ("Coin daemons"): four stratum and jobs
      // processes, their long polls and submitblocks, and this test's own reads do not fit in Litecoin Core's
      // default four RPC threads (the likeliest reason CI once saw this test's getblockcount go unanswered for 30 s).
      extraArgs: ['-rpcthreads=16', '-rpcworkqueue=64', ...(process.env.FAULT_LITECOIND_ARGS ?? '').split(' ')].filter(
        Boolean,
      ),
    });
    nats = await NatsServer.start(await freePort());
    const target = new URL(databaseUrl ?? '');
    postgres = await TcpProxy.start(target.hostname, Number(target.port || 5432));
    daemon = await TcpProxy.start('127.0.0.1', chain.miner.rpcPort);

    admin = await createDatabase({ url: databaseUrl });
    databaseName = `lodestone_faults_${randomBytes(6).toString('hex')}`;
    await sql`create database ${sql.id(databaseName)}`.execute(admin.db);
    const direct = new URL(target);
    direct.pathname = `/${databaseName}`;
    database = await createDatabase({ url: direct.toString() });
    await migrate(database);
    const relayed = new URL(direct);
    relayed.hostname = '127.0.0.1';
    relayed.port = String(postgres.port);

    const rpc = new URL(chain.miner.rpcUrl);
    rpc.port = String(daemon.port);
    const common = {
      LOG_LEVEL: process.env.FAULT_LOG_LEVEL ?? 'warn',
      LOG_FORMAT: 'json',
      DATABASE_URL: relayed.toString(),
      NATS_URL: nats.url,
      NATS_STREAM_PREFIX: `FAULTS${randomBytes(3).toString('hex').toUpperCase()}`,
      HOST: '127.0.0.1',
      DEMO_WORKERS: '0',
      COINS: JSON.stringify([
        {
          ticker: 'LTC',
          algorithm: 'scrypt',
          daemons: [rpc.toString()],
          pool_address: chain.poolAddress,
          rules: ['mweb', 'segwit'],
          poll_interval_ms: 500,
        },
      ]),
    };
    for (const node of ['a', 'b']) {
      stratumPorts[node] = await freePort();
      const dataDir = mkdtempSync(path.join(tmpdir(), `lodestone-faults-${node}-`));
      pool.start(`stratum-${node}`, await freePort(), ['--role=stratum'], {
        ...common,
        NODE_NAME: `node-${node}`,
        DATA_DIR: dataDir,
        STRATUM_SHARE_INTERVAL_SECONDS: '2',
        STRATUM_LISTENERS: JSON.stringify([
          {
            algorithm: 'scrypt',
            port: stratumPorts[node],
            host: '127.0.0.1',
            start_difficulty: 0.005,
            min_difficulty: 0.0001,
          },
        ]),
      });
    }
    const noListeners = { STRATUM_LISTENERS: JSON.stringify([{ algorithm: 'scrypt', port: stratumPorts.a }]) };
    pool.start('api', await freePort(), ['--role=api'], { ...common, ...noListeners });
    for (const name of ['jobs-1', 'jobs-2']) {
      pool.start(name, await freePort(), ['--role=jobs'], {
        ...common,
        ...noListeners,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), `lodestone-faults-${name}-`)),
      });
    }
    await vi
      .waitFor(async () => expect(await pool.unready()).toEqual([]), { timeout: 120_000, interval: POLL_MS })
      .catch((error: unknown) => {
        throw new Error(`processes not ready\n${pool.logs()}`, { cause: error });
      });
    await vi.waitFor(async () => expect(await pool.activeJobs(), 'one active jobs process').toHaveLength(1), {
      timeout: 60_000,
      interval: POLL_MS,
    });
  }, 300_000);

  afterAll(async () => {
    await pool.stopAll();
    await database?.close();
    if (admin) {
      await sql`drop database if exists ${sql.id(databaseName)} with (force)`.execute(admin.db);
      await admin.close();
    }
    await nats?.down();
    await postgres?.down();
    await daemon?.down();
    await chain?.stop();
  }, 120_000);

  it('loses no share and no block, doubles none, and recovers without an operator from every fault', {
    timeout: TIMEOUT_MS,
  }, async () => {
    const rows: Row[] = [];
    let index = 0;

    /** Mines through one fault with an account of its own and adds the row. */
    async function row(fault: string, inject: () => Promise<FaultOutcome>): Promise<void> {
      index++;
      const prefix = `faults${index}w`;
      await insertTestAccount(database.db, `${prefix}1`);
      const heightBefore = await chain.miner.rpc.getBlockCount();
      const fleet = startFleet({
        targets: ['a', 'b'].map((node) => ({
          algorithm: 'scrypt' as const,
          host: '127.0.0.1',
          port: stratumPorts[node] as number,
        })),
        workers: 2,
        accounts: 1,
        accountPrefix: prefix,
        hashrate: { scrypt: 150 },
        shareIntervalSeconds: 2,
        reconnectDelayMs: 500,
        log: SILENT_LOG,
      });
      await vi.waitFor(() => expect(answered(fleet), `${fault}: the first shares`).toBeGreaterThanOrEqual(4), {
        timeout: 60_000,
        interval: POLL_MS,
      });
      const before = fleet.workers.map((w) => w.accepted);
      const outcome = await inject();
      const answeredByEnd = answered(fleet);
      let recoveryMs: number | undefined;
      try {
        await vi.waitFor(
          async () => {
            const healths = await pool.healths();
            expect(await pool.unready(healths), `${fault}: recovery`).toEqual([]);
            expect(await pool.activeJobs(healths), `${fault}: recovery`).toHaveLength(1);
            expect(await credited(`${prefix}1`), `${fault}: recovery`).toBeGreaterThanOrEqual(answeredByEnd);
          },
          { timeout: 240_000, interval: POLL_MS },
        );
        if (outcome.everyMinerMines) {
          const atEnd = fleet.workers.map((w) => w.accepted);
          await vi.waitFor(
            () => {
              for (const [i, w] of fleet.workers.entries()) {
                expect(w.accepted, `${fault}: ${w.login} mining again`).toBeGreaterThan(
                  Math.max(atEnd[i] ?? 0, before[i] ?? 0),
                );
              }
            },
            { timeout: 120_000, interval: POLL_MS },
          );
        }
        recoveryMs = Date.now() - outcome.endedAt;
      } catch {
        recoveryMs = undefined;
      }
      // Mining goes on after the recovery, then stops; everything answered must arrive.
      await vi
        .waitFor(() => expect(answered(fleet)).toBeGreaterThanOrEqual(answeredByEnd + 2), {
          timeout: 60_000,
          interval: POLL_MS,
        })
        .catch(() => undefined);
      await fleet.stop();
      const heightAfter = await chain.miner.rpc.getBlockCount();
      const hashes: string[] = [];
      for (let h = heightBefore + 1; h <= heightAfter; h++) hashes.push(await chain.miner.rpc.getBlockHash(h));
      const total = answered(fleet);
      const unanswered = fleet.workers.reduce((sum, w) => sum + w.unanswered, 0);
      await vi
        .waitFor(
          async () => {
            expect(await credited(`${prefix}1`)).toBeGreaterThanOrEqual(total);
            expect(await recorded(hashes)).toBe(hashes.length);
          },
          { timeout: 60_000, interval: POLL_MS },
        )
        .catch(() => undefined);
      const applied = await credited(`${prefix}1`);
      rows.push({
        fault,
        answered: total,
        unanswered,
        credited: applied,
        lost: Math.max(0, total - applied),
        // A share whose answer was lost with its connection may be applied: only more than that is a double.
        doubled: Math.max(0, applied - total - unanswered),
        blocksFound: hashes.length,
        blocksRecorded: await recorded(hashes),
        recoveryMs,
        note: outcome.note ?? '',
      });
    }

    await row('none (baseline)', async () => {
      await hold(seconds(5));
      return { endedAt: Date.now() };
    });

    await row('kill -9 a stratum node (restarted at once)', async () => {
      await pool.signal('stratum-a', 'SIGKILL');
      pool.restart('stratum-a');
      return { endedAt: Date.now() };
    });

    await row('rolling restart of both stratum nodes (SIGTERM, drained, restarted)', async () => {
      const notes: string[] = [];
      for (const node of ['stratum-a', 'stratum-b']) {
        const stoppedAt = Date.now();
        const code = await pool.terminate(node);
        if (code !== 0) throw new Error(`${node} exited with ${code} on SIGTERM`);
        notes.push(`${node} drained and exited 0 in ${seconds1(Date.now() - stoppedAt)}`);
        pool.restart(node);
        await vi.waitFor(async () => expect((await pool.health(node)).status).toBe(200), {
          timeout: 60_000,
          interval: POLL_MS,
        });
      }
      return { endedAt: Date.now(), note: notes.join('; '), everyMinerMines: true };
    });

    await row('kill -9 the active jobs process', async () => {
      const [active] = await pool.activeJobs();
      if (active === undefined) throw new Error('no active jobs process');
      const killedAt = Date.now();
      await pool.signal(active, 'SIGKILL');
      const takeover = await timeUntil(async () => (await pool.activeJobs()).length === 1, 60_000);
      pool.restart(active);
      return { endedAt: killedAt, note: `standby active after ${seconds1(takeover)}` };
    });

    await row('SIGSTOP the active jobs process for 30 s', async () => {
      const [active] = await pool.activeJobs();
      if (active === undefined) throw new Error('no active jobs process');
      const stoppedAt = Date.now();
      await pool.signal(active, 'SIGSTOP');
      const other = pool.all.find((p) => p.name.startsWith('jobs-') && p.name !== active)?.name as string;
      const takeover = await timeUntil(async () => (await pool.health(other)).body?.jobs === 'active', 60_000);
      // Frozen longer than its lease in any case (15 s), however short the quick run makes faults.
      await hold(stoppedAt + Math.max(seconds(30), 20_000) - Date.now());
      await pool.signal(active, 'SIGCONT');
      // Woken, it must find the lease taken and stand by, never act beside the new holder.
      const stoodBy = await timeUntil(async () => (await pool.health(active)).body?.jobs === 'standby', 30_000);
      return {
        endedAt: stoppedAt,
        note: `standby active after ${seconds1(takeover)}; the woken one stood by after ${seconds1(stoodBy)}`,
      };
    });

    for (const outage of [10, 120]) {
      await row(`NATS down ${outage} s`, async () => {
        await nats.down();
        await hold(seconds(outage));
        await nats.up();
        return { endedAt: Date.now() };
      });
    }

    for (const outage of [10, 60]) {
      await row(`PostgreSQL down ${outage} s`, async () => {
        await postgres.down();
        await hold(seconds(outage));
        await postgres.up();
        return { endedAt: Date.now() };
      });
    }

    await row('SIGSTOP a stratum node for 30 s', async () => {
      await pool.signal('stratum-b', 'SIGSTOP');
      await hold(seconds(30));
      await pool.signal('stratum-b', 'SIGCONT');
      return { endedAt: Date.now() };
    });

    await row('the coin daemon out of reach while blocks are found', async () => {
      await daemon.down();
      // Every share on regtest is also a block: the ones found now must reach the chain after all.
      await hold(seconds(15));
      await daemon.up();
      return { endedAt: Date.now() };
    });

    const problems = await reconcileLedger(database.db);
    printTable(rows, problems.length);
    const failed = rows.filter(
      (r) => r.lost > 0 || r.doubled > 0 || r.blocksRecorded !== r.blocksFound || r.recoveryMs === undefined,
    );
    expect(failed, pool.logs()).toEqual([]);
    expect(problems).toEqual([]);
    expect(rows.reduce((sum, r) => sum + r.answered, 0)).toBeGreaterThan(rows.length * 4);
    expect(rows.reduce((sum, r) => sum + r.blocksFound, 0)).toBeGreaterThan(0);
  });

  function answered(fleet: Fleet | undefined): number {
    return fleet?.workers.reduce((sum, w) => sum + w.accepted, 0) ?? 0;
  }

  /** Valid shares of the account applied to the accounting. */
  async function credited(account: string): Promise<number> {
    const { rows } = await sql<{ n: string }>`
      select coalesce(sum(m.valid), 0)::text as n
      from worker_stats_minute m join workers w on w.id = m.worker_id
      where w.account = ${account}`.execute(database.db);
    return Number(rows[0]?.n ?? 0);
  }

  /** How many of these block hashes the blocks table holds (each at most once: the hash is unique). */
  async function recorded(hashes: string[]): Promise<number> {
    if (hashes.length === 0) return 0;
    const { rows } = await sql<{ n: string }>`
      select count(distinct hash)::text as n from blocks where hash in (${sql.join(hashes)})`.execute(database.db);
    return Number(rows[0]?.n ?? 0);
  }
});

function printTable(rows: Row[], ledgerProblems: number): void {
  const header = [
    'fault',
    'answered true',
    'credited',
    'lost',
    'doubled',
    'blocks found',
    'blocks recorded',
    'recovery',
    'note',
  ];
  const lines = rows.map((r) => [
    r.fault,
    String(r.answered),
    r.unanswered > 0 ? `${r.credited} (${r.unanswered} unanswered)` : String(r.credited),
    String(r.lost),
    String(r.doubled),
    String(r.blocksFound),
    String(r.blocksRecorded),
    r.recoveryMs === undefined ? 'none' : seconds1(r.recoveryMs),
    r.note,
  ]);
  const table = [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
  process.stdout.write(`\nFault campaign (issue 32)\n${table}\nledger:check problems: ${ledgerProblems}\n`);
}

function seconds1(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** How often the campaign looks again at the pool's health, its miners and the ledger. */
const POLL_MS = 250;

/** How long the pool took to reach a state (a takeover, a stand-by): the table reports it. */
async function timeUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  await vi.waitFor(async () => expect(await check(), 'the change').toBe(true), {
    timeout: timeoutMs,
    interval: POLL_MS,
  });
  return Date.now() - started;
}

/**
 * Holds a fault (or the baseline's calm) for its length. The campaign's only fixed wait, on purpose:
 * the length of an outage is the fault itself, what the pool must ride out, not a state to await.
 */
async function hold(ms: number): Promise<void> {
  await sleep(Math.max(0, ms));
}
