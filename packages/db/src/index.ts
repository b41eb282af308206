export {
  createDatabase,
  type Database,
  type DatabaseEngine,
  type DatabaseOptions,
  MEMORY_DATA_DIR,
} from './connection.js';
export { DataDirError, type DataDirLock, fileErrorReason, lockDataDir } from './dataDirLock.js';
export { migrate } from './migrator.js';
export { servePGliteInWorker } from './pgliteWorker.js';
export { accountsDifficulty } from './queries/accountActivity.js';
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
  publicAccountNames,
  raiseFeeDiscount,
  referralCodeTaken,
  referredAccounts,
  setAccountKey,
  softDeleteAccount,
  usernameTaken,
} from './queries/accounts.js';
export {
  adminUserList,
  adminUsers,
  anyAccountByUsername,
  anyUserByEmail,
  setUserAdmin,
  type UserLogFilter,
  userLogPage,
} from './queries/admin.js';
export {
  addRoundWork,
  blockCountsByChain,
  chainBlocks,
  countBlocksByAlgorithm,
  effortTotals,
  openRound,
  type RoundWork,
  recordBlock,
} from './queries/blocks.js';
export {
  coinByTicker,
  isMergedCoin,
  latestPrices,
  listCoins,
  mergedNetworkStates,
  networkStates,
  type PriceRow,
  saveMergedNetworkState,
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
export { couponByCodeForUpdate, insertCoupon, redeemCoupon } from './queries/coupons.js';
export {
  type DailyEarning,
  dailyEarnings,
  earningsByPoint,
  firstEarningAt,
  lifetimeEarnings,
} from './queries/earnings.js';
export {
  accountWorkerLabels,
  deleteHashrateAlert,
  type HashrateAlertCheck,
  hashrateAlertsOf,
  hashrateAlertsToCheck,
  insertHashrateAlert,
  type NewHashrateAlert,
  setHashrateAlertState,
} from './queries/hashrateAlerts.js';
export {
  balancesOfAccount,
  balancesOfSystemAccount,
  type CoinBalance,
  type LedgerAccountRef,
  type LedgerLeg,
  ledgerAccountIds,
  ledgerTransactionExists,
  lockBalance,
  postLedgerTransaction,
  reconcileLedger,
  referralRewardsBySource,
} from './queries/ledger.js';
export { clearLoginFailures, releaseLoginAttempt, takeLoginAttempt } from './queries/loginFailures.js';
export { accountDifficultyByDay, mostActiveAlgorithmSince } from './queries/mining/history.js';
export { setWorkerLabels } from './queries/mining/labels.js';
export {
  accountDifficultyByHalfHour,
  accountFirstHalfHour,
  accountMiningTotals,
  accountWorkerRows,
  type DifficultySlot,
  type MiningRange,
  miningRates,
  workersDifficultyByHour,
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
  windowPeriod,
} from './queries/mining/rollups.js';
export {
  type FeeDayReading,
  insertFeeDay,
  type NetworkBlock,
  networkBlockHashes,
  networkBlocksBetween,
  newestFeeDay,
  newestValuation,
  saveNetworkBlocks,
  saveValuation,
  valuationFeeShare,
} from './queries/networkFees.js';
export {
  type AlertStateChange,
  type AlertWorker,
  accountWorkersForAlerts,
  type DueNotification,
  dueEmailNotifications,
  emailUndeliveredTelegramAlerts,
  enqueueNotification,
  failNotificationsOfDeletedUsers,
  forgetAlertStatesOfUsersWithoutAlerts,
  type MonthlyReportUser,
  markNotificationAttemptFailed,
  markNotificationSent,
  monthlyReportKey,
  type NotificationAttachment,
  notificationsSentSince,
  pruneNotifications,
  saveAlertStates,
  TELEGRAM_KEY_SUFFIX,
  usersDueMonthlyReport,
  workersForOfflineAlerts,
} from './queries/notifications.js';
export { clearOperatorAlert, markOperatorAlertNotified, raiseOperatorAlert } from './queries/operatorAlerts.js';
export {
  consumePasswordReset,
  countPasswordResetsSince,
  expireUserPasswordResets,
  insertPasswordReset,
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
  confirmBlock,
  createPayout,
  type DemoWalletTransaction,
  demoWalletTransaction,
  demoWalletTransactionsByComment,
  failPayout,
  failSentPayout,
  insertDemoWalletTransaction,
  markPayoutSending,
  markPayoutSent,
  openPayouts,
  orphanBlock,
  payoutCandidates,
  payoutItems,
  pendingBlocks,
  setBlockConfirmations,
} from './queries/payouts.js';
export {
  followSentPayout,
  inFlightTransactions,
  markTransactionDead,
  type PayoutTransaction,
  payoutTransactions,
  storeFirstTransaction,
  storeReplacement,
  unconfirmedPayouts,
} from './queries/payoutTransactions.js';
export {
  type PoolComparison,
  type ProfitHour,
  poolComparisons,
  profitHours,
  savePoolComparison,
} from './queries/poolComparisons.js';
export {
  averageProfitSince,
  firstPoolSnapshotAt,
  hashrateBuckets,
  insertPoolStats,
  latestPoolStats,
  savePoolStats,
} from './queries/poolStats.js';
export {
  accrualKey,
  type CreditAccount,
  creditAccounts,
  insertPendingCredits,
  lockAccruals,
  lockPendingCredits,
  markCredited,
  pendingCreditBatches,
  saveAccruals,
  usernamesOf,
} from './queries/ppsCredits.js';
export { deleteRedirectsOfAccount, redirectsOfAccount, replaceRedirects } from './queries/redirects.js';
export { countReferralVisit } from './queries/referralVisits.js';
export { type AccountPayoutRow, accountPayoutRows } from './queries/revenue.js';
export { serverSecret, useCaptchaSolution } from './queries/secrets.js';
export {
  type ActiveSession,
  activeSession,
  clearSessionsTwoFactor,
  extendSession,
  insertSession,
  liveUserSessions,
  purgeEndedSessions,
  revokeSession,
  revokeUserSession,
  revokeUserSessions,
} from './queries/sessions.js';
export { recordShareBatch } from './queries/shareBatches.js';
export { saveSignature, signatureByValue } from './queries/signatures.js';
export {
  accountSoloBlocks,
  accountSoloRound,
  addSoloRoundWork,
  postSoloReward,
  type SoloRoundWork,
  soloRewardKey,
  soloWorkerBests,
} from './queries/solo.js';
export {
  consumeTelegramLinkCode,
  deferTelegramNotifications,
  dueTelegramNotifications,
  linkTelegramChat,
  type PayoutNoticeRow,
  payoutsWithoutTelegramNotice,
  replaceTelegramLinkCode,
  saveTelegramBotState,
  type TelegramBotState,
  telegramBotState,
  telegramLinkOf,
  telegramUserOfChat,
  unlinkTelegram,
} from './queries/telegram.js';
export {
  type OpenPayoutTotals,
  openPayoutTotals,
  owedByCoin,
  type PoolResult,
  poolResultByCoin,
  removeWalletSnapshotsExcept,
  saveWalletReadError,
  saveWalletReading,
  type WalletIdentity,
  type WalletReading,
  type WalletSnapshot,
  walletSnapshots,
} from './queries/treasury.js';
export { appendUserLog, userLogOfAccount, userLogOfUser } from './queries/userLog.js';
export {
  activatePendingTotp,
  clearTotp,
  countRegisteredUsers,
  emailRegistered,
  eraseUser,
  insertUser,
  lockUser,
  setLastLogin,
  setPasswordHash,
  setPendingTotpSecret,
  type UserPreferences,
  updateUserPreferences,
  userByEmail,
  useTotpStep,
} from './queries/users.js';
export { insertVipApplication, markVipApplicationEmailed, vipApplications } from './queries/vipApplications.js';
export {
  countLiveWatcherLinks,
  insertWatcherLink,
  revokeWatcherLink,
  touchObserverKey,
  touchWatcherLink,
  watcherLinkByKey,
  watcherLinksOf,
} from './queries/watcherLinks.js';
export {
  addWorkerConnections,
  pruneWorkerConnections,
  workerConnectionsSince,
} from './queries/workerConnections.js';
export {
  addWorkerRejects,
  pruneWorkerRejects,
  type WorkerRejects,
  workerOfAccount,
  workerRejectsSince,
} from './queries/workerRejects.js';
export { recordWorkerShares, topWindowAccounts, windowActivity } from './queries/workerStats.js';
export { allTimeDifficultyByAlgorithm, topAllTimeAccounts, type WorkerActivity, workerKey } from './queries/workers.js';
export type {
  Account,
  Block,
  Coin,
  Coupon,
  DB,
  Executor,
  HashrateAlertRow,
  NetworkState,
  NewBlock,
  Payout,
  PoolStats,
  Session,
  User,
  WatcherLink,
  WatcherScope,
} from './schema.js';
