import type { AlgorithmKey } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Coin, Executor, MergedNetworkState, NetworkState } from '../schema.js';

/** The payout coin catalogue in display order. */
export function listCoins(db: Executor): Promise<Coin[]> {
  return db.selectFrom('coins').selectAll().orderBy('position').execute();
}

export function coinByTicker(db: Executor, ticker: string): Promise<Coin | undefined> {
  return db.selectFrom('coins').selectAll().where('ticker', '=', ticker).executeTakeFirst();
}

export interface PriceRow {
  ticker: string;
  /** US dollars, exact decimal text. */
  usd: string;
  source: string;
  takenAt: Date;
}

/** Appends one price snapshot (one row per ticker); a repeated (ticker, time) keeps the first. */
export async function savePrices(
  db: Executor,
  snapshot: { source: string; takenAt: Date; quotes: readonly { ticker: string; usd: string }[] },
): Promise<void> {
  if (snapshot.quotes.length === 0) return;
  await db
    .insertInto('prices')
    .values(
      snapshot.quotes.map((q) => ({
        ticker: q.ticker,
        usd: q.usd,
        source: snapshot.source,
        taken_at: snapshot.takenAt,
      })),
    )
    .onConflict((oc) => oc.columns(['ticker', 'taken_at']).doNothing())
    .execute();
}

/** The newest price of every ticker. */
export async function latestPrices(db: Executor): Promise<Map<string, PriceRow>> {
  const rows = await sql<{ ticker: string; usd: string; source: string; taken_at: Date }>`
    select distinct on (ticker) ticker, usd, source, taken_at
      from prices order by ticker, taken_at desc
  `.execute(db);
  return new Map(
    rows.rows.map((r) => [r.ticker, { ticker: r.ticker, usd: r.usd, source: r.source, takenAt: r.taken_at }]),
  );
}

export interface NetworkObservation {
  algorithm: AlgorithmKey;
  coin: string;
  height: number | bigint;
  /** Smallest units. */
  reward: bigint;
  /** The template's transaction fees inside `reward`, when its node gave them all. */
  fees?: bigint | undefined;
  /** Share-difficulty convention, exact decimal text. */
  difficulty: string;
  demo: boolean;
  observedAt: Date;
  /** The chain's mean block interval now, where it changes (CKB); absent: the catalogue's fixed one. */
  blockSeconds?: number | undefined;
}

/** Keeps the newest network state per algorithm (an older observation arriving late is ignored). */
export async function saveNetworkState(db: Executor, n: NetworkObservation): Promise<void> {
  await saveState(db, 'network_states', ['algorithm'], n);
}

/** Keeps the newest state of each aux chain merge-mined on an algorithm (likewise). */
export async function saveMergedNetworkState(db: Executor, n: NetworkObservation): Promise<void> {
  await saveState(db, 'merged_network_states', ['algorithm', 'coin'], n);
}

async function saveState(
  db: Executor,
  table: 'network_states' | 'merged_network_states',
  key: ('algorithm' | 'coin')[],
  n: NetworkObservation,
): Promise<void> {
  await db
    .insertInto(table)
    .values({
      algorithm: n.algorithm,
      coin: n.coin,
      height: n.height,
      reward: n.reward.toString(),
      fees: n.fees === undefined ? null : n.fees.toString(),
      difficulty: n.difficulty,
      demo: n.demo,
      observed_at: n.observedAt,
      block_seconds: n.blockSeconds === undefined ? null : String(n.blockSeconds),
    })
    .onConflict((oc) =>
      oc
        .columns(key)
        .doUpdateSet((eb) => ({
          coin: eb.ref('excluded.coin'),
          height: eb.ref('excluded.height'),
          reward: eb.ref('excluded.reward'),
          fees: eb.ref('excluded.fees'),
          difficulty: eb.ref('excluded.difficulty'),
          demo: eb.ref('excluded.demo'),
          observed_at: eb.ref('excluded.observed_at'),
          block_seconds: eb.ref('excluded.block_seconds'),
        }))
        .where(`${table}.observed_at`, '<=', (eb) => eb.ref('excluded.observed_at')),
    )
    .execute();
}

export function networkStates(db: Executor): Promise<NetworkState[]> {
  return db.selectFrom('network_states').selectAll().execute();
}

/** True when `coin` is merge-mined on `algorithm` (it has an aux chain state there). */
export async function isMergedCoin(db: Executor, algorithm: string, coin: string): Promise<boolean> {
  const row = await db
    .selectFrom('merged_network_states')
    .select('coin')
    .where('algorithm', '=', algorithm as NetworkState['algorithm'])
    .where('coin', '=', coin)
    .executeTakeFirst();
  return row !== undefined;
}

/** The aux chains' newest states, per algorithm and coin (merged mining). */
export function mergedNetworkStates(db: Executor): Promise<MergedNetworkState[]> {
  return db.selectFrom('merged_network_states').selectAll().orderBy('algorithm').orderBy('coin').execute();
}
