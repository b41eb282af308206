import type { AlgorithmKey } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Block, Executor, NewBlock } from '../schema.js';
import { inTransaction } from './payouts.js';
import { closeSoloRound } from './solo.js';

/**
 * Records a found block once: true when inserted, false when its id or its hash is already recorded
 * (the same report delivered again, or a second report of the same block). A block the node accepted
 * closes its round (`closeRoundInto`) in the same transaction: its round work is stored on it.
 */
export async function recordBlock(db: Executor, block: NewBlock): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const inserted = await trx
      .insertInto('blocks')
      .values(block)
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted !== undefined) {
      if (block.status === 'pending') await closeRoundInto(trx, block);
      return true;
    }
    return upgradeRefused(trx, block);
  });
}

async function upgradeRefused(db: Executor, block: NewBlock): Promise<boolean> {
  // The same block reported again: only a node's acceptance may change what was recorded, and only
  // a refusal (two shares of one aux block, the later one's submission answered first).
  if (block.status !== 'pending') return false;
  const upgraded = await db
    .updateTable('blocks')
    .set({ status: 'pending', submit_error: null })
    .where('hash', '=', block.hash)
    .where('status', '=', 'rejected')
    .returning('id')
    .executeTakeFirst();
  if (upgraded === undefined) return false;
  await closeRoundInto(db, block);
  return true;
}

/**
 * Closes the block's round and keeps its work on the block row: the chain's pool round, or for a solo
 * block its finder's own solo round (another account's solo block, or a pool block, leaves it open).
 */
async function closeRoundInto(db: Executor, block: NewBlock): Promise<void> {
  const at = new Date(block.found_at);
  const round = block.solo
    ? await closeSoloRound(db, { account: block.account, algorithm: block.algorithm, coin: block.coin }, at)
    : await closeRound(db, block.algorithm, block.coin, at);
  if (round === undefined) return;
  await db.updateTable('blocks').set({ round_difficulty: round }).where('hash', '=', block.hash).execute();
}

/** Work to add to the rounds of the chains one share batch was mined against. */
export interface RoundWork {
  algorithm: AlgorithmKey;
  /** Accepted share difficulty of the batch, exact decimal text. */
  acceptedDifficulty: string;
  /** Each chain and the difficulty its blocks are found at now (decimal text). */
  chains: readonly { coin: string; blockDifficulty: string }[];
  at: Date;
}

/**
 * Adds a batch's accepted difficulty to each chain's open round (docs/blocks.md), in coin order so
 * that two batches never wait on each other's rows the other way round. The blocks' difficulty is
 * the newest batch's.
 */
export async function addRoundWork(db: Executor, work: RoundWork): Promise<void> {
  if (work.chains.length === 0) return;
  const rows = [...work.chains]
    .sort((a, b) => (a.coin < b.coin ? -1 : a.coin > b.coin ? 1 : 0))
    .map((c) => ({
      algorithm: work.algorithm,
      coin: c.coin,
      accepted_difficulty: work.acceptedDifficulty,
      started_at: work.at,
      block_difficulty: c.blockDifficulty,
      updated_at: work.at,
    }));
  await db
    .insertInto('block_rounds')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['algorithm', 'coin']).doUpdateSet({
        accepted_difficulty: sql`block_rounds.accepted_difficulty + excluded.accepted_difficulty`,
        block_difficulty: sql`case when excluded.updated_at >= block_rounds.updated_at
          then excluded.block_difficulty else block_rounds.block_difficulty end`,
        updated_at: sql`greatest(block_rounds.updated_at, excluded.updated_at)`,
      }),
    )
    .execute();
}

/**
 * Ends a chain's open round at `at`: answers the work it held (exact decimal text) and starts the
 * next one empty. Undefined when the chain has no round yet (no batch was mined against it).
 */
async function closeRound(db: Executor, algorithm: AlgorithmKey, coin: string, at: Date): Promise<string | undefined> {
  const closed = await sql<{ accepted_difficulty: string }>`
    update block_rounds r
    set accepted_difficulty = 0, started_at = ${at}
    from (
      select algorithm, coin, accepted_difficulty from block_rounds
      where algorithm = ${algorithm} and coin = ${coin}
      for update
    ) old
    where r.algorithm = old.algorithm and r.coin = old.coin
    returning old.accepted_difficulty`.execute(db);
  return closed.rows[0]?.accepted_difficulty;
}

/**
 * Blocks found per algorithm on its own coin, not counting those the daemon rejected nor the blocks
 * of chains merge-mined beside it (the Blocks page counts those per chain: `blockCountsByChain`).
 */
export async function countBlocksByAlgorithm(db: Executor): Promise<Map<AlgorithmKey, number>> {
  const rows = await db
    .selectFrom('blocks as b')
    .select(['b.algorithm', (eb) => eb.fn.countAll<bigint>().as('n')])
    .where('b.status', '<>', 'rejected')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('merged_network_states as m')
            .select('m.coin')
            .whereRef('m.algorithm', '=', 'b.algorithm')
            .whereRef('m.coin', '=', 'b.coin'),
        ),
      ),
    )
    .groupBy('b.algorithm')
    .execute();
  return new Map(rows.map((r) => [r.algorithm, Number(r.n)]));
}

/** Blocks found on each chain of an algorithm (merge-mined ones included), not counting rejected ones. */
export async function blockCountsByChain(db: Executor, algorithm: AlgorithmKey): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('blocks')
    .select(['coin', (eb) => eb.fn.countAll<bigint>().as('n')])
    .where('algorithm', '=', algorithm)
    .where('status', '<>', 'rejected')
    .groupBy('coin')
    .execute();
  return new Map(rows.map((r) => [r.coin, Number(r.n)]));
}

/** One page of a chain's found blocks, newest first, without those its node refused. */
export function chainBlocks(
  db: Executor,
  algorithm: AlgorithmKey,
  coin: string,
  page: { offset: number; limit: number },
): Promise<Block[]> {
  return db
    .selectFrom('blocks')
    .selectAll()
    .where('algorithm', '=', algorithm)
    .where('coin', '=', coin)
    .where('status', '<>', 'rejected')
    .orderBy('found_at', 'desc')
    .orderBy('height', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

/** A period's blocks with a recorded effort and the sum of their efforts (decimal text). */
interface EffortTotals {
  blocks: number;
  totalEffort: string;
}

/**
 * The pool's blocks of a chain found since each of `since` that have a recorded effort, and their
 * efforts summed (round difficulty ÷ network difficulty, in the database: one pass over the longest
 * period). Solo blocks are left out: their rounds are their finders' work, not the pool's, so they
 * are no part of the pool's luck (docs/solo.md).
 */
export async function effortTotals(
  db: Executor,
  algorithm: AlgorithmKey,
  coin: string,
  since: readonly Date[],
): Promise<EffortTotals[]> {
  if (since.length === 0) return [];
  const oldest = new Date(Math.min(...since.map((d) => d.getTime())));
  const columns = since.flatMap((from, i) => [
    sql<string>`count(*) filter (where found_at >= ${from})`.as(`n${i}`),
    sql<string | null>`sum(round_difficulty / network_difficulty) filter (where found_at >= ${from})`.as(`e${i}`),
  ]);
  const row: Record<string, unknown> = await db
    .selectFrom('blocks')
    .select(columns)
    .where('algorithm', '=', algorithm)
    .where('coin', '=', coin)
    .where('status', '<>', 'rejected')
    .where('solo', '=', false)
    .where('round_difficulty', 'is not', null)
    .where('network_difficulty', 'is not', null)
    .where('found_at', '>=', oldest)
    .executeTakeFirstOrThrow();
  return since.map((_, i) => ({
    blocks: Number(row[`n${i}`] ?? 0),
    totalEffort: String(row[`e${i}`] ?? '0'),
  }));
}

/** A chain's open round, or undefined before its first batch. */
export function openRound(db: Executor, algorithm: AlgorithmKey, coin: string) {
  return db
    .selectFrom('block_rounds')
    .select(['accepted_difficulty', 'block_difficulty', 'started_at'])
    .where('algorithm', '=', algorithm)
    .where('coin', '=', coin)
    .executeTakeFirst();
}

/** One block by its hash (tests, admin tools). */
export function blockByHash(db: Executor, hash: string): Promise<Block | undefined> {
  return db.selectFrom('blocks').selectAll().where('hash', '=', hash).executeTakeFirst();
}
