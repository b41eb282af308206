import {
  addWorkerMinuteStats,
  type DB,
  type Executor,
  insertPendingCredits,
  networkStates,
  recordBlock,
  recordShareBatch,
  saveNetworkState,
  upsertWorkers,
  type WorkerActivity,
  type WorkerMinuteCounts,
} from '@lodestone/db';
import {
  algorithmByKey,
  type BatchNetwork,
  Exact,
  type FoundBlock,
  plainDecimal,
  type ShareBatch,
  shareValue,
  sumDecimals,
} from '@lodestone/domain';
import type { Kysely } from 'kysely';
import type { ShareBus, Unsubscribe } from '../bus/types.js';
import { creditBatch } from '../services/money/ppsCredit.js';
import { loadPriceBook } from '../services/money/priceBook.js';
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
  if (batch.network !== undefined) validateNetwork(batch.network, where);
}

function validateNetwork(n: BatchNetwork, where: string): void {
  check(typeof n === 'object' && n !== null, `${where}: network is not an object`);
  check(typeof n.coin === 'string' && /^[A-Z0-9]{2,10}$/.test(n.coin), `${where}: network coin is invalid`);
  check(isCount(n.height), `${where}: network height is invalid`);
  check(typeof n.reward === 'string' && /^\d{1,40}$/.test(n.reward), `${where}: network reward is not whole units`);
  check(
    typeof n.difficulty === 'string' && /^\d+(\.\d+)?$/.test(n.difficulty) && /[1-9]/.test(n.difficulty),
    `${where}: network difficulty is not a positive decimal`,
  );
  check(typeof n.demo === 'boolean', `${where}: network demo flag is invalid`);
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

export interface CreditSettings {
  /** Pool fee in percent, before an account's discount. */
  feePercent: number | string;
  /** A price older than this is stale: the batch's credits wait for a fresh one. */
  priceMaxAgeMs: number;
  /** Clock for price freshness (tests). */
  now?: () => Date;
}

/** What happened to the PPS value of an applied batch. */
export type BatchCredit =
  | { kind: 'credited' }
  | { kind: 'waiting-for-prices'; tickers: string[] }
  | { kind: 'not-valued'; reason: string };

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
 * With credit settings, the same transaction values the batch (PPS: each account's accepted
 * difficulty × reward ÷ network difficulty of the network the batch carries, or the newest known
 * one) and credits it into the ledger at current prices ("instant credits"), or, when a price is
 * stale, keeps the values in pps_credits for the pending-credit job.
 *
 * Throws InvalidMessageError, having written nothing, for a batch that can never be applied.
 */
export async function applyShareBatch(
  db: Kysely<DB>,
  batch: ShareBatch,
  credit?: CreditSettings,
): Promise<ApplyResult> {
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
    if (!credit) return { applied: true };
    return { applied: true, credit: await creditShares(trx, batch, workers, activity, credit) };
  });
}

/** Values a batch's accepted shares per account and credits them (see applyShareBatch). */
async function creditShares(
  trx: Executor,
  batch: ShareBatch,
  workers: readonly MergedWorker[],
  activity: readonly WorkerActivity[],
  settings: CreditSettings,
): Promise<BatchCredit> {
  const now = settings.now?.() ?? new Date();
  let network: { coin: string; reward: string; difficulty: string } | undefined = batch.network;
  if (batch.network) {
    await saveNetworkState(trx, {
      algorithm: batch.algorithm,
      coin: batch.network.coin,
      height: batch.network.height,
      reward: BigInt(batch.network.reward),
      difficulty: batch.network.difficulty,
      demo: batch.network.demo,
      observedAt: new Date(batch.intervalEnd),
    });
  } else {
    network = (await networkStates(trx)).find((n) => n.algorithm === batch.algorithm);
  }
  if (!network) return { kind: 'not-valued', reason: `no network state known for ${batch.algorithm}` };

  const difficultyOf = new Map<string, Exact>();
  workers.forEach((w, i) => {
    const d = Exact.of(activity[i]?.acceptedDifficulty ?? '0');
    if (d.isZero()) return;
    difficultyOf.set(w.account, (difficultyOf.get(w.account) ?? Exact.ZERO).plus(d));
  });
  const reward = BigInt(network.reward);
  const values = new Map([...difficultyOf].map(([account, d]) => [account, shareValue(d, reward, network.difficulty)]));
  if (values.size === 0) return { kind: 'credited' };

  const outcome = await creditBatch(trx, {
    batchId: batch.id,
    algorithm: batch.algorithm,
    coin: network.coin,
    values,
    feePercent: settings.feePercent,
    prices: await loadPriceBook(trx, now, settings.priceMaxAgeMs),
  });
  if (outcome.kind === 'credited') return { kind: 'credited' };
  if (outcome.kind === 'unknown-coin')
    return { kind: 'not-valued', reason: `${outcome.coin} is not in the coin catalogue` };
  const pending = [...values].flatMap(([username, value]) => {
    const account = outcome.accounts.get(username);
    if (!account) return [];
    return [
      {
        batchId: batch.id,
        accountId: account.id,
        algorithm: batch.algorithm,
        coin: network.coin,
        acceptedDifficulty: (difficultyOf.get(username) ?? Exact.ZERO).toString(),
        networkDifficulty: network.difficulty,
        reward,
        value: value.toString(),
        intervalEnd: new Date(batch.intervalEnd),
      },
    ];
  });
  await insertPendingCredits(trx, pending);
  return { kind: 'waiting-for-prices', tickers: outcome.tickers };
}

/**
 * A found block's hash as it is recorded, in its chain's own text (what its nodes answer to): 64 hex
 * digits, lower case (bitcoin family, Kaspa); CKB's 0x and 64 hex digits; Kadena's 43 base64url
 * characters (chainweb's block hash text, case-sensitive). Undefined when it is none of its chain's.
 */
export function blockHashText(algorithm: string, hash: string): string | undefined {
  if (algorithm === 'blake2s') return /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/.test(hash) ? hash : undefined;
  if (algorithm === 'eaglesong') {
    const hex = hash.startsWith('0x') ? hash.slice(2) : hash;
    return /^[0-9a-f]{64}$/i.test(hex) ? `0x${hex.toLowerCase()}` : undefined;
  }
  return /^[0-9a-f]{64}$/i.test(hash) ? hash.toLowerCase() : undefined;
}

function validateBlock(block: FoundBlock): void {
  check(typeof block.id === 'string' && UUID.test(block.id), `found block id is not a UUID: ${String(block.id)}`);
  const where = `found block ${block.id}`;
  check(algorithmByKey(String(block.algorithm)) !== undefined, `${where}: unknown algorithm`);
  check(
    typeof block.hash === 'string' && blockHashText(String(block.algorithm), block.hash) !== undefined,
    `${where}: hash is not 32 bytes as its chain writes them`,
  );
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
    hash: blockHashText(block.algorithm, block.hash) as string,
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
  /** PPS crediting with each applied batch; without it batches feed statistics only. */
  credit?: CreditSettings;
}

/**
 * Wires the bus to accounting: share batches → applyShareBatch, found blocks → recordFoundBlock. A
 * database error propagates so the bus delivers the message again (idempotent on both sides). An
 * InvalidMessageError is logged as an error and the message acknowledged: it can never succeed, and
 * redelivering it would hold up every message behind it. Returns one unsubscribe for both.
 */
export async function startShareConsumers({ bus, db, log, credit }: ShareConsumerOptions): Promise<Unsubscribe> {
  const acknowledgeInvalid = (error: unknown, what: object) => {
    if (!(error instanceof InvalidMessageError)) throw error;
    log.error({ ...what, err: error }, 'dropping a message accounting can never apply');
  };
  const stopBatches = await bus.consumeShareBatches(async (batch) => {
    try {
      const result = await applyShareBatch(db, batch, credit);
      if (!result.applied) log.debug({ batchId: batch.id, node: batch.node }, 'share batch already applied');
      else if (result.credit?.kind === 'waiting-for-prices') {
        log.error(
          { batchId: batch.id, algorithm: batch.algorithm, tickers: result.credit.tickers },
          'prices are stale: PPS credits wait until a fresh price arrives',
        );
      } else if (result.credit?.kind === 'not-valued') {
        log.error({ batchId: batch.id, reason: result.credit.reason }, 'share batch could not be valued for PPS');
      }
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
