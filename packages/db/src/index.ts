export {
  createDatabase,
  type Database,
  DatabaseConfigError,
  type DatabaseEngine,
  type DatabaseLogEvent,
  type DatabaseOptions,
  MEMORY_DATA_DIR,
} from './connection.js';
export { MIGRATIONS, type Migration } from './migrations.js';
export { MigrationError, type MigrationErrorReason, migrate } from './migrator.js';
export {
  type AccountAlgorithmDifficulty,
  accountsDifficulty,
  mostActiveAlgorithm,
} from './queries/accountActivity.js';
export {
  type AccountKey,
  accountByApiKey,
  accountByObserverKey,
  accountByReferralCode,
  accountOfUser,
  accountsOfUser,
  insertAccount,
  liveAccountByUsername,
  liveAccountNameExists,
  lockAccount,
  type NewAccount,
  raiseFeeDiscount,
  referralCodeTaken,
  referredAccounts,
  setAccountKey,
  softDeleteAccount,
  usernameTaken,
} from './queries/accounts.js';
export {
  coinByTicker,
  latestPrices,
  listCoins,
  type NetworkObservation,
  networkStates,
  type PriceRow,
  priceHistory,
  saveNetworkState,
  savePrices,
} from './queries/coins.js';
export {
  balancesOfAccount,
  balancesOfSystemAccount,
  type CoinBalance,
  type LedgerAccountRef,
  type LedgerLeg,
  type LedgerProblem,
  ledgerAccountIds,
  ledgerTransactionExists,
  lockBalance,
  type NewLedgerTransaction,
  postLedgerTransaction,
  reconcileLedger,
  SYSTEM_ACCOUNTS,
  type SystemAccount,
  UnbalancedTransactionError,
} from './queries/ledger.js';
export { blockByHash, countBlocksByAlgorithm, recordBlock } from './queries/blocks.js';
export {
  couponByCode,
  couponByCodeForUpdate,
  insertCoupon,
  type NewCoupon,
  redeemCoupon,
} from './queries/coupons.js';
export {
  clearLoginFailures,
  type LoginAttempt,
  type LoginFailureState,
  loginFailureState,
  purgeLoginFailures,
  releaseLoginAttempt,
  takeLoginAttempt,
} from './queries/loginFailures.js';
export {
  consumePasswordReset,
  countPasswordResetsSince,
  expireUserPasswordResets,
  insertPasswordReset,
  type NewPasswordReset,
  purgePasswordResets,
} from './queries/passwordResets.js';
export {
  type HashrateBucket,
  hashrateBuckets,
  insertPoolStats,
  latestPoolStats,
  poolStatsSince,
  savePoolStats,
} from './queries/poolStats.js';
export {
  deleteRedirectsOfAccount,
  type RedirectRow,
  redirectsOfAccount,
  replaceRedirects,
} from './queries/redirects.js';
export { countReferralVisit, referralVisitsSince } from './queries/referralVisits.js';
export { serverSecret, useCaptchaSolution } from './queries/secrets.js';
export {
  type ActiveSession,
  activeSession,
  extendSession,
  insertSession,
  type NewSession,
  purgeEndedSessions,
  revokeSession,
  revokeUserSessions,
} from './queries/sessions.js';
export { recordShareBatch, type ShareBatchRecord } from './queries/shareBatches.js';
export { appendUserLog, type NewUserLogEntry, userLogOfAccount, userLogOfUser } from './queries/userLog.js';
export {
  activatePendingTotp,
  clearTotp,
  emailRegistered,
  eraseUser,
  insertUser,
  lockUser,
  type NewUser,
  setLastLogin,
  setPasswordHash,
  setPendingTotpSecret,
  type UserPreferences,
  updateUserPreferences,
  userByEmail,
  userById,
  useTotpStep,
} from './queries/users.js';
export {
  addWorkerMinuteStats,
  topWindowAccounts,
  type WindowActivity,
  type WorkerMinuteCounts,
  windowActivity,
} from './queries/workerStats.js';
export {
  type AccountDifficulty,
  allTimeDifficultyByAlgorithm,
  countMinedAccounts,
  topAllTimeAccounts,
  upsertWorkers,
  type WorkerActivity,
  type WorkerKey,
} from './queries/workers.js';
export type {
  Account,
  AccountsTable,
  Block,
  BlockStatus,
  BlocksTable,
  Coin,
  Coupon,
  DB,
  Executor,
  LedgerEntry,
  LedgerEntryKind,
  LedgerTransactionKind,
  NetworkState,
  NewBlock,
  NewPoolStats,
  Numeric,
  PoolStats,
  PoolStatsTable,
  Payout,
  PayoutStatus,
  SchemaMigrationsTable,
  Session,
  ShareBatchesTable,
  User,
  UserLogEntry,
  UsersTable,
  Worker,
  WorkerStatsMinuteTable,
  WorkersTable,
} from './schema.js';
