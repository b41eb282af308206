import type { AlgorithmKey } from '@lodestone/domain';
import type { Block, Executor, NewBlock } from '../schema.js';

/**
 * Records a found block once: true when inserted, false when its id or its hash is already recorded
 * (the same report delivered again, or a second report of the same block).
 */
export async function recordBlock(db: Executor, block: NewBlock): Promise<boolean> {
  const inserted = await db
    .insertInto('blocks')
    .values(block)
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted !== undefined) return true;
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
  return upgraded !== undefined;
}

/** Blocks found per algorithm, not counting those the daemon rejected. */
export async function countBlocksByAlgorithm(db: Executor): Promise<Map<AlgorithmKey, number>> {
  const rows = await db
    .selectFrom('blocks')
    .select(['algorithm', (eb) => eb.fn.countAll<bigint>().as('n')])
    .where('status', '<>', 'rejected')
    .groupBy('algorithm')
    .execute();
  return new Map(rows.map((r) => [r.algorithm, Number(r.n)]));
}

/** One block by its hash (tests, admin tools). */
export function blockByHash(db: Executor, hash: string): Promise<Block | undefined> {
  return db.selectFrom('blocks').selectAll().where('hash', '=', hash).executeTakeFirst();
}
