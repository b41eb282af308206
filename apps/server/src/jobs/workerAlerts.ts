import { createHash } from 'node:crypto';
import {
  type AlertStateChange,
  type AlertWorker,
  type DB,
  type Executor,
  emailUndeliveredTelegramAlerts,
  enqueueNotification,
  forgetAlertStatesOfUsersWithoutAlerts,
  saveAlertStates,
  TELEGRAM_KEY_SUFFIX,
  workersForOfflineAlerts,
} from '@lodestone/db';
import { type AlgorithmKey, observedShareIntervalMs, offlineWindowMs } from '@lodestone/domain';
import type { Kysely } from 'kysely';
import { type HashesPerDifficulty, powHashesPerDifficulty } from '../services/hashesPerDifficulty.js';
import type { JobDefinition } from './types.js';

/**
 * Offline-worker alerts (docs/notifications.md): each minute, every worker of a user who has the
 * alerts on is judged online or offline against its own window (@lodestone/domain offlineWindow.ts),
 * and the change from the state stored in worker_alert_states (migration 0013) decides the messages:
 * one "offline" message when workers go offline, one "back online" message when they come back,
 * nothing while a state lasts. The state change and the message it causes are one transaction per
 * mining account, and the message's dedupe key names the workers and the instants they changed, so a
 * repeated run, a crash or a restart of the jobs role sends nothing twice. An alert goes by e-mail and
 * to a linked Telegram chat, or only to the chat when the miner asks for that; one whose Telegram
 * message ends undelivered, or is still waiting after TELEGRAM_LATE_MS, is e-mailed after all (within
 * a day), so an alert never goes nowhere and never waits on a bot that cannot reach Telegram.
 */

/** How long after its check an alert that Telegram did not deliver is still worth an e-mail. */
export const TELEGRAM_FALLBACK_MS = 24 * 3_600_000;

/**
 * How long an alert may wait for Telegram before it is e-mailed too: past a flood wait and the first
 * retries of a failed send (1, 2, 4 and 8 minutes), so only an outage of the bot sends it both ways.
 */
export const TELEGRAM_LATE_MS = 16 * 60_000;

export interface WorkerAlertOptions {
  /** POOL_NAME, in the subject. */
  poolName: string;
  /** PUBLIC_URL: the messages link to the dashboard. */
  publicUrl: string;
  /** Tests only; production uses @lodestone/pow's conventions. */
  hashesPerDifficulty?: HashesPerDifficulty;
}

export interface WorkerAlertRun {
  workers: number;
  wentOffline: number;
  cameBack: number;
  messages: number;
  /** Alerts e-mailed because their Telegram message was not delivered. */
  emailedInstead: number;
}

interface Judged {
  worker: AlertWorker;
  offline: boolean;
  windowMs: number;
}

/** Whether a worker is offline at `now`, and the window it was judged by. */
export function judgeWorker(worker: AlertWorker, now: Date, hashesPerDifficulty: HashesPerDifficulty): Judged {
  const last = worker.lastAcceptedAt;
  let intervalMs = Number.POSITIVE_INFINITY;
  if (last) {
    intervalMs =
      worker.recentShares > 0 && worker.recentFrom
        ? observedShareIntervalMs(
            {
              acceptedDifficulty: Number(worker.recentDifficulty),
              acceptedShares: worker.recentShares,
              spanMs: last.getTime() - worker.recentFrom.getTime(),
            },
            hashesPerDifficulty(worker.algorithm as AlgorithmKey),
          )
        : // Too new for hourly statistics: its age so far stands for its interval (at least a minute),
          // so a slow new worker is not flagged before it has had time to send its next share.
          Math.max(60_000, last.getTime() - worker.firstSeenAt.getTime());
  }
  const windowMs = offlineWindowMs(intervalMs, worker.windowMinutes);
  const offline = last === null || now.getTime() - last.getTime() > windowMs;
  return { worker, offline, windowMs };
}

/** To the second: a share's own time, which the minute would round ("02:17" for a rig that stopped at 02:17:12). */
const utc = (d: Date) => `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
const minutes = (ms: number) =>
  ms >= 120 * 60_000 ? `${Math.round(ms / 3_600_000)} h` : `${Math.round(ms / 60_000)} min`;

function dedupeKey(kind: string, account: string, changes: readonly AlertStateChange[]): string {
  const what = changes.map((c) => `${c.workerId}@${c.since.toISOString()}`).sort();
  const digest = createHash('sha256').update(what.join(',')).digest('base64url');
  return `${kind}:${account}:${digest}`;
}

/** The "offline" message: one per account and check, listing its workers. */
export function offlineMessage(options: WorkerAlertOptions, account: string, gone: readonly Judged[]) {
  const one = gone.length === 1;
  const first = gone[0] as Judged;
  const subject = one
    ? `[${options.poolName}] Worker ${first.worker.name} of ${account} is offline`
    : `[${options.poolName}] ${gone.length} workers of ${account} are offline`;
  const lines = gone.map(({ worker, windowMs }) => {
    const last = worker.lastAcceptedAt ? `last accepted share ${utc(worker.lastAcceptedAt)}` : 'no accepted share kept';
    return `  ${worker.name} (${worker.algorithm}): ${last}, offline window ${minutes(windowMs)}`;
  });
  const body = [
    `${one ? 'This worker' : 'These workers'} of account ${account} sent no accepted share for longer than ${one ? 'its' : 'their'} offline window:`,
    '',
    ...lines,
    '',
    `You will get one message when ${one ? 'it is' : 'they are'} back online, and nothing more until then.`,
    `Dashboard: ${new URL('/dashboard', options.publicUrl).toString()}`,
  ].join('\n');
  return { subject, body };
}

/** The "back online" message. */
export function onlineMessage(
  options: WorkerAlertOptions,
  account: string,
  back: readonly Judged[],
  since: Map<bigint, Date>,
) {
  const one = back.length === 1;
  const first = back[0] as Judged;
  const subject = one
    ? `[${options.poolName}] Worker ${first.worker.name} of ${account} is back online`
    : `[${options.poolName}] ${back.length} workers of ${account} are back online`;
  const lines = back.map(({ worker }) => {
    const was = since.get(worker.workerId);
    return `  ${worker.name} (${worker.algorithm}): offline since ${was ? utc(was) : 'unknown'}, accepted share ${utc(worker.lastAcceptedAt as Date)}`;
  });
  const body = [
    `${one ? 'This worker' : 'These workers'} of account ${account} ${one ? 'is' : 'are'} mining again:`,
    '',
    ...lines,
    '',
    `Dashboard: ${new URL('/dashboard', options.publicUrl).toString()}`,
  ].join('\n');
  return { subject, body };
}

/**
 * Enqueues an alert on the user's channels: by e-mail, and the same alert on Telegram when the user has
 * a linked chat with Telegram notifications on (its own row, keyed as the e-mail's key plus
 * TELEGRAM_KEY_SUFFIX, so each channel is delivered and retried on its own, and an undelivered
 * Telegram alert can be e-mailed under the e-mail's key). Answers the messages enqueued.
 */
export async function enqueueAlert(
  trx: Executor,
  alert: {
    userId: bigint;
    channels: { email: boolean; telegram: boolean };
    kind: string;
    dedupeKey: string;
    subject: string;
    body: string;
    now: Date;
  },
): Promise<number> {
  const { channels, ...message } = alert;
  let enqueued = 0;
  if (channels.email && (await enqueueNotification(trx, { ...message, channel: 'email' }))) enqueued++;
  if (
    channels.telegram &&
    (await enqueueNotification(trx, {
      ...message,
      channel: 'telegram',
      dedupeKey: `${message.dedupeKey}${TELEGRAM_KEY_SUFFIX}`,
    }))
  )
    enqueued++;
  return enqueued;
}

/** One check at `now` (see the module comment). Idempotent. */
export async function checkOfflineWorkers(
  db: Kysely<DB>,
  now: Date,
  options: WorkerAlertOptions,
  signal?: AbortSignal,
): Promise<WorkerAlertRun> {
  const hashesPerDifficulty = options.hashesPerDifficulty ?? powHashesPerDifficulty;
  await forgetAlertStatesOfUsersWithoutAlerts(db);
  const emailedInstead = await emailUndeliveredTelegramAlerts(db, now, {
    since: new Date(now.getTime() - TELEGRAM_FALLBACK_MS),
    lateBefore: new Date(now.getTime() - TELEGRAM_LATE_MS),
  });
  const workers = await workersForOfflineAlerts(db);
  const run: WorkerAlertRun = { workers: workers.length, wentOffline: 0, cameBack: 0, messages: 0, emailedInstead };

  const byAccount = new Map<string, Judged[]>();
  for (const worker of workers) {
    const judged = judgeWorker(worker, now, hashesPerDifficulty);
    const list = byAccount.get(worker.account) ?? [];
    list.push(judged);
    byAccount.set(worker.account, list);
  }

  for (const [account, judged] of byAccount) {
    if (signal?.aborted) break;
    const changes: AlertStateChange[] = [];
    const gone: Judged[] = [];
    const back: Judged[] = [];
    const offlineSince = new Map<bigint, Date>();
    for (const j of judged) {
      const { worker, offline } = j;
      const state = worker.state;
      const since = worker.lastAcceptedAt ?? worker.firstSeenAt;
      if (state === null) {
        // First sight (alerts just turned on, or a new worker): recorded, not news.
        changes.push({ workerId: worker.workerId, offline, since, notified: false });
      } else if (offline && !state.offline) {
        changes.push({ workerId: worker.workerId, offline: true, since, notified: true });
        gone.push(j);
      } else if (!offline && state.offline && worker.lastAcceptedAt && worker.lastAcceptedAt > state.since) {
        // Back only with a share after the one it went offline at: a window made longer meanwhile
        // does not bring a silent worker back.
        changes.push({ workerId: worker.workerId, offline: false, since, notified: state.notified });
        // Back online is news only to a miner who was told it went offline.
        if (state.notified) {
          back.push(j);
          offlineSince.set(worker.workerId, state.since);
        }
      }
    }
    if (changes.length === 0) continue;
    const { userId, email, telegram } = (judged[0] as Judged).worker;
    const channels = { email, telegram };
    const sent = await db.transaction().execute(async (trx) => {
      const kept = new Set(await saveAlertStates(trx, changes, now));
      let messages = 0;
      const goneNow = gone.filter((j) => kept.has(j.worker.workerId));
      const backNow = back.filter((j) => kept.has(j.worker.workerId));
      if (goneNow.length > 0) {
        const ids = new Set(goneNow.map((j) => j.worker.workerId));
        messages += await enqueueAlert(trx, {
          userId,
          channels,
          kind: 'worker-offline',
          dedupeKey: dedupeKey(
            'worker-offline',
            account,
            changes.filter((c) => ids.has(c.workerId)),
          ),
          ...offlineMessage(options, account, goneNow),
          now,
        });
      }
      if (backNow.length > 0) {
        const ids = new Set(backNow.map((j) => j.worker.workerId));
        messages += await enqueueAlert(trx, {
          userId,
          channels,
          kind: 'worker-online',
          dedupeKey: dedupeKey(
            'worker-online',
            account,
            changes.filter((c) => ids.has(c.workerId)),
          ),
          ...onlineMessage(options, account, backNow, offlineSince),
          now,
        });
      }
      return { messages, gone: goneNow.length, back: backNow.length };
    });
    run.messages += sent.messages;
    run.wentOffline += sent.gone;
    run.cameBack += sent.back;
  }
  return run;
}

/**
 * The check as a job: every minute, 20 seconds after the minute turns (after the worker rollup at
 * 5 s, so the hourly statistics it reads are fresh), and at start. Singleton.
 */
export function workerAlertJob(options: WorkerAlertOptions): JobDefinition {
  return {
    name: 'worker-alerts',
    everyMs: 60_000,
    offsetMs: 20_000,
    runOnStart: true,
    singleton: true,
    async run({ database, now, signal, log }) {
      const result = await checkOfflineWorkers(database.db, now, options, signal);
      if (result.messages + result.emailedInstead > 0)
        log.info({ job: 'worker-alerts', ...result }, 'offline-worker alerts enqueued');
      else log.debug({ job: 'worker-alerts', ...result }, 'offline workers checked');
    },
  };
}
