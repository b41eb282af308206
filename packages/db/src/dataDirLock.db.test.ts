import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createDatabase } from './connection.js';
import { DataDirError, lockDataDir } from './dataDirLock.js';

const fresh = () => mkdtempSync(path.join(tmpdir(), 'lodestone-lock-'));

/** A process that is alive for the test's length, and whose pid is then free. */
function otherProcess() {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { pid: child.pid as number, stop: () => child.kill('SIGKILL'), exited };
}

/** What a holder leaves behind: the lock directory (mtime = its last refresh) and the owner file. */
function leaveLock(directory: string, pid: number, refreshedSecondsAgo: number) {
  mkdirSync(`${directory}.lock`, { recursive: true });
  const when = Date.now() / 1000 - refreshedSecondsAgo;
  utimesSync(`${directory}.lock`, when, when);
  writeFileSync(`${directory}.owner.json`, JSON.stringify({ pid, host: hostname(), startedAt: 'earlier' }));
}

describe('the embedded data directory lock', () => {
  it('lets one database at a time open a data directory, and names the holder to the next', async () => {
    const dataDir = fresh();
    const first = await createDatabase({ dataDir });
    const refused = createDatabase({ dataDir });
    await expect(refused).rejects.toThrow(DataDirError);
    await expect(refused).rejects.toThrow(`is in use by process ${process.pid}`);
    await first.close();
    const again = await createDatabase({ dataDir });
    expect(await again.ping()).toBe(true);
    await again.close();
  });

  it('refuses at once while the holder named in the lock is alive', async () => {
    const directory = path.join(fresh(), 'pglite');
    mkdirSync(directory);
    const holder = otherProcess();
    try {
      leaveLock(directory, holder.pid, 0);
      const started = Date.now();
      await expect(lockDataDir(directory, 'DATA_DIR')).rejects.toThrow(
        `DATA_DIR: ${directory} is in use by process ${holder.pid}`,
      );
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      holder.stop();
    }
  });

  it('takes over the lock of a holder that died (kill -9) once its lock stops being refreshed', async () => {
    const directory = path.join(fresh(), 'pglite');
    mkdirSync(directory);
    const dead = otherProcess();
    dead.stop();
    await dead.exited;
    // Refreshed just now by a process that is gone: wait for the stale time, then take it.
    leaveLock(directory, dead.pid, 0);
    const started = Date.now();
    const lock = await lockDataDir(directory, 'DATA_DIR', { staleMs: 1_500 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(lock.owner.pid).toBe(process.pid);
    await lock.release();
    // Long stale already: taken at once.
    leaveLock(directory, dead.pid, 60);
    const quick = Date.now();
    const again = await lockDataDir(directory, 'DATA_DIR', { staleMs: 1_500 });
    expect(Date.now() - quick).toBeLessThan(1_000);
    await again.release();
  });

  it('says plainly when the data directory cannot be written', async () => {
    const parent = fresh();
    const file = path.join(parent, 'not-a-folder');
    writeFileSync(file, 'x');
    await expect(createDatabase({ dataDir: file })).rejects.toThrow(
      `DATA_DIR: the embedded database cannot write to ${path.join(file, 'pglite')} (a file is in the way of the directory)`,
    );
  });

  it('never takes over from a live holder on this host, however long ago it refreshed the lock (SIGSTOP)', async () => {
    const directory = path.join(fresh(), 'pglite');
    mkdirSync(directory);
    const frozen = otherProcess();
    try {
      process.kill(frozen.pid, 'SIGSTOP');
      // Its lock went unrefreshed for a minute, far past the stale time: the holder is stopped, not gone.
      leaveLock(directory, frozen.pid, 60);
      await expect(lockDataDir(directory, 'DATA_DIR', { staleMs: 1_500 })).rejects.toThrow(
        `DATA_DIR: ${directory} is in use by process ${frozen.pid}`,
      );
      expect(existsSync(`${directory}.lock`)).toBe(true);
    } finally {
      frozen.stop();
    }
  });

  it('takes over when the pid named in the lock now belongs to another process (its start differs)', async () => {
    const directory = path.join(fresh(), 'pglite');
    mkdirSync(directory);
    const other = otherProcess();
    try {
      leaveLock(directory, other.pid, 60);
      const owner = JSON.parse(readFileSync(`${directory}.owner.json`, 'utf8'));
      writeFileSync(`${directory}.owner.json`, JSON.stringify({ ...owner, processStart: '1' }));
      const lock = await lockDataDir(directory, 'DATA_DIR', { staleMs: 1_500 });
      expect(lock.owner.pid).toBe(process.pid);
      await lock.release();
    } finally {
      other.stop();
    }
  });

  it('reports a lock taken from under it to onLost, and leaves the new holder its files', async () => {
    const directory = path.join(fresh(), 'pglite');
    mkdirSync(directory);
    const lost: Error[] = [];
    const lock = await lockDataDir(directory, 'DATA_DIR', { staleMs: 2_000, onLost: (error) => lost.push(error) });
    // Another holder replaced the lock (a process on another host sharing the directory).
    rmSync(`${directory}.lock`, { recursive: true });
    mkdirSync(`${directory}.lock`);
    const theirs = JSON.stringify({ pid: 1, host: 'elsewhere', startedAt: 'now' });
    writeFileSync(`${directory}.owner.json`, theirs);
    await vi.waitFor(() => expect(lost).toHaveLength(1), { timeout: 5_000, interval: 50 });
    expect(lost[0]).toBeInstanceOf(DataDirError);
    expect(lost[0]?.message).toContain(`DATA_DIR: the lock on ${directory} was lost`);
    await lock.release();
    expect(readFileSync(`${directory}.owner.json`, 'utf8')).toBe(theirs);
    expect(existsSync(`${directory}.lock`)).toBe(true);
  });

  it('names the file when the disk is too full to record the holder, and leaves no lock behind', async () => {
    const directory = path.join(fresh(), 'pglite');
    mkdirSync(directory);
    symlinkSync('/dev/full', `${directory}.owner.json`);
    await expect(lockDataDir(directory, 'DATA_DIR')).rejects.toThrow(
      `DATA_DIR: cannot write ${directory}.owner.json (the disk is full)`,
    );
    expect(existsSync(`${directory}.lock`)).toBe(false);
  });
});
