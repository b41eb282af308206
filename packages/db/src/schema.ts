import type { AlgorithmKey } from '@lodestone/domain';
import type { ColumnType, GeneratedAlways, Insertable, Kysely, Selectable, Transaction } from 'kysely';

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
  pool_stats: PoolStatsTable;
  schema_migrations: SchemaMigrationsTable;
}

/** What query functions take: the database or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

export type PoolStats = Selectable<PoolStatsTable>;
export type NewPoolStats = Insertable<PoolStatsTable>;
