import {
  addRoundWork,
  addWorkerConnections,
  addWorkerMinuteStats,
  addWorkerRejects,
  type DB,
  type RoundWork,
  recordShareBatch,
  upsertWorkers,
  type WorkerActivity,
  type WorkerMinuteCounts,
  type WorkerRejects,
} from '@lodestone/db';
import { type ShareBatch, sumDecimals } from '@lodestone/domain';
import type { Kysely } from 'kysely';
import { type BatchCredit, type CreditSettings, creditShares } from './value.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * The minute a batch's counts go to: the UTC minute that contains the batch's last instant,
 * `intervalEnd − 1 ms` (the interval is [start, end)). A batch is never split: its counts are whole
 * shares and it does not say when within the interval each one arrived. A batch spanning a minute
 * boundary — say 12:00:58 to 12:01:03 — therefore lands wholly in 12:01; since stratum nodes flush
 * every few seconds, at most those few seconds of shares move into the next minute, and nothing is
 * counted twice or lost. (A degenerate batch with end ≤ start goes to the minute of its start.)
 */
export function batchMinute(batch: Pick<ShareBatch, 'intervalStart' | 'intervalEnd'>): Date {
  const last = Math.max(batch.intervalStart, batch.intervalEnd - 1);
  return new Date(Math.floor(last / MINUTE_MS) * MINUTE_MS);
}

interface MergedWorker {
  account: string;
  name: string;
  difficulties: number[];
  valid: number;
  invalid: number;
  stale: number;
  lastShareAt: number;
  lastAcceptedAt: number | undefined;
  rejectReasons: Record<string, number>;
}

/** One entry per (account, worker), sorted by code units so concurrent batches lock rows in one order. */
function mergeWorkers(batch: ShareBatch): MergedWorker[] {
  const byKey = new Map<string, MergedWorker>();
  for (const w of batch.workers) {
    const key = `${w.account}\u0000${w.worker}`;
    const seen = byKey.get(key);
    if (seen) {
      seen.difficulties.push(w.acceptedDifficulty);
      seen.valid += w.valid;
      seen.invalid += w.invalid;
      seen.stale += w.stale;
      seen.lastShareAt = Math.max(seen.lastShareAt, w.lastShareAt);
      if (w.lastAcceptedAt !== undefined) seen.lastAcceptedAt = Math.max(seen.lastAcceptedAt ?? 0, w.lastAcceptedAt);
      for (const [reason, n] of Object.entries(w.rejectReasons)) {
        seen.rejectReasons[reason] = (seen.rejectReasons[reason] ?? 0) + n;
      }
    } else {
      byKey.set(key, {
        account: w.account,
        name: w.worker,
        difficulties: [w.acceptedDifficulty],
        valid: w.valid,
        invalid: w.invalid,
        stale: w.stale,
        lastShareAt: w.lastShareAt,
        lastAcceptedAt: w.lastAcceptedAt,
        rejectReasons: { ...w.rejectReasons },
      });
    }
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, w]) => w);
}

/** The batch's refused shares by worker and reason, in the hour of the batch's minute. */
function rejectsOf(workers: readonly MergedWorker[], idOf: ReadonlyMap<string, bigint>, minute: Date): WorkerRejects[] {
  const hour = new Date(Math.floor(minute.getTime() / HOUR_MS) * HOUR_MS);
  return workers.flatMap((w) => {
    const workerId = idOf.get(`${w.account}\u0000${w.name}`);
    if (workerId === undefined) return [];
    return Object.entries(w.rejectReasons)
      .filter(([, shares]) => shares > 0)
      .map(([reason, shares]) => ({ workerId, hour, reason, shares }));
  });
}

/**
 * The batch's accepted difficulty as work on the rounds of every chain it was mined against: its
 * network's and each merge-mined chain's (docs/blocks.md). A batch from before the first job names
 * no network and adds to no round.
 */
function roundWork(batch: ShareBatch, activity: readonly WorkerActivity[]): RoundWork {
  const networks = [...(batch.network ? [batch.network] : []), ...(batch.merged ?? [])];
  return {
    algorithm: batch.algorithm,
    acceptedDifficulty: sumDecimals(activity.map((a) => a.acceptedDifficulty)),
    chains: networks.map((n) => ({ coin: n.coin, blockDifficulty: n.blockDifficulty ?? n.difficulty })),
    at: new Date(batch.intervalEnd),
  };
}

export interface ApplyResult {
  applied: boolean;
  credit?: BatchCredit;
}

/**
 * Applies one share batch, in one transaction, at most once in effect: the batch id goes into
 * share_batches first, and if it is already there (a redelivery, or a concurrent delivery that
 * committed first — PostgreSQL makes the second insert wait for it) nothing else happens. Otherwise
 * every worker of the batch is created or updated (last share time = the later one, all-time accepted
 * difficulty added) and its counts are added to its row of `batchMinute(batch)`.
 *
 * With credit settings, the same transaction values the batch and credits it (`creditShares`).
 *
 * The batch is trusted to be valid: the bus parses every message with its contract schema
 * (`shareBatchMessage`) before it gets here, and tests and seeds build theirs in code.
 */
export async function applyShareBatch(
  db: Kysely<DB>,
  batch: ShareBatch,
  credit?: CreditSettings,
): Promise<ApplyResult> {
  const workers = mergeWorkers(batch);
  const minute = batchMinute(batch);
  const seenAt = new Date(batch.intervalStart);
  return db.transaction().execute(async (trx) => {
    const fresh = await recordShareBatch(trx, {
      id: batch.id,
      node: batch.node,
      algorithm: batch.algorithm,
      intervalStart: new Date(batch.intervalStart),
      intervalEnd: new Date(batch.intervalEnd),
    });
    if (!fresh) return { applied: false };

    const activity: WorkerActivity[] = workers.map((w) => ({
      account: w.account,
      algorithm: batch.algorithm,
      name: w.name,
      seenAt,
      lastShareAt: new Date(w.lastShareAt),
      lastAcceptedAt: w.lastAcceptedAt === undefined ? null : new Date(w.lastAcceptedAt),
      acceptedDifficulty: sumDecimals(w.difficulties),
    }));
    const keys = await upsertWorkers(trx, activity);
    const idOf = new Map(keys.map((k) => [`${k.account}\u0000${k.name}`, k.id]));

    const counts: WorkerMinuteCounts[] = [];
    workers.forEach((w, i) => {
      if (w.valid + w.invalid + w.stale === 0) return;
      const workerId = idOf.get(`${w.account}\u0000${w.name}`);
      if (workerId === undefined) throw new Error(`worker ${w.account}.${w.name} was not returned by the upsert`);
      const difficulty = activity[i]?.acceptedDifficulty ?? '0';
      counts.push({
        workerId,
        algorithm: batch.algorithm,
        minute,
        acceptedDifficulty: difficulty,
        valid: w.valid,
        invalid: w.invalid,
        stale: w.stale,
      });
    });
    counts.sort((a, b) => (a.workerId < b.workerId ? -1 : a.workerId > b.workerId ? 1 : 0));
    await addWorkerMinuteStats(trx, counts);
    await addWorkerRejects(trx, rejectsOf(workers, idOf, minute));
    await addRoundWork(trx, roundWork(batch, activity));
    await addWorkerConnections(trx, batch.node, batch.algorithm, batch.connections ?? []);
    if (!credit) return { applied: true };
    return { applied: true, credit: await creditShares(trx, batch, activity, credit) };
  });
}
