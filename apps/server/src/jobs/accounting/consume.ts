import type { DB } from '@lodestone/db';
import type { AlgorithmKey } from '@lodestone/domain';
import type { Kysely } from 'kysely';
import type { ShareBus, Unsubscribe } from '../../bus/types.js';
import { type AccountingMetrics, NO_ACCOUNTING_METRICS } from '../metrics.js';
import type { Log } from '../types.js';
import { applyShareBatch } from './apply.js';
import { recordFoundBlock } from './blocks.js';
import type { CreditSettings } from './value.js';

export interface ShareConsumerOptions {
  bus: ShareBus;
  db: Kysely<DB>;
  log: Log;
  /** PPS crediting with each applied batch; without it batches feed statistics only. */
  credit?: CreditSettings;
  /**
   * Asked before each message is applied: false hands it back to the bus for later (the jobs lease
   * lapsed, and another process may be active now). Default: always.
   */
  mayApply?: () => boolean;
  /** Take the bus's consumers over from a deposed process (ConsumeOptions.takeOver). */
  takeOver?: boolean;
  metrics?: AccountingMetrics;
  /** Clock of the batch lag (epoch ms); tests move it. */
  now?: () => number;
  /** Called once per algorithm: when the first batch with accepted shares of it is applied. */
  onNewAlgorithm?: (algorithm: AlgorithmKey) => void;
}

export class NotActiveError extends Error {
  override readonly name = 'NotActiveError';
  constructor() {
    super('this jobs process no longer holds the jobs lease; the message is left to the active one');
  }
}

const DROPPED = 'dropping a message accounting can never apply';

/**
 * Wires the bus to accounting: share batches → applyShareBatch, found blocks → recordFoundBlock. The
 * bus hands over only messages its contract schema accepted; one it refused is logged here as an
 * error and dropped (it can never succeed, and redelivering it would hold up every message behind
 * it). A database error propagates so the bus delivers the message again (idempotent on both
 * sides). Returns one unsubscribe for both.
 */
export async function startShareConsumers({
  bus,
  db,
  log,
  credit,
  mayApply = () => true,
  takeOver = false,
  metrics = NO_ACCOUNTING_METRICS,
  now = Date.now,
  onNewAlgorithm,
}: ShareConsumerOptions): Promise<Unsubscribe> {
  const seen = new Set<AlgorithmKey>();
  const stopBatches = await bus.consumeShareBatches(
    async (batch) => {
      if (!mayApply()) throw new NotActiveError();
      const result = await applyShareBatch(db, batch, credit);
      if (result.applied) metrics.batchApplied(batch.algorithm, batch.node, (now() - batch.intervalEnd) / 1000);
      if (result.applied && !seen.has(batch.algorithm) && batch.workers.some((w) => w.acceptedDifficulty > 0)) {
        seen.add(batch.algorithm);
        onNewAlgorithm?.(batch.algorithm);
      }
      if (!result.applied) log.debug({ batchId: batch.id, node: batch.node }, 'share batch already applied');
      else if (result.credit?.kind === 'waiting-for-prices') {
        log.error(
          { batchId: batch.id, algorithm: batch.algorithm, tickers: result.credit.tickers },
          'prices are stale: PPS credits wait until a fresh price arrives',
        );
      } else if (result.credit?.kind === 'not-valued') {
        log.error({ batchId: batch.id, reason: result.credit.reason }, 'share batch could not be valued for PPS');
      }
    },
    { onInvalid: ({ id, error }) => log.error({ batchId: id, err: error }, DROPPED), takeOver },
  );
  let stopBlocks: Unsubscribe;
  try {
    stopBlocks = await bus.consumeFoundBlocks(
      async (block) => {
        if (!mayApply()) throw new NotActiveError();
        const { recorded } = await recordFoundBlock(db, block, credit?.soloFeePercent);
        if (recorded) metrics.blockRecorded(block.algorithm, block.coin);
        log.info(
          { blockId: block.id, algorithm: block.algorithm, height: block.height, hash: block.hash, recorded },
          recorded ? 'block recorded' : 'block already recorded',
        );
      },
      { onInvalid: ({ id, error }) => log.error({ blockId: id, err: error }, DROPPED), takeOver },
    );
  } catch (error) {
    await stopBatches();
    throw error;
  }
  return async () => {
    await Promise.all([stopBatches(), stopBlocks()]);
  };
}
