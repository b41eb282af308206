import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
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
 * when that process is alive on this host instead of waiting out the stale time. A live holder on this
 * host is never taken over, however long ago it refreshed the lock: a process stopped for a while
 * (SIGSTOP, a debugger, a swap storm) still holds the database in memory and writes it when it resumes.
 */

export class DataDirError extends Error {
  override readonly name = 'DataDirError';
}

export interface DataDirOwner {
  pid: number;
  host: string;
  startedAt: string;
  /**
   * The holder's start in clock ticks after boot (Linux: /proc/<pid>/stat, field 22), so that another
   * process given the same pid later is not taken for the holder. Absent where the system does not say.
   */
  processStart?: string;
}

export interface DataDirLock {
  readonly owner: DataDirOwner;
  release(): Promise<void>;
}

export interface DataDirLockOptions {
  /** The lock counts as abandoned when its holder has not refreshed it for this long (default 10 s). */
  staleMs?: number;
  /**
   * What to do about a holder, after "<directory> is in use by …" (default: the embedded database's
   * advice, one process at a time or PostgreSQL).
   */
  advice?: string;
  /**
   * Called when the lock was taken from under this process: it must stop at once, writing nothing more to
   * the directory. Without it the process writes the message to stderr and exits with 78.
   */
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
    throw new DataDirError(
      `${setting}: the embedded database cannot write to ${directory} (${fileErrorReason(error)}); give the pool a writable directory`,
      { cause: error },
    );
  }
}

/**
 * Why a file operation failed, in words an operator acts on. Node's own messages name no path for a
 * failed write ("ENOSPC: no space left on device, write"), so callers say which file it was.
 */
export function fileErrorReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'the file system is read-only';
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'a file is in the way of the directory';
  if (code === 'ENOSPC') return 'the disk is full';
  if (code === 'EDQUOT') return 'the disk quota is used up';
  return String(code ?? (error as Error).message);
}

/** A process's start in clock ticks after boot, where Linux tells it (DataDirOwner.processStart). */
async function processStart(pid: number): Promise<string | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
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

/** The first 4 KiB of a file: an owner record is a line; anything larger is not one. */
async function readSmall(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

async function readOwner(directory: string): Promise<DataDirOwner | undefined> {
  try {
    const parsed = JSON.parse(await readSmall(directory + OWNER_SUFFIX)) as Partial<DataDirOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return undefined;
    const owner: DataDirOwner = {
      pid: parsed.pid,
      host: parsed.host,
      startedAt: String(parsed.startedAt ?? 'an unknown time'),
    };
    if (typeof parsed.processStart === 'string') owner.processStart = parsed.processStart;
    return owner;
  } catch {
    return undefined;
  }
}

/**
 * True when the named holder is another process alive on this host. The same pid as ours but not held
 * by us is a previous run's (a container's pid 1 after a restart); a live process whose start differs
 * from the holder's was given the pid later.
 */
async function holderAlive(owner: DataDirOwner | undefined): Promise<boolean> {
  if (owner === undefined || owner.host !== hostname() || owner.pid === process.pid || !alive(owner.pid)) return false;
  if (owner.processStart === undefined) return true;
  const started = await processStart(owner.pid);
  return started === undefined || started === owner.processStart;
}

const EMBEDDED_DATABASE_ADVICE =
  'The embedded database allows one process at a time: stop that process first, or use PostgreSQL ' +
  '(DATABASE_URL) to run several processes on one database.';

function inUse(directory: string, setting: string, owner: DataDirOwner | undefined, advice: string): DataDirError {
  const who =
    owner === undefined
      ? 'another process'
      : `process ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`} (since ${owner.startedAt})`;
  return new DataDirError(`${setting}: ${directory} is in use by ${who}. ${advice}`);
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
  const advice = options.advice ?? EMBEDDED_DATABASE_ADVICE;
  const deadline = performance.now() + staleMs + 2_000;
  let lost = false;
  let release: (() => Promise<void>) | undefined;
  for (;;) {
    if (held.has(directory)) throw inUse(directory, setting, await readOwner(directory), advice);
    // proper-lockfile takes a lock whose mtime is stale without asking who holds it: ask first.
    const holder = await readOwner(directory);
    if (existsSync(`${directory}.lock`) && (await holderAlive(holder))) throw inUse(directory, setting, holder, advice);
    try {
      release = await lockfile.lock(directory, {
        realpath: false,
        stale: staleMs,
        update: Math.max(1_000, Math.floor(staleMs / 4)),
        retries: 0,
        onCompromised: (error) => {
          lost = true;
          const message = `${setting}: the lock on ${directory} was lost (${error.message}); stopping, since another process may now be using it`;
          const lostError = new DataDirError(message, { cause: error });
          if (options.onLost) options.onLost(lostError);
          else {
            process.stderr.write(`${message}\n`);
            process.exit(78);
          }
        },
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') {
        throw new DataDirError(`${setting}: cannot lock ${directory} (${fileErrorReason(error)})`, { cause: error });
      }
      const owner = await readOwner(directory);
      if (await holderAlive(owner)) throw inUse(directory, setting, owner, advice);
      if (performance.now() >= deadline) throw inUse(directory, setting, owner, advice);
      await sleep(250);
    }
  }
  held.add(directory);
  const owner: DataDirOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  const started = await processStart(process.pid);
  if (started !== undefined) owner.processStart = started;
  const ownerFile = directory + OWNER_SUFFIX;
  try {
    await writeFile(ownerFile, `${JSON.stringify(owner)}\n`);
  } catch (error) {
    await release?.().catch(() => undefined);
    held.delete(directory);
    throw new DataDirError(`${setting}: cannot write ${ownerFile} (${fileErrorReason(error)})`, { cause: error });
  }
  return {
    owner,
    async release() {
      held.delete(directory);
      // After a loss the owner file and the lock are the new holder's: leave them.
      if (lost) return;
      const current = await readOwner(directory);
      if (current?.pid === owner.pid && current.startedAt === owner.startedAt) await rm(ownerFile, { force: true });
      await release?.();
    },
  };
}
