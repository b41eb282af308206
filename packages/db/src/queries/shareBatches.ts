import type { AlgorithmKey } from '@lodestone/domain';
import type { Executor } from '../schema.js';

export interface ShareBatchRecord {
  id: string;
  node: string;
  algorithm: AlgorithmKey;
  intervalStart: Date;
  intervalEnd: Date;
}

/**
 * Records that a batch is being applied. True when this call inserted the id; false when the batch
 * was already recorded (a redelivery). Inside a transaction a concurrent insert of the same id waits
 * for the other transaction: false if it committed, true if it rolled back.
 */
export async function recordShareBatch(db: Executor, batch: ShareBatchRecord): Promise<boolean> {
  const inserted = await db
    .insertInto('share_batches')
    .values({
      id: batch.id,
      node: batch.node,
      algorithm: batch.algorithm,
      interval_start: batch.intervalStart,
      interval_end: batch.intervalEnd,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}
