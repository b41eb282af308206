import {
  accountDifficultyByHalfHour,
  accountWorkerLabels,
  accountWorkersForAlerts,
  type DB,
  type DifficultySlot,
  type HashrateAlertCheck,
  hashrateAlertsToCheck,
  setHashrateAlertState,
  workersDifficultyByHour,
} from '@lodestone/db';
import {
  AUTOMATIC_THRESHOLD,
  algorithmByKey,
  dropWindowMs,
  type HashrateState,
  judgeHashrate,
  scaleHashrate,
  workerGroup,
} from '@lodestone/domain';
import type { Kysely } from 'kysely';
import { type HashesPerDifficulty, powHashesPerDifficulty } from '../services/hashesPerDifficulty.js';
import type { JobDefinition } from './types.js';
import { enqueueAlert, judgeWorker, type WorkerAlertOptions } from './workerAlerts.js';

/*
 * Hashrate alerts (docs/notifications.md, "Hashrate alerts"): each minute every rule is judged —
 * "hashrate below X" by the Poisson test of @lodestone/domain hashrateDrop.ts over a window of 100
 * expected shares at X, "online workers below N" by the offline alert's own judgement of each worker
 * — and a change of state sends one message on the user's alert channels (e-mail, Telegram), in the
 * transaction that records it, keyed by the rule and the instant it changed: a repeated run, a crash or
 * a restart sends nothing twice. A group rule (`worker_group`) judges only the account's workers of
 * that group (workerGroup of @lodestone/domain), and is not judged while the group has no worker: a
 * group renamed away or removed is not "zero hashrate", and its state holds until it has workers again.
 */

const HALF_HOUR_MS = 30 * 60_000;
const HOUR_MS = 3_600_000;
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

/** Σ accepted difficulty and shares of the slots starting in [fromMs, toMs). */
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

/** Accepted difficulty and shares per time slot: the account's half hours, or a group's hours. */
interface Slots {
  slots: readonly DifficultySlot[];
  slotMs: number;
}

/** The ids of the account's workers in the rule's group, or undefined for a whole-account rule. */
async function groupWorkerIds(db: Kysely<DB>, rule: HashrateAlertCheck): Promise<Set<bigint> | undefined> {
  if (rule.worker_group === null) return undefined;
  const workers = await accountWorkerLabels(db, rule.account, rule.algorithm);
  return new Set(workers.filter((w) => workerGroup(w.name, w.label) === rule.worker_group).map((w) => w.id));
}

/**
 * The shares a "hashrate below" rule is judged on, from `from` to `to` (slot boundaries): the
 * account's half hours, or for a group rule its workers' hours (undefined: the group has no worker).
 */
async function sharesOfRule(
  db: Kysely<DB>,
  rule: HashrateAlertCheck,
  from: number,
  to: number,
): Promise<Slots | undefined> {
  const group = await groupWorkerIds(db, rule);
  if (group === undefined) {
    const slots = await accountDifficultyByHalfHour(db, rule.account, rule.algorithm, new Date(from), new Date(to));
    return { slots, slotMs: HALF_HOUR_MS };
  }
  if (group.size === 0) return undefined;
  const slots = await workersDifficultyByHour(db, rule.algorithm, [...group], new Date(from), new Date(to));
  return { slots, slotMs: HOUR_MS };
}

/**
 * Judges a "hashrate below" rule from the account's half hours (a group's hours). The automatic
 * threshold is a share of the average over the 24 hours before the judging window, so a drop does
 * not lower its own bar; the window holds DROP_WINDOW_SHARES expected shares at the threshold
 * (hashrateDrop.ts), from the start of the slot it begins in (slots are what is kept).
 */
async function judgeHashrateRule(
  db: Kysely<DB>,
  rule: HashrateAlertCheck,
  now: Date,
  hashesPerDifficulty: number,
): Promise<Verdict | undefined> {
  const nowMs = now.getTime();
  // Hours are whole half hours too, so one range serves both slot lengths.
  const to = Math.floor(nowMs / HOUR_MS) * HOUR_MS + HOUR_MS;
  const read = await sharesOfRule(db, rule, to - 2 * DAY_MS - HOUR_MS, to);
  if (!read) return undefined;
  const { slots, slotMs } = read;
  const first = slots[0]?.start.getTime();
  if (first === undefined) return undefined;
  const windowStart = (windowMs: number) => Math.max(first, Math.floor((nowMs - windowMs) / slotMs) * slotMs);
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
  // First from the last 24 hours (from a slot's start: a slot counts whole), then from the 24 hours
  // before the window that gives.
  const recent = bar(Math.max(first, Math.ceil((nowMs - DAY_MS) / slotMs) * slotMs), nowMs);
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

/**
 * Judges an "online workers below" rule: each worker (of the group) as the offline alert judges it;
 * undefined for a group without workers.
 */
async function judgeWorkersRule(
  db: Kysely<DB>,
  rule: HashrateAlertCheck,
  now: Date,
  hashesPerDifficulty: HashesPerDifficulty,
): Promise<Verdict | undefined> {
  const group = await groupWorkerIds(db, rule);
  if (group?.size === 0) return undefined;
  const workers = (await accountWorkersForAlerts(db, rule.account_id, rule.algorithm)).filter(
    (w) => group === undefined || group.has(w.workerId),
  );
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
  rule: Pick<HashrateAlertCheck, 'account' | 'algorithm' | 'kind' | 'threshold_percent' | 'threshold_hashrate'> &
    Partial<Pick<HashrateAlertCheck, 'worker_group'>>,
  verdict: Verdict,
): { subject: string; body: string } {
  const algorithm = algorithmByKey(rule.algorithm)?.name ?? rule.algorithm;
  const low = verdict.state === 'low';
  const of = rule.worker_group ? ` of group ${rule.worker_group}` : '';
  const what = rule.kind === 'workers' ? `online ${algorithm} workers${of}` : `${algorithm} hashrate${of}`;
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
