/** Account names: what the website lets people register. */
export const ACCOUNT_NAME = /^[A-Za-z0-9_-]{3,32}$/;
/** Worker names: letters, digits, `_`, `-` and `.` (so `account.rack1.rig7` keeps `rack1.rig7`). */
export const WORKER_NAME = /^[A-Za-z0-9_.-]{1,32}$/;
export const DEFAULT_WORKER = 'default';
export const XNSUB_SUFFIX = '#xnsub';

export interface Login {
  account: string;
  worker: string;
  /** The login ended with `#xnsub` (NiceHash's request for mining.set_extranonce). */
  xnsub: boolean;
}

/** Parses a stratum login `{account}.{worker}` (worker optional, `#xnsub` suffix allowed). */
export function parseLogin(login: string): Login | string {
  let name = login.trim();
  const xnsub = name.toLowerCase().endsWith(XNSUB_SUFFIX);
  if (xnsub) name = name.slice(0, -XNSUB_SUFFIX.length);
  const dot = name.indexOf('.');
  const account = dot === -1 ? name : name.slice(0, dot);
  const worker = dot === -1 || dot === name.length - 1 ? DEFAULT_WORKER : name.slice(dot + 1);
  if (!ACCOUNT_NAME.test(account)) return 'account name must be 3-32 letters, digits, _ or -';
  if (!WORKER_NAME.test(worker)) return 'worker name must be 1-32 letters, digits, _, - or .';
  return { account, worker, xnsub };
}

/**
 * The starting difficulty a miner asks for in its password (`d=N`, possibly among other
 * comma-separated options such as `x,d=512`). Anything else in the password is ignored.
 */
export function requestedDifficulty(password: string): number | undefined {
  for (const part of password.split(/[,;\s]+/)) {
    const match = /^d=([0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?)$/i.exec(part.trim());
    if (!match?.[1]) continue;
    const value = Number(match[1]);
    if (Number.isFinite(value) && value > 0) return value;
  }
  return undefined;
}
