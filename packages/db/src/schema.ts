import type { AlgorithmKey, PayoutScheme } from '@lodestone/domain';
import type { ColumnType, Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type * as Generated from './schema.generated.js';

/**
 * Table types for Kysely. The truth is schema.generated.ts, which `npm run db:types` writes from the
 * migrated database (columns keep their snake_case SQL names; value types follow typeParsers.ts). This
 * file only narrows columns whose SQL type is wider than the values a CHECK constraint lets in, so that
 * queries get string unions instead of `string`. Nullability and insert defaults stay the generated
 * ones, and tsc refuses a narrowing that is not a subset of the generated column type.
 */

/** The non-null values of a column as read (a plain type, or a ColumnType's select type). */
type ColumnValue<Column> = NonNullable<Column extends ColumnType<infer Select, unknown, unknown> ? Select : Column>;

/** Values of a column with the generated `null` (reads, writes) and `undefined` (insert default) kept. */
type Keep<Column, Read, Insert, Update> = [Column] extends [ColumnType<infer S, infer I, infer U>]
  ? ColumnType<Read | Extract<S, null>, Insert | Extract<I, null | undefined>, Update | Extract<U, null>>
  : ColumnType<Read | Extract<Column, null>, Insert | Extract<Column, null>, Update | Extract<Column, null>>;

/**
 * `Column` (a generated column type) narrowed to `Value`: a plain type read and written, or a
 * ColumnType<read, insert, update> when writes differ. Whether it may be null and whether an insert may
 * leave it out stay the generated ones.
 */
type Narrow<Column, Value> = [Value] extends [ColumnType<infer R, infer I, infer U>]
  ? Keep<Column, R, I, U>
  : [Column] extends [ColumnType<unknown, unknown, unknown>]
    ? Keep<Column, Value, Value, Value>
    : Value | Extract<Column, null>;

/** A generated table with some columns narrowed; a column the table lacks or a wider read fails to compile. */
type Narrowed<
  Table,
  Values extends {
    [C in keyof Values]: C extends keyof Table
      ? ColumnValue<Table[C]> | ColumnType<ColumnValue<Table[C]>, unknown, unknown>
      : never;
  },
> = { [C in keyof Table]: C extends keyof Values ? Narrow<Table[C], Values[C]> : Table[C] };

export type WorkerPeriodKind = 'day' | 'window';
export type BlockStatus = 'pending' | 'confirmed' | 'orphaned' | 'rejected';
export type PayoutStatus = 'pending' | 'sending' | 'sent' | 'failed';
export type PayoutTransactionStatus = 'live' | 'replaced' | 'dead';

export type LedgerTransactionKind =
  | 'pps_credit'
  | 'conversion'
  | 'payout'
  | 'payout_reversal'
  | 'block_reward'
  | 'admin_adjustment'
  | 'solo_reward';

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
  | 'admin_adjustment'
  | 'solo_reward'
  | 'solo_expense';

export type PoolStatsTable = Narrowed<Generated.PoolStats, { algorithm: AlgorithmKey }>;
export type WorkersTable = Narrowed<Generated.Workers, { algorithm: AlgorithmKey }>;
export type WorkerStatsMinuteTable = Narrowed<Generated.WorkerStatsMinute, { algorithm: AlgorithmKey }>;
export type WorkerStatsHourTable = Narrowed<Generated.WorkerStatsHour, { algorithm: AlgorithmKey }>;
export type ShareBatchesTable = Narrowed<Generated.ShareBatches, { algorithm: AlgorithmKey }>;
type AccountStatsHalfHourTable = Narrowed<Generated.AccountStatsHalfHour, { algorithm: AlgorithmKey }>;
type WorkerPeriodTotalsTable = Narrowed<Generated.WorkerPeriodTotals, { kind: WorkerPeriodKind }>;
type WorkerTotalPeriodsTable = Narrowed<Generated.WorkerTotalPeriods, { kind: WorkerPeriodKind }>;
type BlocksTable = Narrowed<Generated.Blocks, { algorithm: AlgorithmKey; status: BlockStatus }>;
type NetworkStatesTable = Narrowed<Generated.NetworkStates, { algorithm: AlgorithmKey }>;
type MergedNetworkStatesTable = Narrowed<Generated.MergedNetworkStates, { algorithm: AlgorithmKey }>;
type BlockRoundsTable = Narrowed<Generated.BlockRounds, { algorithm: AlgorithmKey }>;
/** What a watcher link shows, each scope including the ones before it (docs/dashboard.md, "Watcher links"). */
export type WatcherScope = 'mining' | 'revenue' | 'payouts';
type WatcherLinksTable = Narrowed<Generated.WatcherLinks, { scope: WatcherScope }>;
type HashrateAlertsTable = Narrowed<
  Generated.HashrateAlerts,
  { algorithm: AlgorithmKey; kind: 'hashrate' | 'workers' }
>;
type WorkerConnectionsTable = Narrowed<
  Generated.WorkerConnections,
  { algorithm: AlgorithmKey; event: 'connect' | 'disconnect' }
>;
type PoolComparisonsTable = Narrowed<Generated.PoolComparisons, { algorithm: AlgorithmKey }>;
type PpsCreditsTable = Narrowed<Generated.PpsCredits, { algorithm: AlgorithmKey }>;
type PpsValuationsTable = Narrowed<Generated.PpsValuations, { scheme: PayoutScheme }>;
type SoloRoundsTable = Narrowed<Generated.SoloRounds, { algorithm: AlgorithmKey }>;
/** 'all': the account's shared list, used when conversion_all_algorithms is set. */
type ConversionSettingsTable = Narrowed<Generated.ConversionSettings, { algorithm: AlgorithmKey | 'all' }>;
/** '': the ledger legs had no algorithm. */
type EarningsQuarterHoursTable = Narrowed<Generated.EarningsQuarterHours, { algorithm: AlgorithmKey | '' }>;
type LedgerTransactionsTable = Narrowed<Generated.LedgerTransactions, { kind: LedgerTransactionKind }>;
type LedgerEntriesTable = Narrowed<Generated.LedgerEntries, { kind: LedgerEntryKind; algorithm: AlgorithmKey }>;
export type PpsAccrualsTable = Narrowed<Generated.PpsAccruals, { kind: 'pps' | 'fee' | 'referral' | 'redirect_in' }>;
type PayoutsTable = Narrowed<Generated.Payouts, { status: PayoutStatus }>;
type NotificationsTable = Narrowed<
  Generated.Notifications,
  { channel: 'email' | 'telegram'; status: 'pending' | 'sent' | 'failed' }
>;
/** spends is always a JSON array of text (payoutTransactions.ts writes it). */
type PayoutTransactionsTable = Narrowed<Generated.PayoutTransactions, { status: PayoutTransactionStatus }>;
/**
 * log_value is always a JSON object, written once as JSON text (userLog.ts stringifies it). Spelled out
 * rather than Narrowed: the generated Json type holds JSON's null, so Narrowed would keep a null that
 * this NOT NULL column (migration 0003) never returns.
 */
type UserLogTable = Omit<Generated.UserLog, 'log_value'> & {
  log_value: ColumnType<Generated.JsonObject, string | undefined, never>;
};

/** The generated tables with the narrowed ones above in their place. */
export type DB = Omit<Generated.DB, keyof NarrowedTables> & NarrowedTables;

interface NarrowedTables {
  account_stats_half_hour: AccountStatsHalfHourTable;
  blocks: BlocksTable;
  block_rounds: BlockRoundsTable;
  conversion_settings: ConversionSettingsTable;
  earnings_quarter_hours: EarningsQuarterHoursTable;
  hashrate_alerts: HashrateAlertsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_transactions: LedgerTransactionsTable;
  network_states: NetworkStatesTable;
  merged_network_states: MergedNetworkStatesTable;
  notifications: NotificationsTable;
  payouts: PayoutsTable;
  payout_transactions: PayoutTransactionsTable;
  pool_comparisons: PoolComparisonsTable;
  pool_stats: PoolStatsTable;
  pps_accruals: PpsAccrualsTable;
  pps_credits: PpsCreditsTable;
  pps_valuations: PpsValuationsTable;
  share_batches: ShareBatchesTable;
  solo_rounds: SoloRoundsTable;
  user_log: UserLogTable;
  watcher_links: WatcherLinksTable;
  worker_connections: WorkerConnectionsTable;
  worker_period_totals: WorkerPeriodTotalsTable;
  worker_stats_hour: WorkerStatsHourTable;
  worker_stats_minute: WorkerStatsMinuteTable;
  worker_total_periods: WorkerTotalPeriodsTable;
  workers: WorkersTable;
}

export type UsersTable = Generated.Users;

/** What query functions take: the database or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

export type PoolStats = Selectable<PoolStatsTable>;
export type NewPoolStats = Insertable<PoolStatsTable>;
export type Block = Selectable<BlocksTable>;
export type NewBlock = Insertable<BlocksTable>;
export type User = Selectable<UsersTable>;
export type Account = Selectable<Generated.Accounts>;
export type Session = Selectable<Generated.Sessions>;
export type WatcherLink = Selectable<WatcherLinksTable>;
export type HashrateAlertRow = Selectable<HashrateAlertsTable>;
export type UserLogEntry = Selectable<UserLogTable>;
export type Coupon = Selectable<Generated.Coupons>;
export type Coin = Selectable<Generated.Coins>;
export type Payout = Selectable<PayoutsTable>;
export type NetworkState = Selectable<NetworkStatesTable>;
export type MergedNetworkState = Selectable<MergedNetworkStatesTable>;
