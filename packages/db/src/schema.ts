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

export interface UsersTable {
  id: GeneratedAlways<bigint>;
  /** Lower case; a tombstone once the user is deleted. */
  email: string;
  /** Argon2id PHC string; null: no password login. */
  password_hash: string | null;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_last_step: ColumnType<bigint | null, bigint | number | null | undefined, bigint | number | null>;
  anonymous: Generated<boolean>;
  send_monthly_reports: Generated<boolean>;
  offline_worker_notification: Generated<boolean>;
  telegram_notifications: Generated<boolean>;
  is_admin: Generated<boolean>;
  referral_source: string | null;
  last_login_at: Date | null;
  created_at: Generated<Date>;
  deleted_at: Date | null;
}

export interface AccountsTable {
  id: GeneratedAlways<bigint>;
  user_id: bigint;
  /** The `{account}` of stratum logins; unique whatever the case, forever. */
  username: string;
  /** Null once the account is removed. */
  api_key: string | null;
  observer_key: string | null;
  /** Upper-case letters and digits. */
  referral_code: string;
  referral_show: Generated<boolean>;
  /** Fraction of the pool fee waived, 0 to 1. */
  fee_discount: ColumnType<string, string | undefined, string>;
  referred_by: bigint | null;
  created_at: Generated<Date>;
  deleted_at: Date | null;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the cookie token. */
  id: string;
  user_id: bigint;
  impersonator_user_id: bigint | null;
  created_at: Generated<Date>;
  last_seen_at: Generated<Date>;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface UserLogTable {
  id: GeneratedAlways<bigint>;
  user_id: bigint;
  account_id: bigint | null;
  time: Generated<Date>;
  log_name: string;
  /** JSON object; written as JSON text. */
  log_value: ColumnType<Record<string, unknown>, string | undefined, never>;
}

export interface PasswordResetsTable {
  /** SHA-256 (hex) of the recovery key. */
  key_hash: string;
  user_id: bigint;
  created_at: Generated<Date>;
  expires_at: Date;
  used_at: Date | null;
}

export interface LoginFailuresTable {
  email: string;
  failures: number;
  last_failure_at: Date;
  locked_until: Date | null;
}

export interface CouponsTable {
  id: GeneratedAlways<bigint>;
  code: string;
  /** Fraction of the pool fee waived, above 0 and at most 1. */
  discount: Numeric;
  valid_from: Date | null;
  valid_until: Date | null;
  max_uses: number | null;
  uses: Generated<number>;
  created_at: Generated<Date>;
}

export interface CouponRedemptionsTable {
  coupon_id: bigint;
  account_id: bigint;
  redeemed_at: Generated<Date>;
}

export interface RedirectSettingsTable {
  account_id: bigint;
  target_account_id: bigint;
  /** Percent of earnings, above 0 and at most 100; an account's rows add up to at most 100. */
  percentage: Numeric;
}

export interface ReferralVisitsTable {
  source: string;
  /** UTC day, 'YYYY-MM-DD' (date columns are read as text). */
  day: string;
  visits: number;
}

export interface CaptchaSolutionsTable {
  signature: string;
  expires_at: Date;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: Generated<Date>;
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
  accounts: AccountsTable;
  blocks: BlocksTable;
  captcha_solutions: CaptchaSolutionsTable;
  coupon_redemptions: CouponRedemptionsTable;
  coupons: CouponsTable;
  login_failures: LoginFailuresTable;
  password_resets: PasswordResetsTable;
  pool_stats: PoolStatsTable;
  redirect_settings: RedirectSettingsTable;
  referral_visits: ReferralVisitsTable;
  schema_migrations: SchemaMigrationsTable;
  server_secrets: ServerSecretsTable;
  sessions: SessionsTable;
  share_batches: ShareBatchesTable;
  user_log: UserLogTable;
  users: UsersTable;
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
export type User = Selectable<UsersTable>;
export type Account = Selectable<AccountsTable>;
export type Session = Selectable<SessionsTable>;
export type UserLogEntry = Selectable<UserLogTable>;
export type Coupon = Selectable<CouponsTable>;
