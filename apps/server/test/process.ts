import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** Tests of the whole program run the real bundle, the file `npm start` runs. */
const serverDir = fileURLToPath(new URL('..', import.meta.url));
const mainJs = path.join(serverDir, 'dist', 'main.js');

/** Builds dist/main.js as `npm run build` does. */
export function buildBundle(): void {
  execFileSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'inherit' });
}

/**
 * A port free a moment ago, for a pool a test starts with PORT=…, drawn below the system's ephemeral range (32768–60999
 * on Linux). A port the system hands out for listen(0) can be handed out again at once to another test's process (a
 * stratum listener on port 0): that process would answer this pool's health check while the pool itself could not
 * listen — the likeliest cause of CI47's one failure, a pool that answered its health check and then refused
 * connections.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = randomInt(20_000, 32_000);
    if (await canListen(port)) return port;
  }
  throw new Error('no free port below the ephemeral range in 100 tries');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

export interface Run {
  child: ChildProcess;
  exit: Promise<number | null>;
  stderr: () => string;
  /** The newest part of standard output (the JSON log lines), to explain a failure. */
  stdout: () => string;
}

/** Keeps this much of the log: a long run must not grow the test's memory without bound. */
const STDOUT_KEPT = 64 * 1024;

/**
 * Starts the bundle in a fresh working directory with only PATH and `env` as its environment;
 * `fileLimit` lowers its open-file limit (`ulimit -n`) first.
 */
export function run(env: Record<string, string>, args: string[] = [], options: { fileLimit?: number } = {}): Run {
  const [command, commandArgs] =
    options.fileLimit === undefined
      ? [process.execPath, [mainJs, ...args]]
      : ['/bin/sh', ['-c', `ulimit -n ${options.fileLimit} && exec "$0" "$@"`, process.execPath, mainJs, ...args]];
  const child = spawn(command, commandArgs, {
    cwd: mkdtempSync(path.join(tmpdir(), 'lodestone-main-')),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  child.stdout?.on('data', (d) => {
    stdout = (stdout + String(d)).slice(-STDOUT_KEPT);
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exit, stderr: () => stderr, stdout: () => stdout };
}

/**
 * How long a pool process may take to answer its health check: 12 s on an idle machine (initdb of the embedded database
 * on disk, the migrations), and past 60 s on CI's two cores while the other lanes run (CI4 of 2026-11-30).
 */
export const START_UP_MS = 180_000;

/**
 * Waits until `GET /v1/health` answers 200 (start-up migrates the database first). A pool that does not get there is
 * killed before the error: left running, its demo miners took CPU from every test after it (CI, 2026-11-30).
 */
export async function waitForHealth(port: number, r: Run, timeoutMs = START_UP_MS): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const res = await fetch(`http://127.0.0.1:${port}/v1/health`).catch(() => undefined);
    if (res?.status === 200) return;
    if (r.child.exitCode !== null) break;
    await sleep(100);
  }
  r.child.kill('SIGKILL');
  throw new Error(`the server did not become healthy in ${timeoutMs / 1000} s:\n${r.stderr()}\n${r.stdout()}`);
}
