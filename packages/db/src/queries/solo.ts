import { type AlgorithmKey, splitSoloReward } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Block, Executor } from '../schema.js';
import { postLedgerTransaction } from './ledger.js';
import { creditAccounts } from './ppsCredits.js';

/*
 * Solo mining (docs/solo.md): each account's solo round per chain, and the credit of a matured solo
 * block to its finder.
 */

/** One account's solo work of one share batch on one chain. */
export interface SoloRoundWork {
  account: string;
  algorithm: AlgorithmKey;
  coin: string;
  /** Accepted share difficulty, exact decimal text. */
  acceptedDifficulty: string;
  /** The batch's best share of the account (decimal text) and when; absent when none was accepted. */
  best?: { difficulty: string; at: Date };
  at: Date;
}

/**
 * Adds solo work to each account's open solo round, in (account, coin) order so that concurrent
 * batches lock rows one way. The round's best share is the higher one, with its own time.
 */
export async function addSoloRoundWork(db: Executor, work: readonly SoloRoundWork[]): Promise<void> {
  if (work.length === 0) return;
  const rows = [...work]
    .sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : a.coin < b.coin ? -1 : 1))
    .map((w) => ({
      account: w.account,
      algorithm: w.algorithm,
      coin: w.coin,
      accepted_difficulty: w.acceptedDifficulty,
      best_difficulty: w.best?.difficulty ?? null,
      best_at: w.best?.at ?? null,
      started_at: w.at,
      updated_at: w.at,
    }));
  await db
    .insertInto('solo_rounds')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['account', 'algorithm', 'coin']).doUpdateSet({
        accepted_difficulty: sql`solo_rounds.accepted_difficulty + excluded.accepted_difficulty`,
        best_difficulty: sql`case when excluded.best_difficulty > coalesce(solo_rounds.best_difficulty, 0)
          then excluded.best_difficulty else solo_rounds.best_difficulty end`,
        best_at: sql`case when excluded.best_difficulty > coalesce(solo_rounds.best_difficulty, 0)
          then excluded.best_at else solo_rounds.best_at end`,
        updated_at: sql`greatest(solo_rounds.updated_at, excluded.updated_at)`,
      }),
    )
    .execute();
}

/**
 * Ends an account's solo round on a chain at `at` (its block was found): answers the work it held and
 * starts the next one empty, best share cleared. Undefined when the account has no round there.
 */
export async function closeSoloRound(
  db: Executor,
  round: { account: string; algorithm: AlgorithmKey; coin: string },
  at: Date,
): Promise<string | undefined> {
  const closed = await sql<{ accepted_difficulty: string }>`
    update solo_rounds r
    set accepted_difficulty = 0, best_difficulty = null, best_at = null, started_at = ${at}
    from (
      select account, algorithm, coin, accepted_difficulty from solo_rounds
      where account = ${round.account} and algorithm = ${round.algorithm} and coin = ${round.coin}
      for update
    ) old
    where r.account = old.account and r.algorithm = old.algorithm and r.coin = old.coin
    returning old.accepted_difficulty`.execute(db);
  return closed.rows[0]?.accepted_difficulty;
}

/** The idempotency key of a solo block's credit to its finder. */
export function soloRewardKey(hash: string): string {
  return `solo:${hash}`;
}

export type SoloRewardOutcome =
  | { credited: true; owner: bigint; accountId: bigint }
  | { credited: false; reason: 'account-gone' | 'already-credited' };

/**
 * Credits a matured solo block (docs/solo.md, "At maturity"): ONE ledger transaction, kind
 * 'solo_reward', key `solo:{hash}` — pool:solo −reward, the finder its reward less the solo fee in
 * force when the block was found (its fee discount applies), its referrer a fifth of the fee, pool:fees
 * the rest. Call it in the database transaction that confirms the block. A finder whose account is
 * gone is not credited: the reward stays the pool's (pool:blocks), as for the pool's own blocks.
 */
export async function postSoloReward(
  db: Executor,
  block: Pick<Block, 'hash' | 'coin' | 'account' | 'algorithm' | 'solo_fee_percent'>,
  reward: bigint,
  at: Date,
): Promise<SoloRewardOutcome> {
  if (block.solo_fee_percent === null) throw new Error(`block ${block.hash} is not a solo block`);
  // The live account and its discount and live referrer, as PPS credits find them.
  const finder = (await creditAccounts(db, [block.account], block.algorithm)).get(block.account);
  if (finder === undefined) return { credited: false, reason: 'account-gone' };
  const { referrerId } = finder;
  const split = splitSoloReward(reward, {
    feePercent: block.solo_fee_percent,
    discount: finder.feeDiscount,
    referred: referrerId !== null,
  });
  const { coin, algorithm } = block;
  const posted = await postLedgerTransaction(db, {
    key: soloRewardKey(block.hash),
    kind: 'solo_reward',
    reference: block.hash,
    at,
    legs: [
      { account: { system: 'pool:solo' }, coin, amount: -reward, kind: 'solo_expense', algorithm },
      { account: { accountId: finder.id }, coin, amount: split.owner, kind: 'solo_reward', algorithm },
      ...(referrerId === null
        ? []
        : [
            {
              account: { accountId: referrerId },
              coin,
              amount: split.referral,
              kind: 'referral' as const,
              algorithm,
              sourceAccountId: finder.id,
            },
          ]),
      { account: { system: 'pool:fees' }, coin, amount: split.poolFee, kind: 'fee', algorithm },
    ],
  });
  if (!posted.posted) return { credited: false, reason: 'already-credited' };
  return { credited: true, owner: split.owner, accountId: finder.id };
}

/** A solo block of an account with what its finder was credited (whole units; null: not credited). */
export type SoloBlockRow = Block & { credited: string | null };

/** An account's solo blocks on an algorithm, newest first, without those their node refused. */
export async function accountSoloBlocks(
  db: Executor,
  account: string,
  algorithm: AlgorithmKey,
  limit: number,
): Promise<SoloBlockRow[]> {
  return db
    .selectFrom('blocks as b')
    .leftJoin('ledger_transactions as t', (j) =>
      j.on('t.idempotency_key', '=', sql<string>`'solo:' || b.hash`).on('t.kind', '=', 'solo_reward'),
    )
    .leftJoin('ledger_entries as e', (j) => j.onRef('e.transaction_id', '=', 't.id').on('e.kind', '=', 'solo_reward'))
    .selectAll('b')
    .select(sql<string | null>`e.amount::text`.as('credited'))
    .where('b.account', '=', account)
    .where('b.algorithm', '=', algorithm)
    .where('b.solo', '=', true)
    .where('b.status', '<>', 'rejected')
    .orderBy('b.found_at', 'desc')
    .orderBy('b.height', 'desc')
    .limit(limit)
    .execute();
}

/** An account's open solo round on a chain; undefined before its first solo share there. */
export function accountSoloRound(db: Executor, account: string, algorithm: AlgorithmKey, coin: string) {
  return db
    .selectFrom('solo_rounds')
    .select(['accepted_difficulty', 'best_difficulty', 'best_at', 'started_at'])
    .where('account', '=', account)
    .where('algorithm', '=', algorithm)
    .where('coin', '=', coin)
    .executeTakeFirst();
}

/** The best share ever of each of an account's solo workers on an algorithm, by worker id. */
export async function soloWorkerBests(
  db: Executor,
  account: string,
  algorithm: AlgorithmKey,
): Promise<Map<string, { difficulty: string; at: Date }>> {
  const rows = await db
    .selectFrom('workers')
    .select(['id', 'best_difficulty', 'best_difficulty_at'])
    .where('account', '=', account)
    .where('algorithm', '=', algorithm)
    .where('solo', '=', true)
    .where('best_difficulty', 'is not', null)
    .execute();
  return new Map(
    rows.flatMap((r) =>
      r.best_difficulty === null || r.best_difficulty_at === null
        ? []
        : [[r.id.toString(), { difficulty: r.best_difficulty, at: r.best_difficulty_at }] as const],
    ),
  );
}
