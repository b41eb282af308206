import { blockHashText } from '@lodestone/contract';
import { type Executor, recordBlock } from '@lodestone/db';
import { type FoundBlock, plainDecimal } from '@lodestone/domain';

/**
 * Records a block found through the pool, once: a block the daemon accepted starts `pending`
 * (confirmations decide later), one it refused is `rejected` with the daemon's reason. Recording the
 * same report again, or another report of the same block hash, changes nothing — except that a
 * report of its acceptance turns a block recorded as refused into `pending` (merged mining: two
 * shares of one aux block, the second refused as stale before the first's acceptance was reported;
 * its found-block id stays the first report's). The hash is stored
 * as its chain writes it (`blockHashText`); the bus's schema (`foundBlockMessage`) has already
 * refused one that is not of its chain's form.
 */
export async function recordFoundBlock(
  db: Executor,
  block: FoundBlock,
  /** The solo fee in force (SOLO_FEE_PERCENT): a solo block keeps it (docs/solo.md). Needed for solo blocks. */
  soloFeePercent?: number | string,
): Promise<{ recorded: boolean }> {
  const hash = blockHashText(block.algorithm, block.hash);
  if (hash === undefined) throw new Error(`found block ${block.id}: hash is not 32 bytes as its chain writes them`);
  if (block.solo && soloFeePercent === undefined) throw new Error(`found block ${block.id}: solo, with no solo fee`);
  const recorded = await recordBlock(db, {
    id: block.id,
    node: block.node,
    algorithm: block.algorithm,
    coin: block.coin,
    height: block.height,
    hash,
    reward: block.reward,
    account: block.account,
    worker: block.worker,
    difficulty: plainDecimal(block.difficulty),
    network_difficulty: block.networkDifficulty ?? null,
    status: block.submitResult.accepted ? 'pending' : 'rejected',
    found_at: new Date(block.foundAt),
    chain: block.chain ?? null,
    submit_error: block.submitResult.accepted ? null : block.submitResult.reason || 'refused',
    solo: block.solo === true,
    solo_fee_percent: block.solo ? String(soloFeePercent) : null,
  });
  return { recorded };
}
