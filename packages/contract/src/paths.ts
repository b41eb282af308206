/**
 * The API's paths and methods, one entry per call, without zod: the route table (routes.ts) adds the
 * schemas to these very entries, the server registers its handlers from that table, and the
 * website's client builds its URLs from this one, so no path is written twice and the website's
 * bundle carries no schema. A path's `:name` segments are its path parameters.
 *
 * Why a path table and not a client generated from the OpenAPI document (openapi-typescript +
 * openapi-fetch): the contract already holds every type (`z.infer`), and the website takes them with
 * type-only imports; a generated copy would be a second source to keep in step (a build step and a
 * drift check), two more dependencies, and would lose what zod knows but JSON Schema does not say.
 */

/** Every API path lives under this prefix (docs/decisions.md, Server and API). */
export const API_PREFIX = '/v1';

export interface ApiPath {
  method: 'GET' | 'POST';
  path: string;
}

export const paths = {
  health: { method: 'GET', path: '/health' },
  banner: { method: 'GET', path: '/banner' },
  site: { method: 'GET', path: '/site' },
  poolStats: { method: 'GET', path: '/pool/stats' },
  poolStratum: { method: 'GET', path: '/pool/stratum' },
  poolAlgorithmStats: { method: 'GET', path: '/pool/stats/:algorithm' },
  poolStatsChart: { method: 'GET', path: '/pool/stats/:algorithm/chart' },
  poolBlocks: { method: 'GET', path: '/pool/blocks/:algorithm' },
  captchaChallenge: { method: 'GET', path: '/captcha/challenge' },
  userRegister: { method: 'POST', path: '/user/register' },
  userLogin: { method: 'POST', path: '/user/login' },
  userInfo: { method: 'GET', path: '/user/info' },
  userLogout: { method: 'POST', path: '/user/logout' },
  userSessions: { method: 'GET', path: '/user/sessions' },
  userSessionLogout: { method: 'POST', path: '/user/sessions/logout' },
  userSessionsLogoutAll: { method: 'POST', path: '/user/sessions/logout_all' },
  userConfig: { method: 'GET', path: '/user/config' },
  userConfigUpdate: { method: 'POST', path: '/user/config/update' },
  userAccounts: { method: 'GET', path: '/user/accounts' },
  userNewAccount: { method: 'POST', path: '/user/new_account' },
  userRemoveAccount: { method: 'POST', path: '/user/remove_account' },
  userKeysRegenerate: { method: 'POST', path: '/user/keys/regenerate' },
  userHashrateAlerts: { method: 'GET', path: '/user/hashrate_alerts' },
  userHashrateAlertCreate: { method: 'POST', path: '/user/hashrate_alerts/create' },
  userHashrateAlertDelete: { method: 'POST', path: '/user/hashrate_alerts/delete' },
  userWatchers: { method: 'GET', path: '/user/watchers' },
  userWatcherCreate: { method: 'POST', path: '/user/watchers/create' },
  userWatcherRevoke: { method: 'POST', path: '/user/watchers/revoke' },
  userRedirectConfig: { method: 'GET', path: '/user/redirect_config' },
  userRedirectConfigUpdate: { method: 'POST', path: '/user/redirect_config/update' },
  passwordReset: { method: 'POST', path: '/password/reset' },
  passwordResetSend: { method: 'POST', path: '/password/reset_send' },
  userReferrals: { method: 'GET', path: '/user/referrals' },
  userCoupon: { method: 'POST', path: '/user/coupon' },
  userSetReferral: { method: 'GET', path: '/user/set_referral' },
  userGenerate2fa: { method: 'GET', path: '/user/config/generate2FA' },
  userEnable2fa: { method: 'POST', path: '/user/config/enable2FA' },
  userDisable2fa: { method: 'POST', path: '/user/config/disable2FA' },
  twoFactorQr: { method: 'GET', path: '/2fa/:secret' },
  userMostUsedAlgo: { method: 'GET', path: '/user/mostUsedAlgo' },
  userOverview: { method: 'GET', path: '/user/overview' },
  notificationsUnsubscribe: { method: 'POST', path: '/notifications/unsubscribe' },
  userTelegram: { method: 'GET', path: '/user/telegram' },
  userTelegramLink: { method: 'POST', path: '/user/telegram/link' },
  userTelegramUnlink: { method: 'POST', path: '/user/telegram/unlink' },
  coins: { method: 'GET', path: '/coins' },
  poolPayouts: { method: 'GET', path: '/pool/payouts' },
  userConversionConfig: { method: 'GET', path: '/user/conversion_config' },
  userConversionConfigUpdate: { method: 'POST', path: '/user/conversion_config/update' },
  userPaymentConfig: { method: 'GET', path: '/user/payment_config' },
  userPaymentConfigUpdate: { method: 'POST', path: '/user/payment_config/update' },
  userConvert: { method: 'POST', path: '/user/convert' },
  userMining: { method: 'GET', path: '/user/mining' },
  userMiningChart: { method: 'GET', path: '/user/mining/chart' },
  userMiningWorkers: { method: 'GET', path: '/user/mining/workers' },
  userMiningWorkerRemove: { method: 'GET', path: '/user/mining/workers/remove/:workerId' },
  userMiningWorkersRemoveAll: { method: 'GET', path: '/user/mining/workers/removeall' },
  userMiningWorkersRemoveSelected: { method: 'POST', path: '/user/mining/workers/remove_selected' },
  userMiningWorkerRejects: { method: 'GET', path: '/user/mining/workers/rejects' },
  observerMiningWorkerRejects: { method: 'GET', path: '/observer/mining/workers/rejects' },
  userMiningWorkersLabel: { method: 'POST', path: '/user/mining/workers/label' },
  userMiningWorkerChart: { method: 'GET', path: '/user/mining/workers/chart' },
  observerMiningWorkerChart: { method: 'GET', path: '/observer/mining/workers/chart' },
  userMiningWorkerConnections: { method: 'GET', path: '/user/mining/workers/connections' },
  observerMiningWorkerConnections: { method: 'GET', path: '/observer/mining/workers/connections' },
  observerMining: { method: 'GET', path: '/observer/mining' },
  observerMiningChart: { method: 'GET', path: '/observer/mining/chart' },
  observerMiningWorkers: { method: 'GET', path: '/observer/mining/workers' },
  userRevenueBalance: { method: 'GET', path: '/user/revenue/balance' },
  userRevenuePayouts: { method: 'GET', path: '/user/revenue/payouts' },
  userRevenueEarnings: { method: 'GET', path: '/user/revenue/earnings' },
  userRevenueLifetimeEarnings: { method: 'GET', path: '/user/revenue/lifetimeearnings' },
  userRevenueChart: { method: 'GET', path: '/user/revenue/chart' },
  userRevenueEarningsDownload: { method: 'GET', path: '/user/revenue/earnings/download' },
  userRevenueEarningsCsv: { method: 'GET', path: '/user/revenue/earnings/csv' },
  userRevenuePayoutsCsv: { method: 'GET', path: '/user/revenue/payouts/csv' },
  observerRevenueBalance: { method: 'GET', path: '/observer/revenue/balance' },
  observerRevenuePayouts: { method: 'GET', path: '/observer/revenue/payouts' },
  observerRevenueEarnings: { method: 'GET', path: '/observer/revenue/earnings' },
  observerRevenueLifetimeEarnings: { method: 'GET', path: '/observer/revenue/lifetimeearnings' },
  observerRevenueChart: { method: 'GET', path: '/observer/revenue/chart' },
  poolProfits: { method: 'GET', path: '/pool/profits/:algorithm' },
  poolProfitsChart: { method: 'GET', path: '/pool/profits/:algorithm/chart' },
  poolFees: { method: 'GET', path: '/pool/fees' },
  payoutSchemes: { method: 'GET', path: '/pool/schemes' },
  apiPool: { method: 'GET', path: '/api/pool' },
  apiProfits: { method: 'GET', path: '/api/profits' },
  apiBlocks: { method: 'GET', path: '/api/blocks/:algorithm' },
  apiUser: { method: 'GET', path: '/api/user' },
  signature: { method: 'GET', path: '/signatures/:signature' },
  vipApplication: { method: 'POST', path: '/email/hashrate' },
  openApi: { method: 'GET', path: '/openapi.json' },
  adminUsers: { method: 'GET', path: '/admin/users' },
  adminLogsUser: { method: 'POST', path: '/admin/logs/user' },
  adminLogsAccount: { method: 'POST', path: '/admin/logs/account' },
  adminLogin: { method: 'POST', path: '/admin/login' },
  adminBalance: { method: 'POST', path: '/admin/balance' },
  adminTreasury: { method: 'GET', path: '/admin/treasury' },
} as const satisfies Record<string, ApiPath>;

export type RouteName = keyof typeof paths;
