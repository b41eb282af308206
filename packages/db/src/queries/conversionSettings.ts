import type { AlgorithmKey } from '@lodestone/domain';
import type { Executor } from '../schema.js';

/** Which list of an account's conversion settings: one per algorithm, or the shared one. */
export type ConversionListKey = AlgorithmKey | 'all';

export interface ConversionRow {
  ticker: string;
  /** Percent, exact decimal text. */
  proportion: string;
}

export interface StoredConversionSettings {
  allAlgorithms: boolean;
  /** The stored lists, in catalogue order; a list with no rows is absent. */
  lists: Map<ConversionListKey, ConversionRow[]>;
}

/** An account's conversion settings as stored (no defaults applied). */
export async function conversionSettingsOf(db: Executor, accountId: bigint): Promise<StoredConversionSettings> {
  const account = await db
    .selectFrom('accounts')
    .select('conversion_all_algorithms')
    .where('id', '=', accountId)
    .executeTakeFirst();
  const rows = await db
    .selectFrom('conversion_settings as s')
    .innerJoin('coins as c', 'c.ticker', 's.ticker')
    .select(['s.algorithm', 's.ticker', 's.proportion'])
    .where('s.account_id', '=', accountId)
    .orderBy('s.algorithm')
    .orderBy('c.position')
    .execute();
  const lists = new Map<ConversionListKey, ConversionRow[]>();
  for (const r of rows) {
    const list = lists.get(r.algorithm) ?? [];
    list.push({ ticker: r.ticker, proportion: r.proportion });
    lists.set(r.algorithm, list);
  }
  return { allAlgorithms: account?.conversion_all_algorithms ?? false, lists };
}

/**
 * Replaces the given lists of an account's conversion settings (lists not given are kept) and sets
 * whether the shared list applies. Run it in a transaction with the account locked.
 */
export async function replaceConversionSettings(
  db: Executor,
  accountId: bigint,
  lists: ReadonlyMap<ConversionListKey, readonly ConversionRow[]>,
  allAlgorithms: boolean,
): Promise<void> {
  const keys = [...lists.keys()];
  if (keys.length > 0) {
    await db
      .deleteFrom('conversion_settings')
      .where('account_id', '=', accountId)
      .where('algorithm', 'in', keys)
      .execute();
  }
  const rows = [...lists].flatMap(([algorithm, list]) =>
    list.map((r) => ({ account_id: accountId, algorithm, ticker: r.ticker, proportion: r.proportion })),
  );
  if (rows.length > 0) await db.insertInto('conversion_settings').values(rows).execute();
  await db
    .updateTable('accounts')
    .set({ conversion_all_algorithms: allAlgorithms })
    .where('id', '=', accountId)
    .execute();
}
