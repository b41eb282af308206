export {
  createDatabase,
  type Database,
  DatabaseConfigError,
  type DatabaseEngine,
  type DatabaseLogEvent,
  type DatabaseOptions,
  MEMORY_DATA_DIR,
} from './connection.js';
export { DataDirError, type DataDirOwner } from './dataDirLock.js';
export { MIGRATIONS, type Migration } from './migrations.js';
export { MigrationError, type MigrationErrorReason, migrate } from './migrator.js';
export { servePGliteInWorker } from './pgliteWorker.js';
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
  publicAccountNames,
  raiseFeeDiscount,
  referralCodeTaken,
  referredAccounts,
  setAccountKey,
  softDeleteAccount,
  usernameTaken,
} from './queries/accounts.js';
export {
  type AdminUserRow,
  adminUserList,
  adminUsers,
  anyAccountByUsername,
  anyUserByEmail,
  setUserAdmin,
  type UserLogFilter,
  type UserLogPageRow,
  userLogPage,
} from './queries/admin.js';
export { blockByHash, countBlocksByAlgorithm, recordBlock } from './queries/blocks.js';
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
  type ConversionListKey,
  type ConversionRow,
  conversionSettingsOf,
  replaceConversionSettings,
  type StoredConversionSettings,
} from './queries/conversionSettings.js';
export {
  couponByCode,
  couponByCodeForUpdate,
  insertCoupon,
  type NewCoupon,
  redeemCoupon,
} from './queries/coupons.js';
export { type DailyEarning, dailyEarnings, EARNING_KINDS, lifetimeEarnings } from './queries/earnings.js';
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
  referralRewardsBySource,
  type SourcedAmount,
  SYSTEM_ACCOUNTS,
  type SystemAccount,
  UnbalancedTransactionError,
} from './queries/ledger.js';
export {
  clearLoginFailures,
  type LoginAttempt,
  type LoginFailureState,
  loginFailureState,
  purgeLoginFailures,
  releaseLoginAttempt,
  takeLoginAttempt,
} from './queries/loginFailures.js';
export { accountDifficultyByDay, type DayDifficulty, mostActiveAlgorithmSince } from './queries/mining/history.js';
export {
  type AccountMiningTotals,
  accountDifficultyByHalfHour,
  accountMiningTotals,
  accountWorkerRows,
  type DifficultySlot,
  type MiningRange,
  type MiningRates,
  miningRates,
  type WorkerMiningRow,
} from './queries/mining/reads.js';
export { type RemovedWorker, removeWorkers, type WorkerSelection } from './queries/mining/removal.js';
export {
  dayPeriod,
  lockWorkerRollups,
  pruneWorkerHours,
  pruneWorkerMinutes,
  type RollUpResult,
  refreshWorkerPeriodTotals,
  rollUpWorkerStats,
  type WorkerPeriod,
  windowPeriod,
} from './queries/mining/rollups.js';
export {
  consumePasswordReset,
  countPasswordResetsSince,
  expireUserPasswordResets,
  insertPasswordReset,
  type NewPasswordReset,
  purgePasswordResets,
} from './queries/passwordResets.js';
export {
  latestPoolPayouts,
  type PayoutTotals,
  type PublicPayoutRow,
  poolPayoutTotals,
} from './queries/payoutHistory.js';
export {
  PAYOUT_SETTINGS_EVENT,
  type PayoutAddressRow,
  type PayoutSettingRow,
  payoutSettingsEverSaved,
  payoutSettingsOf,
  replacePayoutSettings,
} from './queries/payoutSettings.js';
export {
  blockRewardKey,
  type CreatedPayout,
  confirmBlock,
  createPayout,
  type DemoWalletTransaction,
  demoWalletTransaction,
  demoWalletTransactionsByComment,
  failPayout,
  insertDemoWalletTransaction,
  markPayoutSending,
  markPayoutSent,
  type NewPayout,
  type NewPayoutAccount,
  type NewPayoutItem,
  openPayouts,
  orphanBlock,
  type PayoutItem,
  payoutById,
  payoutByKey,
  payoutCandidates,
  payoutItems,
  payoutReversalKey,
  payoutsWithStatus,
  pendingBlocks,
  setBlockConfirmations,
} from './queries/payouts.js';
export {
  type PoolComparison,
  type ProfitHour,
  poolComparisons,
  profitHours,
  savePoolComparison,
} from './queries/poolComparisons.js';
export {
  averageProfitSince,
  type HashrateBucket,
  hashrateBuckets,
  insertPoolStats,
  latestPoolStats,
  poolStatsSince,
  savePoolStats,
} from './queries/poolStats.js';
export {
  type AccrualKey,
  type AccrualKind,
  accrualKey,
  type CreditAccount,
  creditAccounts,
  insertPendingCredits,
  lockAccruals,
  lockPendingCredits,
  markCredited,
  type PendingCredit,
  pendingCreditBatches,
  saveAccruals,
  usernamesOf,
} from './queries/ppsCredits.js';
export {
  deleteRedirectsOfAccount,
  type RedirectRow,
  redirectsOfAccount,
  replaceRedirects,
} from './queries/redirects.js';
export { countReferralVisit, referralVisitsSince } from './queries/referralVisits.js';
export { type AccountPayoutRow, accountPayoutRows } from './queries/revenue.js';
export { serverSecret, useCaptchaSolution } from './queries/secrets.js';
export {
  type ActiveSession,
  activeSession,
  clearSessionsTwoFactor,
  extendSession,
  insertSession,
  type NewSession,
  purgeEndedSessions,
  revokeSession,
  revokeUserSessions,
} from './queries/sessions.js';
export { recordShareBatch, type ShareBatchRecord } from './queries/shareBatches.js';
export { type IssuedSignature, saveSignature, signatureByValue } from './queries/signatures.js';
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
  insertVipApplication,
  markVipApplicationEmailed,
  type NewVipApplication,
  type VipApplication,
  vipApplications,
} from './queries/vipApplications.js';
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
  Block,
  BlockStatus,
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
  Payout,
  PayoutStatus,
  PoolStats,
  PoolStatsTable,
  SchemaMigrationsTable,
  Session,
  ShareBatchesTable,
  User,
  UserLogEntry,
  UsersTable,
  Worker,
  WorkerPeriodKind,
  WorkerStatsHourTable,
  WorkerStatsMinuteTable,
  WorkersTable,
} from './schema.js';
