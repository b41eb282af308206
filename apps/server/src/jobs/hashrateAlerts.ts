import {
  accountDifficultyByHalfHour,
  accountWorkersForAlerts,
  type DB,
  type DifficultySlot,
  type HashrateAlertCheck,
  hashrateAlertsToCheck,
  setHashrateAlertState,
} from '@lodestone/db';
import {
  AUTOMATIC_THRESHOLD,
  algorithmByKey,
  dropWindowMs,
  type HashrateState,
  judgeHashrate,
  scaleHashrate,
} from '@lodestone/domain';
import type { Kysely } from 'kysely';
import { type HashesPerDifficulty, powHashesPerDifficulty } from '../services/hashesPerDifficulty.js';
import type { JobDefinition } from './types.js';
import { enqueueAlert, judgeWorker, type WorkerAlertOptions } from './workerAlerts.js';

/*
 * Hashrate alerts (docs/notifications.md, "Hashrate alerts"): each minute every rule is judged —
 * "hashrate below X" by the Poisson test of @lodestone/domain hashrateDrop.ts over a window of 40
 * expected shares at X, "online workers below N" by the offline alert's own judgement of each worker
 * — and a change of state sends one message on the user's alert channels (e-mail, Telegram), in the
 * transaction that records it, keyed by the rule and the instant it changed: a repeated run, a crash or
 * a restart sends nothing twice.
 */

const HALF_HOUR_MS = 30 * 60_000;
const DAY_MS = 24 * 3_600_000;

export interface HashrateAlertRun {
  rules: number;
  fell: number;
  recovered: number;
  messages: number;
}

/** What a rule found at one check: its state, and the figures its message states. */
interface Verdict {
  state: HashrateState;
  /** The threshold (H/s) or the fewest workers. */
  threshold: number;
  /** The hashrate (H/s) over the judging window, or the workers online. */
  seen: number;
  windowMs?: number;
}

/** Σ accepted difficulty and shares of the half hours starting in [fromMs, toMs), and how long that is. */
function sharesBetween(slots: readonly DifficultySlot[], fromMs: number, toMs: number) {
  let difficulty = 0;
  let shares = 0;
  for (const s of slots) {
    const t = s.start.getTime();
    if (t >= fromMs && t < toMs) {
      difficulty += Number(s.acceptedDifficulty);
      shares += s.validShares ?? 0;
    }
  }
  return { difficulty, shares };
}

/**
 * Judges a "hashrate below" rule from the account's half hours. The automatic threshold is a share
 * of the average over the 24 hours before the judging window, so a drop does not lower its own bar;
 * the window holds DROP_WINDOW_SHARES expected shares at the threshold (hashrateDrop.ts), from the
 * start of the half hour it begins in (half hours are what is kept).
 */
async function judgeHashrateRule(
  db: Kysely<DB>,
  rule: HashrateAlertCheck,
  now: Date,
  hashesPerDifficulty: number,
): Promise<Verdict | undefined> {
  const nowMs = now.getTime();
  const to = Math.floor(nowMs / HALF_HOUR_MS) * HALF_HOUR_MS + HALF_HOUR_MS;
  const slots = await accountDifficultyByHalfHour(
    db,
    rule.account,
    rule.algorithm,
    new Date(to - 2 * DAY_MS - HALF_HOUR_MS),
    new Date(to),
  );
  const first = slots[0]?.start.getTime();
  if (first === undefined) return undefined;
  const windowStart = (windowMs: number) =>
    Math.max(first, Math.floor((nowMs - windowMs) / HALF_HOUR_MS) * HALF_HOUR_MS);
  /** The threshold and the mean share difficulty from the shares in [fromMs, toMs). */
  const bar = (fromMs: number, toMs: number) => {
    const { difficulty, shares } = sharesBetween(slots, fromMs, toMs);
    const seconds = (Math.min(toMs, nowMs) - fromMs) / 1000;
    if (shares === 0 || seconds <= 0) return undefined;
    const average = (difficulty * hashesPerDifficulty) / seconds;
    const threshold =
      rule.threshold_hashrate !== null
        ? Number(rule.threshold_hashrate)
        : average * ((rule.threshold_percent ?? AUTOMATIC_THRESHOLD * 100) / 100);
    const shareDifficulty = difficulty / shares;
    return { threshold, shareDifficulty, windowMs: dropWindowMs(threshold, shareDifficulty, hashesPerDifficulty) };
  };
  // First from the last 24 hours, then from the 24 hours before the window that gives.
  const recent = bar(Math.max(first, nowMs - DAY_MS), nowMs);
  if (!recent) return undefined;
  const before = windowStart(recent.windowMs);
  const settled = before > first ? (bar(Math.max(first, before - DAY_MS), before) ?? recent) : recent;
  const from = windowStart(settled.windowMs);
  const { difficulty } = sharesBetween(slots, from, to);
  const spanMs = nowMs - from;
  const state = judgeHashrate(
    rule.low ? 'low' : 'ok',
    { acceptedDifficulty: difficulty, windowMs: spanMs },
    { hashrate: settled.threshold, shareDifficulty: settled.shareDifficulty, hashesPerDifficulty },
  );
  return {
    state,
    threshold: settled.threshold,
    seen: (difficulty * hashesPerDifficulty) / (spanMs / 1000),
    windowMs: spanMs,
  };
}

/** Judges an "online workers below" rule: each worker as the offline alert judges it. */
async function judgeWorkersRule(
  db: Kysely<DB>,
  rule: HashrateAlertCheck,
  now: Date,
  hashesPerDifficulty: HashesPerDifficulty,
): Promise<Verdict> {
  const workers = await accountWorkersForAlerts(db, rule.account_id, rule.algorithm);
  const online = workers.filter((w) => !judgeWorker(w, now, hashesPerDifficulty).offline).length;
  const fewest = rule.min_workers ?? 1;
  return { state: online < fewest ? 'low' : 'ok', threshold: fewest, seen: online };
}

const rate = (hashesPerSecond: number) => {
  const scaled = scaleHashrate(hashesPerSecond.toFixed(3));
  return `${scaled.value} ${scaled.units}`;
};
const span = (ms: number) =>
  ms >= 2 * 3_600_000 ? `${Math.round(ms / 3_600_000)} h` : `${Math.round(ms / 60_000)} min`;

/** The message of a rule's change (pure). */
export function hashrateAlertMessage(
  options: Pick<WorkerAlertOptions, 'poolName' | 'publicUrl'>,
  rule: Pick<HashrateAlertCheck, 'account' | 'algorithm' | 'kind' | 'threshold_percent' | 'threshold_hashrate'>,
  verdict: Verdict,
): { subject: string; body: string } {
  const algorithm = algorithmByKey(rule.algorithm)?.name ?? rule.algorithm;
  const low = verdict.state === 'low';
  const what = rule.kind === 'workers' ? `online ${algorithm} workers` : `${algorithm} hashrate`;
  const bar = rule.kind === 'workers' ? String(verdict.threshold) : rate(verdict.threshold);
  const subject = `${options.poolName}: ${rule.account}'s ${what} ${low ? `fell below ${bar}` : `back to ${bar} or more`}`;
  const rule_ =
    rule.kind === 'workers'
      ? `at least ${verdict.threshold} online`
      : rule.threshold_percent !== null
        ? `${rule.threshold_percent}% of the 24-hour average (${rate(verdict.threshold)} now)`
        : rate(verdict.threshold);
  const seen =
    rule.kind === 'workers'
      ? `${verdict.seen} online now.`
      : `${rate(verdict.seen)} over the last ${span(verdict.windowMs ?? 0)}.`;
  const body = [
    `Account ${rule.account}, ${what}: ${low ? 'below' : 'back at or above'} your alert (${rule_}).`,
    seen,
    '',
    `Dashboard: ${new URL('/dashboard', options.publicUrl).toString()}`,
  ].join('\n');
  return { subject, body };
}

/** One check of every rule at `now`. Idempotent: a rule's change and its message are one transaction. */
export async function checkHashrateAlerts(
  db: Kysely<DB>,
  now: Date,
  options: WorkerAlertOptions,
  signal?: AbortSignal,
): Promise<HashrateAlertRun> {
  const hashesPerDifficulty = options.hashesPerDifficulty ?? powHashesPerDifficulty;
  const rules = await hashrateAlertsToCheck(db);
  const run: HashrateAlertRun = { rules: rules.length, fell: 0, recovered: 0, messages: 0 };
  for (const rule of rules) {
    if (signal?.aborted) break;
    const verdict =
      rule.kind === 'workers'
        ? await judgeWorkersRule(db, rule, now, hashesPerDifficulty)
        : await judgeHashrateRule(db, rule, now, hashesPerDifficulty(rule.algorithm));
    if (!verdict || (verdict.state === 'low') === rule.low) continue;
    const low = verdict.state === 'low';
    const messages = await db.transaction().execute(async (trx) => {
      if (!(await setHashrateAlertState(trx, rule.id, low, now))) return 0;
      return enqueueAlert(trx, {
        userId: rule.userId,
        channels: { email: rule.email, telegram: rule.telegram },
        kind: low ? 'hashrate-low' : 'hashrate-recovered',
        dedupeKey: `hashrate-alert:${rule.id}:${low ? 'low' : 'ok'}:${now.toISOString()}`,
        ...hashrateAlertMessage(options, rule, verdict),
        now,
      });
    });
    run.messages += messages;
    if (low) run.fell++;
    else run.recovered++;
  }
  return run;
}

/** The check as a job: every minute, 25 seconds after the minute turns (after the rollup and the offline check). */
export function hashrateAlertJob(options: WorkerAlertOptions): JobDefinition {
  return {
    name: 'hashrate-alerts',
    everyMs: 60_000,
    offsetMs: 25_000,
    singleton: true,
    async run({ database, now, signal, log }) {
      const result = await checkHashrateAlerts(database.db, now, options, signal);
      if (result.messages > 0) log.info({ job: 'hashrate-alerts', ...result }, 'hashrate alerts enqueued');
      else log.debug({ job: 'hashrate-alerts', ...result }, 'hashrate alerts checked');
    },
  };
}
