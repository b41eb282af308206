/**
 * npm run bench:stratum — the stratum server under load over loopback, per algorithm and dialect
 * (every case of stratumCases.ts: a job source that needs no node and the dialect's miner side):
 *
 * - accepted shares per second per core: shares accepted ÷ CPU seconds the server process used
 *   (the load generator runs in a child process, so its CPU is not counted);
 * - p99 submit-to-reply latency, with every session waiting for its answer before the next share
 *   (as miners do); the answer's time is taken as soon as the generator reads it;
 * - resident memory per idle session (subscribed, authorized, holding a job);
 * - protocol overhead: shares per CPU second ÷ raw hashes per second of the same algorithm measured
 *   in the same run. 1.0 would mean the server costs nothing beyond the hash it must compute.
 *
 * Shares are real: the port's difficulty is the lowest there is (every hash meets it), so the
 * generator's miner finds a share with its first hash and the server still rebuilds and hashes every
 * header. For the throughput run the generator mines its shares before the clock starts (mineAhead). `--short` runs a few seconds in all (CI proves it works); `--throughput` runs only the
 * throughput and idle-memory part, `--paced` only the paced part, `--algorithms=sha256,x11` only
 * those cases.
 *
 * SCRYPT is measured twice: plain, and merge-mined with two aux chains (case `scrypt+merged`: Dogecoin
 * and Bellscoin at mainnet-like targets, so that no share solves an aux block either, and what it adds
 * is the commitment in the coinbase and each share's check against the aux targets, as in
 * production). The report prints the merged case's shares per second per core beside the plain case's
 * and their ratio (issue 34: within 5%). `--algorithms=scrypt` runs both cases, `--algorithms=scrypt+merged`
 * the merged one alone (no ratio then).
 */
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AlgorithmKey } from '@lodestone/domain';
import { CKB_POW_MESSAGE_LENGTH, HEADER_LENGTH, KADENA_WORK_LENGTH, KASPA_POW_INPUT_LENGTH, POW } from '@lodestone/pow';
import { MinerConnection } from '../src/stratum/client/minerConnection.js';
import type { MinerDialect, MinerSearch } from '../src/stratum/client/minerDialect.js';
import { SILENT_LOG } from '../src/stratum/log.js';
import { MAX_TARGET } from '../src/stratum/pow.js';
import { startStratum } from '../src/stratum/startStratum.js';
import { benchCase, STRATUM_BENCH_CASES, type StratumBenchCase } from './stratumCases.js';

const CHILD_FLAG = '--generator';

interface LoadRequest {
  kind: 'load';
  /** The case's key (stratumCases.ts). */
  key: string;
  port: number;
  sessions: number;
  seconds: number;
}
interface IdleRequest {
  kind: 'idle';
  key: string;
  port: number;
  sessions: number;
}
interface PacedRequest {
  kind: 'paced';
  key: string;
  port: number;
  sessions: number;
  /** Each session submits one share every this many ms (at a random phase). */
  intervalMs: number;
  seconds: number;
  /** Logins are `{account}.p{index}`. */
  account: string;
}
type GeneratorRequest = LoadRequest | IdleRequest | PacedRequest;

interface PacedResult {
  minedDuringRun: number;
  accepted: number;
  rejected: number;
  /** Rejected shares by the server's message. */
  reasons: Record<string, number>;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface LoadResult {
  accepted: number;
  rejected: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  /** Shares the generator had to mine during the timed run (its stock ran out or went stale). */
  minedDuringRun: number;
}

// ---------------------------------------------------------------------------------------------
// Load generator (child process)

type Share = NonNullable<MinerSearch['share']>;

interface BenchSession {
  connection: MinerConnection;
  login: string;
  /** Shares mined before the timed run, oldest first from `next`. */
  stock: Share[];
  next: number;
}

async function openSession(key: string, port: number, index: number, login = `bench.w${index}`): Promise<BenchSession> {
  // 50 sessions per loopback address: below the pool's per-address connection limit (100).
  const localAddress = `127.0.${1 + Math.floor(index / 12_800)}.${1 + (Math.floor(index / 50) % 254)}`;
  const connection = await MinerConnection.open(
    { host: '127.0.0.1', port, inbox: false, timeoutMs: 30_000, localAddress },
    benchCase(key).miner(),
  );
  await connection.subscribe('lodestone-bench/1.0');
  await connection.authorize(login);
  await connection.ready(30_000);
  return { connection, login, stock: [], next: 0 };
}

async function openSessions(key: string, port: number, count: number, account?: string): Promise<BenchSession[]> {
  const sessions: BenchSession[] = [];
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from({ length: Math.min(100, count - i) }, (_, j) =>
      openSession(key, port, i + j, account ? `${account}.p${i + j}` : undefined),
    );
    sessions.push(...(await Promise.all(batch)));
  }
  return sessions;
}

/** The next share of the miner's current job (at the port's difficulty, its first hash). */
function mineShare(miner: MinerDialect): Share {
  for (let tries = 0; tries < 1000; tries++) {
    const { share } = miner.search(64);
    if (share) return share;
  }
  throw new Error(`no share in 64,000 hashes at difficulty ${miner.difficulty}: the port is not at the lowest`);
}

/**
 * Mines shares ahead, round-robin over the sessions, for `seconds` or until `maxShares` in all: in
 * the throughput run the generator then only sends, so its hashing does not take the server's CPU
 * (on a machine whose cores share caches or hyperthreads, a generator hashing beside the server
 * slows the server's own CPU seconds). Yields between rounds so that notifications are read.
 */
async function mineAhead(sessions: BenchSession[], seconds: number, maxShares: number): Promise<void> {
  const end = performance.now() + seconds * 1000;
  for (let total = 0; total < maxShares && performance.now() < end; ) {
    const slice = performance.now() + 20;
    while (total < maxShares && performance.now() < slice) {
      for (const session of sessions) session.stock.push(mineShare(session.connection.miner));
      total += sessions.length;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A share from the session's stock while it is of the current job, else one mined now. */
function takeShare(session: BenchSession): { share: Share; mined: boolean } {
  const share = session.stock[session.next];
  if (share && share.jobId === session.connection.miner.jobId) {
    session.next++;
    return { share, mined: false };
  }
  session.stock = [];
  session.next = 0;
  return { share: mineShare(session.connection.miner), mined: true };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/**
 * Every session submits shares for `seconds`: back to back (`intervalMs` 0, the throughput mode), or
 * one every `intervalMs` at a random phase (the paced mode: the server is mostly idle, so what shows
 * is how long an answer waits behind other work in the process, the database above all). Returns the
 * outcome and the answer times.
 */
async function submitShares(sessions: BenchSession[], seconds: number, intervalMs: number): Promise<PacedResult> {
  const latencies: number[] = [];
  let accepted = 0;
  let rejected = 0;
  const reasons = new Map<string, number>();
  let minedDuringRun = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    sessions.map(async (session) => {
      const { connection, login } = session;
      if (intervalMs > 0) await new Promise((r) => setTimeout(r, Math.random() * intervalMs));
      while (performance.now() < end) {
        const next = performance.now() + intervalMs;
        const { share, mined } = takeShare(session);
        if (mined) minedDuringRun++;
        const sent = performance.now();
        // Timed where the answer is read: answers read together are all timed before any session
        // mines its next share.
        const { reply, at } = await connection.submit(login, share).then((r) => ({ reply: r, at: performance.now() }));
        latencies.push(at - sent);
        if (reply.result === true) accepted++;
        else {
          rejected++;
          const reason = String(reply.error?.[1] ?? 'no answer');
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        }
        if (intervalMs > 0) await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      }
    }),
  );
  for (const { connection } of sessions) connection.destroy();
  latencies.sort((a, b) => a - b);
  return {
    accepted,
    rejected,
    reasons: Object.fromEntries(reasons),
    minedDuringRun,
    seconds: (performance.now() - started) / 1000,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.at(-1) ?? 0,
  };
}

async function runLoad(request: LoadRequest): Promise<LoadResult> {
  const sessions = await openSessions(request.key, request.port, request.sessions);
  warmUp(benchCase(request.key).algorithm);
  // As long as the run at most (for a slow hash, about what the server can check in that time, as
  // it hashes every share once too), and no more than memory comfortably holds.
  await mineAhead(sessions, request.seconds, 300_000);
  process.send?.({ kind: 'started' });
  return submitShares(sessions, request.seconds, 0);
}

async function runPaced(request: PacedRequest): Promise<PacedResult> {
  const sessions = await openSessions(request.key, request.port, request.sessions, request.account);
  return submitShares(sessions, request.seconds, request.intervalMs);
}

async function generator(): Promise<void> {
  const request = await new Promise<GeneratorRequest>((resolve) =>
    process.once('message', (m) => resolve(m as GeneratorRequest)),
  );
  if (request.kind === 'load') {
    process.send?.({ kind: 'result', result: await runLoad(request) });
  } else if (request.kind === 'paced') {
    process.send?.({ kind: 'result', result: await runPaced(request) });
  } else {
    const sessions = await openSessions(request.key, request.port, request.sessions);
    process.send?.({ kind: 'ready' });
    await new Promise((resolve) => process.once('message', resolve));
    for (const { connection } of sessions) connection.destroy();
    process.send?.({ kind: 'closed' });
  }
  process.disconnect?.();
}

// ---------------------------------------------------------------------------------------------
// Server side (parent process)

/** Sends a request to a fresh generator process; `onMessage` sees every message it sends back. */
function withGenerator(
  request: GeneratorRequest,
  onMessage: (m: { kind: string; result?: LoadResult & PacedResult }, reply: (m: object) => void) => void,
) {
  return new Promise<void>((resolve, reject) => {
    const child = fork(process.argv[1] as string, [CHILD_FLAG], { stdio: 'inherit' });
    child.on('message', (m) => onMessage(m as { kind: string }, (reply) => child.send(reply)));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`load generator exited with ${code}`))));
    child.send(request);
  });
}

/** What each algorithm's hash() takes (packages/pow/src/index.ts); its last 4 bytes are nonce bytes in all. */
const POW_INPUT_LENGTH: Record<AlgorithmKey, number> = {
  sha256: HEADER_LENGTH,
  scrypt: HEADER_LENGTH,
  x11: HEADER_LENGTH,
  eaglesong: CKB_POW_MESSAGE_LENGTH,
  kheavyhash: KASPA_POW_INPUT_LENGTH,
  blake2s: KADENA_WORK_LENGTH,
};

/** Hashes for a while, unmeasured: X11's eleven functions take a good part of a second to reach full speed. */
function warmUp(algorithm: AlgorithmKey): void {
  const pow = POW[algorithm];
  const input = Buffer.alloc(POW_INPUT_LENGTH[algorithm], 7);
  for (let i = 0, end = performance.now() + 300; performance.now() < end; i++) {
    input.writeUInt32LE(i, input.length - 4);
    pow.hashValue(pow.hash(input));
  }
}

/** Hashes per CPU second on one core (CPU time, like the share throughput, so other load on the machine cancels out). */
function rawHashRate(algorithm: AlgorithmKey, seconds: number): number {
  const pow = POW[algorithm];
  const input = Buffer.alloc(POW_INPUT_LENGTH[algorithm], 7);
  warmUp(algorithm);
  let hashes = 0;
  const cpuStart = process.cpuUsage();
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 64; i++) {
      input.writeUInt32LE(hashes++, input.length - 4);
      pow.hashValue(pow.hash(input));
    }
  }
  const cpu = process.cpuUsage(cpuStart);
  return hashes / ((cpu.user + cpu.system) / 1e6);
}

async function startServer(benchCase: StratumBenchCase, journal = false) {
  const { algorithm } = benchCase;
  const pow = POW[algorithm];
  // The lowest difficulty there is: every hash meets its target. Fixed, so vardiff never moves it.
  const difficulty = pow.difficultyForTarget(MAX_TARGET);
  const work = benchCase.work();
  const { source } = work;
  await source.start();
  let batches = 0;
  const server = await startStratum({
    node: 'bench',
    log: SILENT_LOG,
    work: [work],
    bus: {
      publishShareBatch: async () => {
        batches++;
      },
      publishFoundBlock: async () => {},
    },
    listeners: [
      {
        algorithm,
        host: '127.0.0.1',
        port: 0,
        kind: 'standard',
        minDifficulty: difficulty,
        maxDifficulty: difficulty,
        startDifficulty: difficulty,
      },
    ],
    limits: { maxConnectionsPerAddress: 100_000, invalidShareMinShares: Number.MAX_SAFE_INTEGER },
    // As `npm start` runs: every accepted share is written to the journal before it is answered.
    journalDirectory: journal ? mkdtempSync(path.join(tmpdir(), 'bench-journal-')) : undefined,
  });
  const port = server.listeners[0]?.port as number;
  const stop = async () => {
    await server.stop();
    await source.stop();
  };
  return { stop, port, batches: () => batches };
}

interface AlgorithmResult {
  benchCase: StratumBenchCase;
  algorithm: AlgorithmKey;
  journal: boolean;
  rawHashesPerSecond: number;
  load: LoadResult;
  cpuSeconds: number;
}

async function measureAlgorithm(
  benchCase: StratumBenchCase,
  seconds: number,
  sessions: number,
  journal: boolean,
): Promise<AlgorithmResult> {
  const { algorithm } = benchCase;
  const rawHashesPerSecond = rawHashRate(algorithm, Math.min(1, seconds / 2));
  const server = await startServer(benchCase, journal);
  let cpuStart = process.cpuUsage();
  let load: LoadResult | undefined;
  await withGenerator({ kind: 'load', key: benchCase.key, port: server.port, sessions, seconds }, (m) => {
    if (m.kind === 'started') cpuStart = process.cpuUsage();
    if (m.kind === 'result') load = m.result;
  });
  const cpu = process.cpuUsage(cpuStart);
  await server.stop();
  if (!load) throw new Error('no load result');
  return { benchCase, algorithm, journal, rawHashesPerSecond, load, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

/** Accepted shares per CPU second of the server process. */
function sharesPerCore(r: AlgorithmResult): number {
  return r.load.accepted / Math.max(r.cpuSeconds, 1e-9);
}

function memory(): { rss: number; heap: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rss, heap: heapUsed + external };
}

/**
 * Resident memory per idle session. A first round of sessions warms the heap up (so its growth is
 * not counted); the second round is measured, with a garbage collection before each reading when
 * node runs with --expose-gc.
 */
async function measureIdle(
  benchCase: StratumBenchCase,
  sessions: number,
  settleMs: number,
): Promise<{ rss: number; heap: number }> {
  const server = await startServer(benchCase);
  let result = { rss: 0, heap: 0 };
  for (const round of ['warm-up', 'measured']) {
    await new Promise((r) => setTimeout(r, settleMs));
    const before = memory();
    await withGenerator({ kind: 'idle', key: benchCase.key, port: server.port, sessions }, (m, reply) => {
      if (m.kind !== 'ready') return;
      setTimeout(() => {
        const after = memory();
        if (round === 'measured')
          result = { rss: (after.rss - before.rss) / sessions, heap: (after.heap - before.heap) / sessions };
        reply({ kind: 'close' });
      }, settleMs);
    });
  }
  await server.stop();
  return result;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function residentMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

interface PacedRun {
  sessions: number;
  intervalMs: number;
  seconds: number;
}

async function paced(port: number, account: string, run: PacedRun): Promise<PacedResult> {
  let result: PacedResult | undefined;
  await withGenerator({ kind: 'paced', key: 'sha256', port, account, ...run }, (m) => {
    if (m.kind === 'result') result = m.result;
  });
  if (!result) throw new Error('no paced result');
  return result;
}

/** The baseline: the same stratum code in a process of its own, with no database beside it. */
async function pacedBare(run: PacedRun): Promise<PacedResult> {
  const server = await startServer(benchCase('sha256'), true);
  try {
    return await paced(server.port, 'bench', run);
  } finally {
    await server.stop();
  }
}

/**
 * The real program as `npm start` runs it (dist/main.js beside this bundle: embedded database, jobs
 * role, demo network), on a SHA256 port whose difficulty lets every hash be a share. Also reads its
 * resident memory once started, before any miner connects.
 */
async function pacedNpmStart(run: PacedRun): Promise<{ result: PacedResult; baseRssMiB: number }> {
  const httpPort = await freePort();
  const stratumPort = await freePort();
  const difficulty = POW.sha256.difficultyForTarget(MAX_TARGET);
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []),
      fileURLToPath(new URL('./main.js', import.meta.url)),
    ],
    {
      cwd: mkdtempSync(path.join(tmpdir(), 'bench-npm-start-')),
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(httpPort),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-data-')),
        DEMO_WORKERS: '1',
        STRATUM_LISTENERS: JSON.stringify([
          {
            algorithm: 'sha256',
            port: stratumPort,
            host: '127.0.0.1',
            min_difficulty: difficulty,
            start_difficulty: difficulty,
            max_difficulty: difficulty,
          },
        ]),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await fetch(`http://127.0.0.1:${httpPort}/v1/health`).catch(() => undefined);
      if (res?.status === 200) break;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('npm start did not become healthy');
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 5_000));
    const baseRssMiB = residentMiB(child.pid as number);
    return { result: await paced(stratumPort, 'demo1', run), baseRssMiB };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

function pacedLine(name: string, r: PacedResult, baseline?: PacedResult): string {
  const ratio = baseline ? `   p99 ÷ alone ${(r.p99Ms / Math.max(baseline.p99Ms, 1e-9)).toFixed(1)}` : '';
  if (r.rejected > 0) throw new Error(`${name}: ${r.rejected} shares rejected (${JSON.stringify(r.reasons)})`);
  return `  ${name.padEnd(44)} ${(r.accepted / r.seconds).toFixed(0).padStart(5)} shares/s   p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms  max ${r.maxMs.toFixed(1)} ms${ratio}`;
}

async function main(): Promise<void> {
  const short = process.argv.includes('--short');
  const seconds = short ? 1 : 10;
  const sessions = short ? 32 : 64;
  const idleSessions = short ? 300 : 1000;
  // `--paced` runs only the paced part (reply latency of npm start).
  const pacedOnly = process.argv.includes('--paced');
  // `--throughput` runs only the throughput and idle-memory part (to compare builds side by side).
  const throughputOnly = process.argv.includes('--throughput');
  // `--algorithms=sha256,x11` measures only those cases: every case of a listed algorithm (scrypt: the
  // plain and the merged case), or one case by its key (scrypt+merged).
  const only = process.argv
    .find((a) => a.startsWith('--algorithms='))
    ?.slice('--algorithms='.length)
    .split(',');
  const cases = STRATUM_BENCH_CASES.filter((c) => !only || only.includes(c.algorithm) || only.includes(c.key));
  const unknown = only?.filter((name) => !STRATUM_BENCH_CASES.some((c) => c.algorithm === name || c.key === name));
  if (unknown && unknown.length > 0) throw new Error(`--algorithms: no case for ${unknown.join(', ')}`);
  if (!pacedOnly) {
    const results: AlgorithmResult[] = [];
    // Every case with the share journal, as npm start runs; SHA256 also without it (the baseline:
    // the journal's cost is the ratio).
    for (const c of cases) {
      if (c.algorithm === 'sha256') results.push(await measureAlgorithm(c, seconds, sessions, false));
      results.push(await measureAlgorithm(c, seconds, sessions, true));
    }
    const idleCase = cases[0] ?? benchCase('sha256');
    const perSession = await measureIdle(idleCase, idleSessions, short ? 100 : 500);

    console.log(`bench:stratum (${seconds}s per algorithm, ${sessions} sessions each waiting for its answer)`);
    const baseline = results.find((r) => r.benchCase.key === 'sha256' && !r.journal);
    for (const r of results) {
      if (r.load.rejected > 0) throw new Error(`${r.benchCase.key}: ${r.load.rejected} shares rejected`);
      const wall = r.load.accepted / r.load.seconds;
      const perCore = sharesPerCore(r);
      const vsBaseline =
        baseline && r.benchCase.key === 'sha256' && r.journal
          ? `vs no journal ${(perCore / sharesPerCore(baseline)).toFixed(3)}`
          : '';
      console.log(
        [
          `${`${r.benchCase.key}${r.journal ? '+journal' : ''}`.padEnd(22)}`,
          `${wall.toFixed(0).padStart(7)} shares/s`,
          `${perCore.toFixed(0).padStart(7)} shares/s per core`,
          `p50 ${r.load.p50Ms.toFixed(2)} ms  p99 ${r.load.p99Ms.toFixed(2)} ms`,
          `raw ${r.rawHashesPerSecond.toFixed(0)} H/s per core`,
          `throughput ÷ raw hash rate ${(perCore / r.rawHashesPerSecond).toFixed(3)}`,
          vsBaseline,
          r.load.minedDuringRun > 0 ? `(${r.load.minedDuringRun} shares mined during the run)` : '',
        ].join('   '),
      );
    }
    // A variant beside its plain case, both measured in this run (the same journal setting).
    for (const r of results) {
      const { variant } = r.benchCase;
      const plain = variant && results.find((p) => p.benchCase.key === variant.plain && p.journal === r.journal);
      if (!variant || !plain) continue;
      console.log(
        [
          `${variant.label}: ${sharesPerCore(r).toFixed(0)} shares/s per core`,
          `${plain.benchCase.key}: ${sharesPerCore(plain).toFixed(0)} shares/s per core`,
          `${r.benchCase.key} ÷ ${plain.benchCase.key} ${(sharesPerCore(r) / sharesPerCore(plain)).toFixed(3)}`,
        ].join('   '),
      );
    }
    const missing = Object.keys(POW).filter((a) => !STRATUM_BENCH_CASES.some((c) => c.algorithm === a));
    if (missing.length > 0) console.log(`no case yet (stratumCases.ts): ${missing.join(', ')}`);
    console.log(
      `idle session (${idleCase.algorithm}): ${(perSession.rss / 1024).toFixed(1)} KiB resident, ${(perSession.heap / 1024).toFixed(1)} KiB JS heap each (${idleSessions} sessions)`,
    );
  }
  if (throughputOnly) return;

  const run: PacedRun = short
    ? { sessions: 100, intervalMs: 2_000, seconds: 5 }
    : { sessions: 1_000, intervalMs: 2_000, seconds: 60 };
  const alone = await pacedBare(run);
  const npmStart = await pacedNpmStart(run);
  console.log(
    `paced: ${run.sessions} sessions, one share every ${run.intervalMs / 1000} s each, ${run.seconds} s (reply latency)`,
  );
  console.log(pacedLine('stratum alone (no database in the process)', alone));
  console.log(pacedLine('npm start (embedded database, jobs role)', npmStart.result, alone));
  console.log(`npm start resident memory before any miner: ${npmStart.baseRssMiB.toFixed(0)} MiB`);
}

if (process.argv.includes(CHILD_FLAG)) {
  generator().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
