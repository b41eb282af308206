import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';

/**
 * The embedded database belongs to one process at a time. PGlite holds the database in its own
 * memory and writes pages back when it likes, so a second process on the same files overwrites the
 * first one's writes: two `npm start`s on one DATA_DIR left the money ledger unbalanced (issue 15).
 *
 * The lock is proper-lockfile's: an atomic mkdir of `<directory>.lock`, whose mtime the holder
 * refreshes every `update` ms. A holder that died (kill -9, power loss) stops refreshing it, and
 * after `stale` ms the next opener takes it over. Beside it, `<directory>.owner.json` names the
 * holder (pid, host, start), so a second opener can say who holds the directory, and refuses at once
 * when that process is alive on this host instead of waiting out the stale time.
 */

export class DataDirError extends Error {
  override readonly name = 'DataDirError';
}

export interface DataDirOwner {
  pid: number;
  host: string;
  startedAt: string;
}

export interface DataDirLock {
  readonly owner: DataDirOwner;
  release(): Promise<void>;
}

export interface DataDirLockOptions {
  /** The lock counts as abandoned when its holder has not refreshed it for this long (default 10 s). */
  staleMs?: number;
  /** Called when the lock was taken from under this process (it must stop using the files). */
  onLost?: (error: Error) => void;
}

const OWNER_SUFFIX = '.owner.json';

/** Directories this process holds (a second open in the same process is refused too). */
const held = new Set<string>();

/** Creates the directory if needed and proves it is writable, with a message that says what is wrong. */
export async function prepareDirectory(directory: string, setting: string): Promise<void> {
  try {
    await mkdir(directory, { recursive: true });
    const probe = `${directory}/.write-test-${process.pid}`;
    await writeFile(probe, '');
    await rm(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EROFS'
          ? 'the file system is read-only'
          : code === 'ENOTDIR' || code === 'EEXIST'
            ? 'a file is in the way of the directory'
            : code === 'ENOSPC'
              ? 'the disk is full'
              : String(code ?? (error as Error).message);
    throw new DataDirError(
      `${setting}: the embedded database cannot write to ${directory} (${why}); give the pool a writable directory`,
      { cause: error },
    );
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(directory: string): Promise<DataDirOwner | undefined> {
  try {
    const parsed = JSON.parse(await readFile(directory + OWNER_SUFFIX, 'utf8')) as Partial<DataDirOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return undefined;
    return { pid: parsed.pid, host: parsed.host, startedAt: String(parsed.startedAt ?? 'an unknown time') };
  } catch {
    return undefined;
  }
}

function inUse(directory: string, setting: string, owner: DataDirOwner | undefined): DataDirError {
  const who =
    owner === undefined
      ? 'another process'
      : `process ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`} (since ${owner.startedAt})`;
  return new DataDirError(
    `${setting}: ${directory} is in use by ${who}. The embedded database allows one process at a time: ` +
      'stop that process first, or use PostgreSQL (DATABASE_URL) to run several processes on one database.',
  );
}

/**
 * Takes the directory for this process, or throws a DataDirError naming the holder. When the holder
 * is gone but its lock is not stale yet, waits up to the stale time for it to become so.
 */
export async function lockDataDir(
  directory: string,
  setting: string,
  options: DataDirLockOptions = {},
): Promise<DataDirLock> {
  const staleMs = options.staleMs ?? 10_000;
  const deadline = Date.now() + staleMs + 2_000;
  let release: (() => Promise<void>) | undefined;
  for (;;) {
    try {
      release = await lockfile.lock(directory, {
        realpath: false,
        stale: staleMs,
        update: Math.max(1_000, Math.floor(staleMs / 4)),
        retries: 0,
        onCompromised: (error) => {
          const lost = new DataDirError(`${setting}: the lock on ${directory} was lost (${error.message})`, {
            cause: error,
          });
          if (options.onLost) options.onLost(lost);
          else throw lost;
        },
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      const owner = await readOwner(directory);
      // A live holder on this host is refused at once. The same pid as ours but not held by us is a
      // previous run's (a container's pid 1 after a restart): wait for its lock to go stale.
      if (held.has(directory)) throw inUse(directory, setting, owner);
      const here = owner !== undefined && owner.host === hostname();
      if (here && owner.pid !== process.pid && alive(owner.pid)) throw inUse(directory, setting, owner);
      if (Date.now() >= deadline) throw inUse(directory, setting, owner);
      await sleep(250);
    }
  }
  held.add(directory);
  const owner: DataDirOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  await writeFile(directory + OWNER_SUFFIX, `${JSON.stringify(owner)}\n`);
  return {
    owner,
    async release() {
      await rm(directory + OWNER_SUFFIX, { force: true });
      await release?.();
      held.delete(directory);
    },
  };
}
