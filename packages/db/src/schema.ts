import type { AlgorithmKey } from '@lodestone/domain';
import type { ColumnType, Generated, GeneratedAlways, Insertable, Kysely, Selectable, Transaction } from 'kysely';

/**
 * Table types for Kysely, written by hand next to the migrations (columns keep their snake_case SQL
 * names). Value types follow typeParsers.ts: int8 → bigint, numeric → string, timestamptz → Date.
 */

/** NUMERIC: an exact decimal string when read and when written; never a JS number. */
export type Numeric = ColumnType<string, string, string>;

export interface PoolStatsTable {
  id: GeneratedAlways<bigint>;
  algorithm: AlgorithmKey;
  taken_at: Date;
  /** H/s. */
  hashrate: Numeric;
  miners: number;
  workers: number;
  /** BTC per H/s per day. */
  profit: Numeric;
  /** BTC per H/s per day, averaged over the last 24 hours. */
  profit_avg_24h: Numeric;
  /** Accounts that ever had an accepted share, on any algorithm (pool-wide; see rollup.ts). */
  users: Generated<number>;
  /** Blocks found on this algorithm and not rejected by the daemon. */
  blocks: Generated<number>;
  /** All-time hashes: Σ accepted difficulty × hashes per difficulty 1. */
  total_hashes: ColumnType<string, string | undefined, string>;
}

export interface WorkersTable {
  id: GeneratedAlways<bigint>;
  /** The account name of the stratum login `{account}.{worker}`. */
  account: string;
  algorithm: AlgorithmKey;
  name: string;
  first_seen_at: Date;
  last_share_at: Date;
  total_accepted_difficulty: ColumnType<string, string | undefined, string>;
}

export interface WorkerStatsMinuteTable {
  worker_id: bigint;
  /** Always the worker's algorithm (denormalized for the time-range index). */
  algorithm: AlgorithmKey;
  /** Start of the UTC minute. */
  minute: Date;
  accepted_difficulty: Numeric;
  valid: number;
  invalid: number;
  stale: number;
}

export interface ShareBatchesTable {
  id: string;
  node: string;
  algorithm: AlgorithmKey;
  interval_start: Date;
  interval_end: Date;
  applied_at: ColumnType<Date, Date | undefined, never>;
}

export type BlockStatus = 'pending' | 'confirmed' | 'orphaned' | 'rejected';

export interface BlocksTable {
  id: string;
  node: string;
  algorithm: AlgorithmKey;
  coin: string;
  /** int8: a bigint when read. */
  height: ColumnType<bigint, bigint | number, bigint | number>;
  hash: string;
  /** Coin smallest units, NUMERIC(40,0). */
  reward: Numeric;
  account: string;
  worker: string;
  difficulty: Numeric;
  status: BlockStatus;
  found_at: Date;
  submit_error: string | null;
}

/** Created and written only by the migrator. */
export interface SchemaMigrationsTable {
  version: number;
  name: string;
  /** SHA-256 (hex) of the migration file as applied. */
  checksum: string;
  applied_at: ColumnType<Date, Date | undefined, never>;
}

export interface DB {
  blocks: BlocksTable;
  pool_stats: PoolStatsTable;
  schema_migrations: SchemaMigrationsTable;
  share_batches: ShareBatchesTable;
  worker_stats_minute: WorkerStatsMinuteTable;
  workers: WorkersTable;
}

/** What query functions take: the database or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

export type PoolStats = Selectable<PoolStatsTable>;
export type NewPoolStats = Insertable<PoolStatsTable>;
export type Worker = Selectable<WorkersTable>;
export type Block = Selectable<BlocksTable>;
export type NewBlock = Insertable<BlocksTable>;
