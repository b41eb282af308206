import {
  addRoundWork,
  addSoloRoundWork,
  addWorkerConnections,
  addWorkerRejects,
  type DB,
  type RoundWork,
  recordShareBatch,
  recordWorkerShares,
  type SoloRoundWork,
  type WorkerActivity,
  type WorkerRejects,
  workerKey,
} from '@lodestone/db';
import { type BatchNetwork, plainDecimal, type ShareBatch, sumDecimals } from '@lodestone/domain';
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
  solo: boolean;
  /** A solo worker's best share of the batch; 0 when none (or a pool port's worker). */
  best: number;
  difficulties: number[];
  valid: number;
  invalid: number;
  stale: number;
  lastShareAt: number;
  lastAcceptedAt: number | undefined;
  rejectReasons: Record<string, number>;
}

/**
 * One entry per (account, worker, solo), sorted by workerKey so concurrent batches lock rows in one
 * order. A solo port's worker is a worker of its own (docs/solo.md).
 */
function mergeWorkers(batch: ShareBatch): MergedWorker[] {
  const byKey = new Map<string, MergedWorker>();
  const all = [
    ...batch.workers.map((w) => ({ w, solo: false })),
    ...(batch.soloWorkers ?? []).map((w) => ({ w, solo: true })),
  ];
  for (const { w, solo } of all) {
    const key = workerKey(w.account, w.worker, solo);
    const seen = byKey.get(key);
    if (seen) {
      seen.best = Math.max(seen.best, w.bestDifficulty ?? 0);
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
        solo,
        best: solo ? (w.bestDifficulty ?? 0) : 0,
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
    const workerId = idOf.get(workerKey(w.account, w.name, w.solo));
    if (workerId === undefined) return [];
    return Object.entries(w.rejectReasons)
      .filter(([, shares]) => shares > 0)
      .map(([reason, shares]) => ({ workerId, hour, reason, shares }));
  });
}

/** The chains a batch was mined against: its network and each merge-mined chain. */
function networksOf(batch: ShareBatch): BatchNetwork[] {
  return [...(batch.network ? [batch.network] : []), ...(batch.merged ?? [])];
}

/**
 * The batch's accepted difficulty (of pool ports' workers: `activity` holds no solo worker) as work
 * on the rounds of every chain it was mined against: its network's and each merge-mined chain's
 * (docs/blocks.md). A batch from before the first job names no network and adds to no round.
 */
function roundWork(batch: ShareBatch, activity: readonly WorkerActivity[]): RoundWork {
  const networks = networksOf(batch);
  return {
    algorithm: batch.algorithm,
    acceptedDifficulty: sumDecimals(activity.map((a) => a.acceptedDifficulty)),
    chains: networks.map((n) => ({ coin: n.coin, blockDifficulty: n.blockDifficulty ?? n.difficulty })),
    at: new Date(batch.intervalEnd),
  };
}

/**
 * The solo workers' accepted difficulty and best share per account (of `activity`'s solo rows), as
 * work on each account's solo round of every chain the batch was mined against (docs/solo.md).
 */
function soloRoundWork(batch: ShareBatch, activity: readonly WorkerActivity[]): SoloRoundWork[] {
  const byAccount = new Map<string, { difficulties: string[]; best?: { difficulty: string; at: Date } }>();
  for (const w of activity) {
    if (!w.solo) continue;
    const seen = byAccount.get(w.account) ?? { difficulties: [] };
    seen.difficulties.push(w.acceptedDifficulty);
    if (w.best && (!seen.best || Number(w.best.difficulty) > Number(seen.best.difficulty))) seen.best = w.best;
    byAccount.set(w.account, seen);
  }
  const at = new Date(batch.intervalEnd);
  return networksOf(batch).flatMap((n) =>
    [...byAccount].map(([account, w]) => {
      const work: SoloRoundWork = {
        account,
        algorithm: batch.algorithm,
        coin: n.coin,
        acceptedDifficulty: sumDecimals(w.difficulties),
        at,
      };
      if (w.best) work.best = w.best;
      return work;
    }),
  );
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
 * difficulty added) and its counts are added to its row of `batchMinute(batch)` and to its unrolled figures
 * (recordWorkerShares).
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

    const activity: WorkerActivity[] = workers.map((w) => {
      const row: WorkerActivity = {
        account: w.account,
        algorithm: batch.algorithm,
        name: w.name,
        seenAt,
        lastShareAt: new Date(w.lastShareAt),
        lastAcceptedAt: w.lastAcceptedAt === undefined ? null : new Date(w.lastAcceptedAt),
        acceptedDifficulty: sumDecimals(w.difficulties),
        counts: { valid: w.valid, invalid: w.invalid, stale: w.stale },
      };
      if (w.solo) row.solo = true;
      // The batch does not say which share was the best: its last accepted share's time, within one flush.
      if (w.best > 0) row.best = { difficulty: plainDecimal(w.best), at: new Date(w.lastAcceptedAt ?? w.lastShareAt) };
      return row;
    });
    const keys = await recordWorkerShares(trx, batch.algorithm, minute, activity);
    const idOf = new Map(keys.map((k) => [workerKey(k.account, k.name, k.solo), k.id]));
    await addWorkerRejects(trx, rejectsOf(workers, idOf, minute));
    // Solo shares are never valued by PPS nor counted in the pool's rounds: they go to their
    // accounts' own solo rounds (docs/solo.md).
    const pool = activity.filter((a) => !a.solo);
    await addRoundWork(trx, roundWork(batch, pool));
    if (pool.length < activity.length) await addSoloRoundWork(trx, soloRoundWork(batch, activity));
    await addWorkerConnections(trx, batch.node, batch.algorithm, batch.connections ?? []);
    if (!credit) return { applied: true };
    return { applied: true, credit: await creditShares(trx, batch, pool, credit) };
  });
}
