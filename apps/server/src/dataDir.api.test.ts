/**
 * Issue 15, finding 1: two processes on one embedded data directory corrupted the money ledger. The
 * real program is run twice on one DATA_DIR: the second refuses and names the first, so does the
 * admin command, and the ledger reconciles after the first stops. A pool killed with kill -9 starts
 * again on its directory once the dead process's lock goes stale.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, freePort, type Run, run as runBundle, waitForHealth } from '../test/process.js';

const distDir = fileURLToPath(new URL('../dist/', import.meta.url));

function run(env: Record<string, string>, args: string[] = []): Run {
  return runBundle(
    {
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      STRATUM_LISTENERS: JSON.stringify([{ algorithm: 'sha256', port: 0, host: '127.0.0.1' }]),
      DEMO_WORKERS: '2',
      ...env,
    },
    args,
  );
}

/** The ledger reconciliation (`npm run ledger:check`) on a data directory: its exit code and output. */
async function ledgerCheck(dataDir: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(distDir, 'ledger-check.js')], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('one process per embedded data directory', () => {
  beforeAll(() => buildBundle(), 120_000);

  it('refuses a second pool and the admin command on a directory in use; the ledger stays intact', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lodestone-data-'));
    const port = await freePort();
    const first = run({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(port, first, 60_000);

    const second = run({ PORT: String(await freePort()), DATA_DIR: dataDir });
    expect(await second.exit).toBe(78);
    expect(second.stderr()).toContain(`is in use by process ${first.child.pid}`);
    expect(second.stderr()).toContain('one process at a time');

    const admin = run({ DATA_DIR: dataDir }, ['admin', 'list']);
    expect(await admin.exit).toBe(78);
    expect(admin.stderr()).toContain(`is in use by process ${first.child.pid}`);
    expect(admin.stderr()).toContain('stop the pool (Ctrl-C), run the command, and start the pool again');

    // The first pool never noticed: it still serves, and its demo miners' credits reconcile.
    expect(first.child.exitCode, `the first pool stopped: ${first.stderr()}${first.stdout()}`).toBeNull();
    expect((await fetch(`http://127.0.0.1:${port}/v1/health`)).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    const check = await ledgerCheck(dataDir);
    expect(check.output).toContain('ledger reconciles');
    expect(check.code).toBe(0);
    // Stopped, the directory is free again: the admin command runs.
    const list = run({ DATA_DIR: dataDir }, ['admin', 'list']);
    expect(await list.exit).toBe(0);
  }, 180_000);

  it('starts again on its directory after kill -9, once the dead process’s lock is stale', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lodestone-data-'));
    const port = await freePort();
    const killed = run({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(port, killed, 60_000);
    killed.child.kill('SIGKILL');
    await killed.exit;
    const restarted = run({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(port, restarted, 60_000);
    restarted.child.kill('SIGTERM');
    expect(await restarted.exit).toBe(0);
  }, 180_000);

  it('says plainly when DATA_DIR cannot be written', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'lodestone-data-')), 'a-file');
    writeFileSync(file, 'not a folder');
    const r = run({ PORT: String(await freePort()), DATA_DIR: file });
    expect(await r.exit).toBe(78);
    expect(r.stderr()).toContain(`DATA_DIR: the embedded database cannot write to ${path.join(file, 'pglite')}`);
  }, 60_000);
});
