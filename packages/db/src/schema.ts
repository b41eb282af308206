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
  /** How much of the row the rollup tables already hold (migration 0005); 0 when written. */
  rolled_difficulty: ColumnType<string, string | undefined, string>;
  rolled_valid: Generated<number>;
  rolled_invalid: Generated<number>;
  rolled_stale: Generated<number>;
}

export interface ShareBatchesTable {
  id: string;
  node: string;
  algorithm: AlgorithmKey;
  interval_start: Date;
  interval_end: Date;
  applied_at: ColumnType<Date, Date | undefined, never>;
  /** When the worker-rollup job rolled the batch's minute up; null until then. */
  rolled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Per worker and UTC hour (migration 0005), kept 8 days. Sums of the worker's minute rows. */
export interface WorkerStatsHourTable {
  worker_id: bigint;
  algorithm: AlgorithmKey;
  /** Start of the UTC hour. */
  hour: Date;
  accepted_difficulty: Numeric;
  valid: number;
  invalid: number;
  stale: number;
  /** Minutes of the hour with an accepted share. */
  active_minutes: number;
}

export type WorkerPeriodKind = 'day' | 'window';

/** Each worker's rolled-up sums over a period the dashboard reads often (migration 0005). */
export interface WorkerPeriodTotalsTable {
  kind: WorkerPeriodKind;
  period_from: Date;
  worker_id: bigint;
  accepted_difficulty: Numeric;
  valid: ColumnType<bigint, bigint | number, bigint | number>;
  invalid: ColumnType<bigint, bigint | number, bigint | number>;
  stale: ColumnType<bigint, bigint | number, bigint | number>;
}

/** The periods worker_period_totals holds, complete (migration 0005). */
export interface WorkerTotalPeriodsTable {
  kind: WorkerPeriodKind;
  period_from: Date;
  minutes: number;
}

/** Per account, algorithm and UTC half hour (migration 0005), kept for good. */
export interface AccountStatsHalfHourTable {
  account: string;
  algorithm: AlgorithmKey;
  /** Start of the UTC half hour. */
  half_hour: Date;
  accepted_difficulty: Numeric;
  valid: ColumnType<bigint, bigint | number, bigint | number>;
  invalid: ColumnType<bigint, bigint | number, bigint | number>;
  stale: ColumnType<bigint, bigint | number, bigint | number>;
  /** Σ over workers of minutes with an accepted share. */
  worker_minutes: number;
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
  confirmations: Generated<number>;
  /** When the block became confirmed (mature) or orphaned. */
  settled_at: Date | null;
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
  /** Conversion settings come from the shared 'all' list rather than per algorithm. */
  conversion_all_algorithms: Generated<boolean>;
  created_at: Generated<Date>;
  deleted_at: Date | null;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the cookie token. */
  id: string;
  user_id: bigint;
  impersonator_user_id: bigint | null;
  /** When this session's login checked a 2FA code; null otherwise (always null when impersonated). */
  two_factor_verified_at: Date | null;
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

/** Smallest units of a coin, NUMERIC(40,0): written and read as integer text. */
export type Units = ColumnType<string, string | bigint, string | bigint>;

export interface CoinsTable {
  ticker: string;
  name: string;
  decimals: number;
  network: string;
  address_format: string;
  /** Coin amounts (not smallest units). */
  threshold_min: Numeric;
  threshold_max: Numeric;
  /** Hours. */
  interval_min: Numeric;
  interval_max: Numeric;
  confirmations: number;
  explorer_tx_url: string | null;
  explorer_address_url: string | null;
  payouts_enabled: Generated<boolean>;
  position: number;
}

export interface PricesTable {
  ticker: string;
  taken_at: Date;
  /** US dollars per coin (or per euro for 'EUR'). */
  usd: Numeric;
  source: string;
}

export interface NetworkStatesTable {
  algorithm: AlgorithmKey;
  coin: string;
  height: ColumnType<bigint, bigint | number, bigint | number>;
  reward: Units;
  /** In the algorithm's share-difficulty convention. */
  difficulty: Numeric;
  demo: boolean;
  observed_at: Date;
}

export interface LedgerAccountsTable {
  id: GeneratedAlways<bigint>;
  account_id: bigint | null;
  system_name: string | null;
}

export type LedgerTransactionKind =
  | 'pps_credit'
  | 'conversion'
  | 'payout'
  | 'payout_reversal'
  | 'block_reward'
  | 'admin_adjustment';

export type LedgerEntryKind =
  | 'pps'
  | 'pps_expense'
  | 'fee'
  | 'referral'
  | 'redirect_in'
  | 'redirect_out'
  | 'conversion_in'
  | 'conversion_out'
  | 'payout'
  | 'payout_reversal'
  | 'block_reward'
  | 'admin_adjustment';

export interface LedgerTransactionsTable {
  id: GeneratedAlways<bigint>;
  idempotency_key: string;
  kind: LedgerTransactionKind;
  reference: string | null;
  created_by_user_id: bigint | null;
  reason: string | null;
  created_at: Generated<Date>;
}

export interface LedgerEntriesTable {
  id: GeneratedAlways<bigint>;
  transaction_id: bigint;
  ledger_account_id: bigint;
  coin: string;
  /** Signed smallest units. */
  amount: Units;
  kind: LedgerEntryKind;
  algorithm: AlgorithmKey | null;
  source_account_id: bigint | null;
  created_at: Generated<Date>;
}

export interface BalancesTable {
  ledger_account_id: bigint;
  coin: string;
  amount: Units;
  may_be_negative: boolean;
  updated_at: Generated<Date>;
}

export interface PpsAccrualsTable {
  ledger_account_id: bigint;
  coin: string;
  kind: 'pps' | 'fee' | 'referral' | 'redirect_in';
  /** The referred or redirecting account; 0 for other kinds. */
  source_account_id: Generated<bigint>;
  /** Fraction of one smallest unit, 0 ≤ f < 1. */
  fraction: Numeric;
}

export interface PpsCreditsTable {
  batch_id: string;
  account_id: bigint;
  algorithm: AlgorithmKey;
  coin: string;
  accepted_difficulty: Numeric;
  network_difficulty: Numeric;
  reward: Units;
  /** Smallest units of `coin`, exact and fractional. */
  value: Numeric;
  interval_end: Date;
  credited_at: Date | null;
  ledger_transaction_id: bigint | null;
}

export interface ConversionSettingsTable {
  account_id: bigint;
  algorithm: AlgorithmKey | 'all';
  ticker: string;
  /** Percent, 0 to 100. */
  proportion: Numeric;
}

export interface PayoutSettingsTable {
  account_id: bigint;
  ticker: string;
  /** Coin amount. */
  threshold: Numeric;
  interval_hours: Numeric;
  paused_until: Date | null;
  updated_at: Generated<Date>;
}

export interface PayoutAddressesTable {
  account_id: bigint;
  ticker: string;
  position: number;
  address: string;
  proportion: Numeric;
}

export type PayoutStatus = 'pending' | 'sending' | 'sent' | 'failed';

export interface PayoutsTable {
  id: GeneratedAlways<bigint>;
  idempotency_key: string;
  coin: string;
  status: PayoutStatus;
  total: Units;
  fee: ColumnType<string | null, string | bigint | null | undefined, string | bigint | null>;
  txid: string | null;
  demo: boolean;
  error: string | null;
  created_at: Generated<Date>;
  sending_at: Date | null;
  sent_at: Date | null;
  failed_at: Date | null;
}

export interface PayoutItemsTable {
  payout_id: bigint;
  account_id: bigint;
  address: string;
  amount: Units;
}

export interface DemoWalletTransactionsTable {
  txid: string;
  coin: string;
  comment: string;
  outputs: ColumnType<unknown, string, never>;
  total: Units;
  created_at: Generated<Date>;
}

/** Other pools' published profitability (migration 0006), entered by the operator. */
export interface PoolComparisonsTable {
  id: GeneratedAlways<bigint>;
  algorithm: AlgorithmKey;
  pool_name: string;
  pool_url: string;
  /** The hashrate unit the figures are per: 'H/s' … 'EH/s'. */
  hashrate_unit: string;
  /** BTC per day per `hashrate_unit`; null when the other pool publishes no figure for the period. */
  profit_24h: ColumnType<string | null, string | null | undefined, string | null>;
  profit_7d: ColumnType<string | null, string | null | undefined, string | null>;
  profit_30d: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** VIP applications (migration 0006). */
export interface VipApplicationsTable {
  id: GeneratedAlways<bigint>;
  name: string;
  email: string;
  /** '+44 7911123456', or null. */
  phone: string | null;
  operations: string;
  created_at: Date;
  /** When the e-mail to the operator was handed over; null until then (or when it failed). */
  emailed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Signatures the pool issued (migration 0006). */
export interface SignaturesTable {
  /** HMAC-SHA256 hex of the canonical text. */
  signature: string;
  kind: string;
  /** SHA-256 hex of the signed document as handed out. */
  document_sha256: string;
  issued_at: Date;
}

export interface EarningsQuarterHoursTable {
  ledger_account_id: bigint;
  coin: string;
  /** '' when the legs had no algorithm. */
  algorithm: AlgorithmKey | '';
  /** Start of the UTC quarter hour. */
  bucket: Date;
  amount: Units;
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
  account_stats_half_hour: AccountStatsHalfHourTable;
  accounts: AccountsTable;
  balances: BalancesTable;
  blocks: BlocksTable;
  captcha_solutions: CaptchaSolutionsTable;
  coins: CoinsTable;
  conversion_settings: ConversionSettingsTable;
  demo_wallet_transactions: DemoWalletTransactionsTable;
  earnings_quarter_hours: EarningsQuarterHoursTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_transactions: LedgerTransactionsTable;
  network_states: NetworkStatesTable;
  payout_addresses: PayoutAddressesTable;
  payout_items: PayoutItemsTable;
  payout_settings: PayoutSettingsTable;
  payouts: PayoutsTable;
  pps_accruals: PpsAccrualsTable;
  pps_credits: PpsCreditsTable;
  prices: PricesTable;
  coupon_redemptions: CouponRedemptionsTable;
  coupons: CouponsTable;
  login_failures: LoginFailuresTable;
  password_resets: PasswordResetsTable;
  pool_comparisons: PoolComparisonsTable;
  pool_stats: PoolStatsTable;
  redirect_settings: RedirectSettingsTable;
  referral_visits: ReferralVisitsTable;
  schema_migrations: SchemaMigrationsTable;
  server_secrets: ServerSecretsTable;
  sessions: SessionsTable;
  signatures: SignaturesTable;
  share_batches: ShareBatchesTable;
  user_log: UserLogTable;
  users: UsersTable;
  vip_applications: VipApplicationsTable;
  worker_period_totals: WorkerPeriodTotalsTable;
  worker_total_periods: WorkerTotalPeriodsTable;
  worker_stats_hour: WorkerStatsHourTable;
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
export type Coin = Selectable<CoinsTable>;
export type Payout = Selectable<PayoutsTable>;
export type LedgerEntry = Selectable<LedgerEntriesTable>;
export type NetworkState = Selectable<NetworkStatesTable>;
