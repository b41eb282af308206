import type { StratumResponse } from '@lodestone/contract';
import { type AlgorithmName, abbreviateMiddle, algorithmByName } from '@lodestone/domain';
import { formatPercent } from '../../../lib/percent';

/**
 * The 'Mining Configuration' wizard (docs/dashboard.md, The screens): pick an algorithm, name one or more
 * workers, then page through what to put into each miner (stratum URL, login, password).
 */
export type Listener = StratumResponse['listeners'][number];

/** Worker names: up to 32 characters (docs/decisions.md "Logins"). */
export const WORKER_NAME_MAX = 32;

/**
 * How the workers are paid: `pool`, the pool ports, whose shares are paid by PPS; `solo`, the solo ports, where a
 * block the workers find is the account's, less the solo fee, and shares are not paid (docs/solo.md).
 */
export type MiningMode = 'pool' | 'solo';

/** The listeners of an algorithm for one mode: the solo ports for `solo`, every other kind for `pool`. */
function listenersOf(listeners: readonly Listener[], algorithm: AlgorithmName, mode: MiningMode): Listener[] {
  const key = algorithmByName(algorithm)?.key;
  return listeners.filter((l) => l.algorithm === key && (l.kind === 'solo') === (mode === 'solo'));
}

/**
 * The URL to show for an algorithm and mode: for the pool its standard port (the marketplace and #xnsub ports are
 * for rentals), for solo its solo port; unencrypted first as most miners expect; null when the pool does not serve
 * it that way.
 */
export function stratumUrlFor(
  listeners: readonly Listener[],
  algorithm: AlgorithmName,
  mode: MiningMode = 'pool',
): string | null {
  const rank = (l: Listener) =>
    (l.kind === 'standard' || l.kind === 'solo' ? 0 : l.kind === 'xnsub' ? 2 : 1) * 2 + (l.tls ? 1 : 0);
  return [...listenersOf(listeners, algorithm, mode)].sort((a, b) => rank(a) - rank(b))[0]?.url ?? null;
}

/** The modes an algorithm can be mined in here, the pool first: the ones with a port. */
export function modesFor(listeners: readonly Listener[], algorithm: AlgorithmName): MiningMode[] {
  return (['pool', 'solo'] as const).filter((mode) => listenersOf(listeners, algorithm, mode).length > 0);
}

/** The mode the wizard shows: the one chosen when the algorithm has it, else the first it has (null: none). */
export function modeShown(
  listeners: readonly Listener[],
  algorithm: AlgorithmName,
  chosen: MiningMode,
): MiningMode | null {
  const modes = modesFor(listeners, algorithm);
  return modes.includes(chosen) ? chosen : (modes[0] ?? null);
}

/** What solo means, in one sentence, with the solo fee of GET /v1/site ("the solo fee" while it loads). */
export function soloSentence(soloFeePercent: number | undefined): string {
  const fee = soloFeePercent === undefined ? 'the solo fee' : `the ${formatPercent(soloFeePercent)} solo fee`;
  return `A block your workers find is yours, less ${fee}, credited to your balance when it matures; their shares are not paid by PPS.`;
}

/** Stratum URLs are shown as their first 10 and last 10 characters (copied in full; docs/website.md, Figures). */
export function shortStratumUrl(url: string): string {
  return abbreviateMiddle(url, 10, 10);
}

/** The miner's login: `{account}.{workerName}` (docs/decisions.md, Pool engine). */
export function workerLogin(account: string, worker: string): string {
  return `${account}.${worker.trim()}`;
}

/** A name that may be added: trimmed, non-empty, no spaces (they would end the login), not yet listed. */
export function canAddWorker(workers: readonly string[], name: string): boolean {
  const trimmed = name.trim();
  return trimmed !== '' && !/\s/.test(trimmed) && trimmed.length <= WORKER_NAME_MAX && !workers.includes(trimmed);
}

/** Step 2's Next: the typed name joins the list (when it may), and there must be at least one worker. */
export function workersForSummary(workers: readonly string[], typed: string): string[] {
  return canAddWorker(workers, typed) ? [...workers, typed.trim()] : [...workers];
}

// ── first visit ─────────────────────────────────────────────────────────────────────────────────

/** Local storage key: the accounts whose wizard was finished or closed in this browser. */
export const WIZARD_STORAGE_KEY = 'miningWizardDone';

export function parseWizardDone(raw: string | null): string[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function withWizardDone(done: readonly string[], account: string): string[] {
  return done.includes(account) ? [...done] : [...done, account];
}

/**
 * The wizard opens by itself once per account and browser: when the account has no worker on any
 * algorithm (a new miner) and the wizard was not finished or closed here before. `totals` are the
 * account's total workers per algorithm; undefined while they load (then it waits).
 */
export function shouldOpenWizard(
  done: readonly string[],
  account: string,
  totals: readonly (number | undefined)[],
): boolean {
  if (done.includes(account)) return false;
  if (totals.some((t) => t === undefined)) return false;
  return totals.every((t) => t === 0);
}
