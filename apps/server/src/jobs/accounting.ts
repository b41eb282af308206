import {
  addWorkerMinuteStats,
  type DB,
  type Executor,
  recordBlock,
  recordShareBatch,
  upsertWorkers,
  type WorkerActivity,
  type WorkerMinuteCounts,
} from '@lodestone/db';
import { algorithmByKey, type FoundBlock, plainDecimal, type ShareBatch, sumDecimals } from '@lodestone/domain';
import type { Kysely } from 'kysely';
import type { ShareBus, Unsubscribe } from '../bus/types.js';
import type { Log } from './types.js';

const MINUTE_MS = 60_000;

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

/** A message accounting can never apply; retrying it would block the queue behind it forever. */
export class InvalidMessageError extends Error {
  override readonly name = 'InvalidMessageError';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new InvalidMessageError(what);
}

const isCount = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
const isAmount = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0;
const isInstant = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;

function validateBatch(batch: ShareBatch): void {
  check(typeof batch.id === 'string' && UUID.test(batch.id), `share batch id is not a UUID: ${String(batch.id)}`);
  const where = `share batch ${batch.id}`;
  check(typeof batch.node === 'string' && batch.node !== '', `${where}: node is empty`);
  check(
    algorithmByKey(String(batch.algorithm)) !== undefined,
    `${where}: unknown algorithm ${String(batch.algorithm)}`,
  );
  check(isInstant(batch.intervalStart) && isInstant(batch.intervalEnd), `${where}: interval is not epoch milliseconds`);
  check(batch.intervalEnd >= batch.intervalStart, `${where}: interval ends before it starts`);
  check(Array.isArray(batch.workers), `${where}: workers is not a list`);
  for (const w of batch.workers) {
    check(typeof w.account === 'string' && w.account !== '', `${where}: a worker has no account`);
    check(typeof w.worker === 'string', `${where}: worker name of ${w.account} is not text`);
    check(isAmount(w.acceptedDifficulty), `${where}: accepted difficulty of ${w.account}.${w.worker} is invalid`);
    check(isCount(w.valid) && isCount(w.invalid) && isCount(w.stale), `${where}: counts of ${w.account}.${w.worker}`);
    check(isInstant(w.lastShareAt), `${where}: last share time of ${w.account}.${w.worker} is invalid`);
  }
}

interface MergedWorker {
  account: string;
  name: string;
  difficulties: number[];
  valid: number;
  invalid: number;
  stale: number;
  lastShareAt: number;
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
    } else {
      byKey.set(key, {
        account: w.account,
        name: w.worker,
        difficulties: [w.acceptedDifficulty],
        valid: w.valid,
        invalid: w.invalid,
        stale: w.stale,
        lastShareAt: w.lastShareAt,
      });
    }
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, w]) => w);
}

/**
 * Applies one share batch, in one transaction, at most once in effect: the batch id goes into
 * share_batches first, and if it is already there (a redelivery, or a concurrent delivery that
 * committed first — PostgreSQL makes the second insert wait for it) nothing else happens. Otherwise
 * every worker of the batch is created or updated (last share time = the later one, all-time accepted
 * difficulty added) and its counts are added to its row of `batchMinute(batch)`.
 *
 * Throws InvalidMessageError, having written nothing, for a batch that can never be applied.
 */
export async function applyShareBatch(db: Kysely<DB>, batch: ShareBatch): Promise<{ applied: boolean }> {
  validateBatch(batch);
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
    return { applied: true };
  });
}

function validateBlock(block: FoundBlock): void {
  check(typeof block.id === 'string' && UUID.test(block.id), `found block id is not a UUID: ${String(block.id)}`);
  const where = `found block ${block.id}`;
  check(algorithmByKey(String(block.algorithm)) !== undefined, `${where}: unknown algorithm`);
  check(typeof block.hash === 'string' && /^[0-9a-f]{64}$/i.test(block.hash), `${where}: hash is not 32 bytes of hex`);
  check(isCount(block.height), `${where}: height is invalid`);
  check(typeof block.reward === 'string' && /^\d{1,40}$/.test(block.reward), `${where}: reward is not whole units`);
  check(isAmount(block.difficulty), `${where}: difficulty is invalid`);
  check(isInstant(block.foundAt), `${where}: found time is invalid`);
  check(typeof block.account === 'string' && typeof block.worker === 'string', `${where}: finder is invalid`);
}

/**
 * Records a block found through the pool, once: a block the daemon accepted starts `pending`
 * (confirmations decide later), one it refused is `rejected` with the daemon's reason. Recording the
 * same report again, or another report of the same block hash, changes nothing.
 */
export async function recordFoundBlock(db: Executor, block: FoundBlock): Promise<{ recorded: boolean }> {
  validateBlock(block);
  const recorded = await recordBlock(db, {
    id: block.id,
    node: block.node,
    algorithm: block.algorithm,
    coin: block.coin,
    height: block.height,
    hash: block.hash.toLowerCase(),
    reward: block.reward,
    account: block.account,
    worker: block.worker,
    difficulty: plainDecimal(block.difficulty),
    status: block.submitResult.accepted ? 'pending' : 'rejected',
    found_at: new Date(block.foundAt),
    submit_error: block.submitResult.accepted ? null : block.submitResult.reason || 'refused',
  });
  return { recorded };
}

export interface ShareConsumerOptions {
  bus: ShareBus;
  db: Kysely<DB>;
  log: Log;
}

/**
 * Wires the bus to accounting: share batches → applyShareBatch, found blocks → recordFoundBlock. A
 * database error propagates so the bus delivers the message again (idempotent on both sides). An
 * InvalidMessageError is logged as an error and the message acknowledged: it can never succeed, and
 * redelivering it would hold up every message behind it. Returns one unsubscribe for both.
 */
export async function startShareConsumers({ bus, db, log }: ShareConsumerOptions): Promise<Unsubscribe> {
  const acknowledgeInvalid = (error: unknown, what: object) => {
    if (!(error instanceof InvalidMessageError)) throw error;
    log.error({ ...what, err: error }, 'dropping a message accounting can never apply');
  };
  const stopBatches = await bus.consumeShareBatches(async (batch) => {
    try {
      const { applied } = await applyShareBatch(db, batch);
      if (!applied) log.debug({ batchId: batch.id, node: batch.node }, 'share batch already applied');
    } catch (error) {
      acknowledgeInvalid(error, { batchId: batch?.id, node: batch?.node });
    }
  });
  let stopBlocks: Unsubscribe;
  try {
    stopBlocks = await bus.consumeFoundBlocks(async (block) => {
      try {
        const { recorded } = await recordFoundBlock(db, block);
        log.info(
          { blockId: block.id, algorithm: block.algorithm, height: block.height, hash: block.hash, recorded },
          recorded ? 'block recorded' : 'block already recorded',
        );
      } catch (error) {
        acknowledgeInvalid(error, { blockId: block?.id, hash: block?.hash });
      }
    });
  } catch (error) {
    await stopBatches();
    throw error;
  }
  return async () => {
    await Promise.all([stopBatches(), stopBlocks()]);
  };
}
