import type { z } from 'zod';
import {
  accountListResponse,
  accountQuery,
  captchaChallengeResponse,
  couponBody,
  generate2faResponse,
  loginBody,
  logoutResponse,
  mostUsedAlgoResponse,
  newAccountBody,
  passwordResetBody,
  passwordResetSendBody,
  passwordResetSendQuery,
  redirectConfigResponse,
  redirectConfigUpdateBody,
  referralsResponse,
  regenerateKeyBody,
  regenerateKeyResponse,
  registerBody,
  removeAccountBody,
  resultResponse,
  sessionLogoutBody,
  sessionsResponse,
  setReferralQuery,
  telegramLinkResponse,
  telegramStatusResponse,
  twoFactorBody,
  twoFactorQrParams,
  unsubscribeBody,
  unsubscribeResponse,
  userConfigResponse,
  userConfigUpdateBody,
  userInfoResponse,
} from './account.js';
import {
  adminBalanceBody,
  adminBalanceResponse,
  adminLoginBody,
  adminLogsAccountBody,
  adminLogsResponse,
  adminLogsUserBody,
  adminTreasuryResponse,
  adminUsersResponse,
} from './admin.js';
import { MAX_HASHRATE_ALERTS } from './alertRules.js';
import {
  hashrateAlertCreateBody,
  hashrateAlertCreateResponse,
  hashrateAlertDeleteBody,
  hashrateAlertsResponse,
} from './alerts.js';
import { blocksQuery, blocksResponse } from './blocks.js';
import {
  labelWorkersBody,
  labelWorkersResponse,
  miningChartQuery,
  miningQuery,
  miningRemoveResponse,
  miningSummaryResponse,
  miningWorkerParams,
  miningWorkerResponse,
  miningWorkersMatchingQuery,
  miningWorkersMatchingResponse,
  miningWorkersPageQuery,
  miningWorkersPageResponse,
  miningWorkersResponse,
  observerMiningChartQuery,
  observerMiningQuery,
  observerMiningWorkersPageQuery,
  observerWorkerChartQuery,
  observerWorkerRejectsQuery,
  removeSelectedBody,
  workerChartQuery,
  workerConnectionsResponse,
  workerRejectsQuery,
  workerRejectsResponse,
} from './mining.js';
import {
  coinsResponse,
  conversionConfigResponse,
  conversionConfigUpdateBody,
  convertBody,
  convertResponse,
  paymentConfigResponse,
  paymentConfigUpdateBody,
  poolPayoutsResponse,
} from './money.js';
import { overviewQuery, overviewResponse } from './overview.js';
import { type ApiPath, paths } from './paths.js';
import { algorithmParams, algorithmStatsResponse, chartResponse, periodChartQuery, poolStatsResponse } from './pool.js';
import {
  openApiDocument,
  payoutSchemesResponse,
  poolFeesResponse,
  poolProfitsResponse,
  profitAlgorithmParams,
  profitChartQuery,
  publicApiPoolResponse,
  publicApiProfitsResponse,
  publicApiUserQuery,
  publicApiUserResponse,
  signatureParams,
  signatureResponse,
  vipApplicationBody,
} from './public.js';
import {
  lifetimeEarningsResponse,
  observerRevenueAlgorithmQuery,
  observerRevenueChartQuery,
  observerRevenuePayoutsQuery,
  observerRevenueQuery,
  revenueAccountQuery,
  revenueAlgorithmQuery,
  revenueBalanceResponse,
  revenueChartQuery,
  revenueEarningsResponse,
  revenuePayoutsCsvQuery,
  revenuePayoutsQuery,
  revenuePayoutsResponse,
  revenueStatementQuery,
} from './revenue.js';
import { bannerResponse, healthResponse, siteResponse } from './site.js';
import { soloResponse } from './solo.js';
import { stratumResponse } from './stratum.js';
import {
  MAX_WATCHER_LINKS,
  watcherCreateBody,
  watcherCreateResponse,
  watcherLinksResponse,
  watcherRevokeBody,
} from './watchers.js';

/**
 * A refusal a route is documented to answer (the OpenAPI document lists it, the API docs pages
 * show it): the status, when it happens, and the answer's body.
 */
export interface Refusal {
  status: 400 | 401 | 403 | 404 | 409 | 429;
  when: string;
  example: { error: string; code: string };
}

/** The blocks calls refuse an algorithm or a chain the pool does not mine there. */
const blocksRefusals: Refusal[] = [
  {
    status: 404,
    when: 'An unknown algorithm, or a coin that is not mined on it.',
    example: { error: 'SCRYPT mines no BTC here.', code: 'NOT_FOUND' },
  },
];

/**
 * The route table both sides agree on: the server registers handlers against these entries and
 * checks its answers with `response`; the website's client builds its calls from the same entries.
 */
export const routes = {
  health: { ...paths.health, response: healthResponse },
  banner: { ...paths.banner, response: bannerResponse },
  site: { ...paths.site, response: siteResponse },
  poolStats: { ...paths.poolStats, response: poolStatsResponse },
  poolStratum: { ...paths.poolStratum, response: stratumResponse },
  poolAlgorithmStats: { ...paths.poolAlgorithmStats, params: algorithmParams, response: algorithmStatsResponse },
  poolStatsChart: {
    ...paths.poolStatsChart,
    params: algorithmParams,
    query: periodChartQuery,
    response: chartResponse,
  },
  poolBlocks: {
    ...paths.poolBlocks,
    params: algorithmParams,
    query: blocksQuery,
    response: blocksResponse,
    refusals: blocksRefusals,
  },

  // ── accounts and sessions (docs/accounts.md); bodies are multipart forms (JSON also accepted)
  captchaChallenge: { ...paths.captchaChallenge, response: captchaChallengeResponse },
  userRegister: { ...paths.userRegister, body: registerBody, response: resultResponse },
  userLogin: { ...paths.userLogin, body: loginBody, response: resultResponse },
  userInfo: { ...paths.userInfo, response: userInfoResponse },
  userLogout: { ...paths.userLogout, response: logoutResponse },
  userSessions: { ...paths.userSessions, response: sessionsResponse },
  userSessionLogout: {
    ...paths.userSessionLogout,
    body: sessionLogoutBody,
    response: resultResponse,
    refusals: [
      {
        status: 404,
        when: 'No live session of the user has this id (it ended already, or is not theirs).',
        example: { error: 'Session not found', code: 'NOT_FOUND' },
      },
      {
        status: 400,
        when: 'The id is the session of this request: log out instead.',
        example: { error: 'This is the session you are using: log out instead.', code: 'CURRENT_SESSION' },
      },
    ],
  },
  userSessionsLogoutAll: { ...paths.userSessionsLogoutAll, response: resultResponse },
  userConfig: { ...paths.userConfig, response: userConfigResponse },
  userConfigUpdate: { ...paths.userConfigUpdate, body: userConfigUpdateBody, response: resultResponse },
  userAccounts: { ...paths.userAccounts, response: accountListResponse },
  userNewAccount: { ...paths.userNewAccount, body: newAccountBody, response: resultResponse },
  userRemoveAccount: { ...paths.userRemoveAccount, body: removeAccountBody, response: resultResponse },
  userKeysRegenerate: {
    ...paths.userKeysRegenerate,
    query: accountQuery,
    body: regenerateKeyBody,
    response: regenerateKeyResponse,
  },
  userHashrateAlerts: { ...paths.userHashrateAlerts, query: accountQuery, response: hashrateAlertsResponse },
  userHashrateAlertCreate: {
    ...paths.userHashrateAlertCreate,
    query: accountQuery,
    body: hashrateAlertCreateBody,
    response: hashrateAlertCreateResponse,
    refusals: [
      {
        status: 409,
        when: `The account has ${MAX_HASHRATE_ALERTS} hashrate alerts: delete one first.`,
        example: {
          error: `An account can have at most ${MAX_HASHRATE_ALERTS} hashrate alerts.`,
          code: 'HASHRATE_ALERT_LIMIT',
        },
      },
    ],
  },
  userHashrateAlertDelete: {
    ...paths.userHashrateAlertDelete,
    query: accountQuery,
    body: hashrateAlertDeleteBody,
    response: resultResponse,
    refusals: [
      {
        status: 404,
        when: 'The account has no alert with this id.',
        example: { error: 'Alert not found', code: 'NOT_FOUND' },
      },
    ],
  },
  userWatchers: { ...paths.userWatchers, query: accountQuery, response: watcherLinksResponse },
  userWatcherCreate: {
    ...paths.userWatcherCreate,
    query: accountQuery,
    body: watcherCreateBody,
    response: watcherCreateResponse,
    refusals: [
      {
        status: 409,
        when: `The account has ${MAX_WATCHER_LINKS} live watcher links: revoke one first.`,
        example: {
          error: `An account can have at most ${MAX_WATCHER_LINKS} watcher links. Revoke one to make another.`,
          code: 'WATCHER_LINK_LIMIT',
        },
      },
    ],
  },
  userWatcherRevoke: {
    ...paths.userWatcherRevoke,
    query: accountQuery,
    body: watcherRevokeBody,
    response: resultResponse,
    refusals: [
      {
        status: 404,
        when: 'The account has no such link, or it was revoked already.',
        example: { error: 'Link not found', code: 'NOT_FOUND' },
      },
    ],
  },
  userRedirectConfig: { ...paths.userRedirectConfig, query: accountQuery, response: redirectConfigResponse },
  userRedirectConfigUpdate: {
    ...paths.userRedirectConfigUpdate,
    query: accountQuery,
    body: redirectConfigUpdateBody,
    response: resultResponse,
  },
  passwordReset: { ...paths.passwordReset, body: passwordResetBody, response: resultResponse },
  passwordResetSend: {
    ...paths.passwordResetSend,
    query: passwordResetSendQuery,
    body: passwordResetSendBody,
    response: resultResponse,
  },
  userReferrals: { ...paths.userReferrals, query: accountQuery, response: referralsResponse },
  userCoupon: { ...paths.userCoupon, query: accountQuery, body: couponBody, response: resultResponse },
  userSetReferral: { ...paths.userSetReferral, query: setReferralQuery, response: resultResponse },
  userGenerate2fa: { ...paths.userGenerate2fa, response: generate2faResponse },
  userEnable2fa: { ...paths.userEnable2fa, body: twoFactorBody, response: resultResponse },
  userDisable2fa: { ...paths.userDisable2fa, body: twoFactorBody, response: resultResponse },
  /** The QR code (PNG) of the logged-in user's pending 2FA secret; not JSON. */
  twoFactorQr: { ...paths.twoFactorQr, params: twoFactorQrParams },
  userMostUsedAlgo: { ...paths.userMostUsedAlgo, query: accountQuery, response: mostUsedAlgoResponse },
  /** Every live account of the user on one algorithm, and their totals (docs/dashboard.md, All accounts). */
  userOverview: { ...paths.userOverview, query: overviewQuery, response: overviewResponse },
  userTelegram: { ...paths.userTelegram, response: telegramStatusResponse },
  userTelegramLink: {
    ...paths.userTelegramLink,
    response: telegramLinkResponse,
    refusals: [
      {
        status: 400,
        when: 'the pool has no Telegram bot',
        example: { error: 'Telegram is not set up on this pool.', code: 'TELEGRAM_NOT_CONFIGURED' },
      },
      {
        status: 400,
        when: 'the jobs role has not reached the bot in the last 10 minutes',
        example: {
          error: 'The pool cannot reach its Telegram bot right now. Try again in a few minutes.',
          code: 'TELEGRAM_BOT_NOT_READY',
        },
      },
    ],
  },
  userTelegramUnlink: { ...paths.userTelegramUnlink, response: resultResponse },
  /** No session: the signed token of an e-mail's unsubscribe link says whose notification to turn off. */
  notificationsUnsubscribe: {
    ...paths.notificationsUnsubscribe,
    body: unsubscribeBody,
    response: unsubscribeResponse,
    refusals: [
      {
        status: 400,
        when: 'the token is not one of ours',
        example: { error: 'This unsubscribe link is not valid.', code: 'UNSUBSCRIBE_TOKEN_INVALID' },
      },
    ],
  },

  // ── money (docs/money.md, Settings and conversion API): catalogue, settings, conversion, payouts
  coins: { ...paths.coins, response: coinsResponse },
  poolPayouts: { ...paths.poolPayouts, response: poolPayoutsResponse },
  userConversionConfig: { ...paths.userConversionConfig, query: accountQuery, response: conversionConfigResponse },
  userConversionConfigUpdate: {
    ...paths.userConversionConfigUpdate,
    query: accountQuery,
    body: conversionConfigUpdateBody,
    response: resultResponse,
  },
  userPaymentConfig: { ...paths.userPaymentConfig, query: accountQuery, response: paymentConfigResponse },
  userPaymentConfigUpdate: {
    ...paths.userPaymentConfigUpdate,
    query: accountQuery,
    body: paymentConfigUpdateBody,
    response: resultResponse,
  },
  userConvert: { ...paths.userConvert, query: accountQuery, body: convertBody, response: convertResponse },

  // ── mining (docs/dashboard.md, Mining API). The removals are
  // GETs as the original site calls them (cross-site guarded like a POST); the server accepts POST as well.
  userMining: { ...paths.userMining, query: miningQuery, response: miningSummaryResponse },
  userMiningChart: { ...paths.userMiningChart, query: miningChartQuery, response: chartResponse },
  userMiningWorkers: { ...paths.userMiningWorkers, query: miningQuery, response: miningWorkersResponse },
  userMiningWorkersPage: {
    ...paths.userMiningWorkersPage,
    query: miningWorkersPageQuery,
    response: miningWorkersPageResponse,
  },
  userMiningWorkersMatching: {
    ...paths.userMiningWorkersMatching,
    query: miningWorkersMatchingQuery,
    response: miningWorkersMatchingResponse,
  },
  userMiningSolo: { ...paths.userMiningSolo, query: miningQuery, response: soloResponse },
  observerMiningSolo: { ...paths.observerMiningSolo, query: observerMiningQuery, response: soloResponse },
  userMiningWorker: { ...paths.userMiningWorker, query: workerRejectsQuery, response: miningWorkerResponse },
  userMiningWorkerRejects: {
    ...paths.userMiningWorkerRejects,
    query: workerRejectsQuery,
    response: workerRejectsResponse,
  },
  observerMiningWorker: {
    ...paths.observerMiningWorker,
    query: observerWorkerRejectsQuery,
    response: miningWorkerResponse,
  },
  observerMiningWorkerRejects: {
    ...paths.observerMiningWorkerRejects,
    query: observerWorkerRejectsQuery,
    response: workerRejectsResponse,
  },
  userMiningWorkerChart: { ...paths.userMiningWorkerChart, query: workerChartQuery, response: chartResponse },
  observerMiningWorkerChart: {
    ...paths.observerMiningWorkerChart,
    query: observerWorkerChartQuery,
    response: chartResponse,
  },
  userMiningWorkerConnections: {
    ...paths.userMiningWorkerConnections,
    query: workerRejectsQuery,
    response: workerConnectionsResponse,
  },
  observerMiningWorkerConnections: {
    ...paths.observerMiningWorkerConnections,
    query: observerWorkerRejectsQuery,
    response: workerConnectionsResponse,
  },
  userMiningWorkersLabel: {
    ...paths.userMiningWorkersLabel,
    query: miningQuery,
    body: labelWorkersBody,
    response: labelWorkersResponse,
    refusals: [
      {
        status: 404,
        when: 'None of the ids is a worker of the account on the algorithm.',
        example: { error: 'Worker not found', code: 'NOT_FOUND' },
      },
    ],
  },
  userMiningWorkerRemove: {
    ...paths.userMiningWorkerRemove,
    params: miningWorkerParams,
    query: miningQuery,
    response: miningRemoveResponse,
  },
  userMiningWorkersRemoveAll: {
    ...paths.userMiningWorkersRemoveAll,
    query: miningQuery,
    response: miningRemoveResponse,
  },
  userMiningWorkersRemoveSelected: {
    ...paths.userMiningWorkersRemoveSelected,
    query: miningQuery,
    body: removeSelectedBody,
    response: miningRemoveResponse,
    refusals: [
      {
        status: 404,
        when: 'None of the ids is a worker of the account on the algorithm.',
        example: { error: 'Worker not found', code: 'NOT_FOUND' },
      },
    ],
  },
  observerMining: { ...paths.observerMining, query: observerMiningQuery, response: miningSummaryResponse },
  observerMiningChart: { ...paths.observerMiningChart, query: observerMiningChartQuery, response: chartResponse },
  observerMiningWorkers: {
    ...paths.observerMiningWorkers,
    query: observerMiningQuery,
    response: miningWorkersResponse,
  },
  observerMiningWorkersPage: {
    ...paths.observerMiningWorkersPage,
    query: observerMiningWorkersPageQuery,
    response: miningWorkersPageResponse,
  },

  // ── revenue (docs/dashboard.md, Revenue API). The downloads
  // answer files (PDF, CSV), not JSON, so they have no response schema.
  userRevenueBalance: { ...paths.userRevenueBalance, query: revenueAccountQuery, response: revenueBalanceResponse },
  userRevenuePayouts: { ...paths.userRevenuePayouts, query: revenuePayoutsQuery, response: revenuePayoutsResponse },
  userRevenueEarnings: {
    ...paths.userRevenueEarnings,
    query: revenueAlgorithmQuery,
    response: revenueEarningsResponse,
  },
  userRevenueLifetimeEarnings: {
    ...paths.userRevenueLifetimeEarnings,
    query: revenueAlgorithmQuery,
    response: lifetimeEarningsResponse,
  },
  userRevenueChart: { ...paths.userRevenueChart, query: revenueChartQuery, response: chartResponse },
  /** The monthly PDF statement, `earnings_{YYYY-MM}.pdf`. */
  userRevenueEarningsDownload: { ...paths.userRevenueEarningsDownload, query: revenueStatementQuery },
  /** Daily earnings as `earnings.csv`. */
  userRevenueEarningsCsv: { ...paths.userRevenueEarningsCsv, query: revenueAlgorithmQuery },
  /** The account's payouts as `payments.csv`. */
  userRevenuePayoutsCsv: { ...paths.userRevenuePayoutsCsv, query: revenuePayoutsCsvQuery },
  observerRevenueBalance: {
    ...paths.observerRevenueBalance,
    query: observerRevenueQuery,
    response: revenueBalanceResponse,
  },
  observerRevenuePayouts: {
    ...paths.observerRevenuePayouts,
    query: observerRevenuePayoutsQuery,
    response: revenuePayoutsResponse,
  },
  observerRevenueEarnings: {
    ...paths.observerRevenueEarnings,
    query: observerRevenueAlgorithmQuery,
    response: revenueEarningsResponse,
  },
  observerRevenueLifetimeEarnings: {
    ...paths.observerRevenueLifetimeEarnings,
    query: observerRevenueAlgorithmQuery,
    response: lifetimeEarningsResponse,
  },
  observerRevenueChart: {
    ...paths.observerRevenueChart,
    query: observerRevenueChartQuery,
    response: chartResponse,
  },

  // ── public website and public API (docs/public-api.md). The /api/* calls are
  // CORS-open and rate-limited per address (and per key for /api/user); they honour no cookies.
  poolProfits: { ...paths.poolProfits, params: profitAlgorithmParams, response: poolProfitsResponse },
  poolProfitsChart: {
    ...paths.poolProfitsChart,
    params: profitAlgorithmParams,
    query: profitChartQuery,
    response: chartResponse,
  },
  poolFees: { ...paths.poolFees, response: poolFeesResponse },
  payoutSchemes: { ...paths.payoutSchemes, response: payoutSchemesResponse },
  apiPool: { ...paths.apiPool, response: publicApiPoolResponse },
  apiProfits: { ...paths.apiProfits, response: publicApiProfitsResponse },
  apiBlocks: {
    ...paths.apiBlocks,
    params: algorithmParams,
    query: blocksQuery,
    response: blocksResponse,
    refusals: blocksRefusals,
  },
  apiUser: {
    ...paths.apiUser,
    query: publicApiUserQuery,
    response: publicApiUserResponse,
    // 404, not 401: a 401 tells the website its session ended (docs/website.md, Session), and this call has no session.
    refusals: [
      {
        status: 400,
        when: 'No apiKey, or one longer than 200 characters.',
        example: { error: 'apiKey is required', code: 'VALIDATION_FAILED' },
      },
      {
        status: 404,
        when: 'No account has this API key (a mistyped key, or one replaced in Settings).',
        example: { error: 'Account not found', code: 'NOT_FOUND' },
      },
      {
        status: 429,
        when: 'More than 30 calls a minute from one address, or 60 a minute with one key; Retry-After says when to call again.',
        example: {
          error: 'Too many requests with this API key. Try again in 42 seconds.',
          code: 'RATE_LIMITED',
        },
      },
    ] satisfies Refusal[],
  },
  signature: { ...paths.signature, params: signatureParams, response: signatureResponse },
  vipApplication: { ...paths.vipApplication, body: vipApplicationBody, response: resultResponse },
  /** The OpenAPI 3.1 document of every route of this table. */
  openApi: { ...paths.openApi, response: openApiDocument },

  // ── admin (docs/admin.md, Calls): admins only, 404 for everyone else logged in, 401 for visitors
  adminUsers: { ...paths.adminUsers, response: adminUsersResponse },
  adminLogsUser: { ...paths.adminLogsUser, body: adminLogsUserBody, response: adminLogsResponse },
  adminLogsAccount: { ...paths.adminLogsAccount, body: adminLogsAccountBody, response: adminLogsResponse },
  adminLogin: { ...paths.adminLogin, body: adminLoginBody, response: resultResponse },
  adminBalance: { ...paths.adminBalance, body: adminBalanceBody, response: adminBalanceResponse },
  adminTreasury: { ...paths.adminTreasury, response: adminTreasuryResponse },
} as const satisfies { [K in keyof typeof paths]: ApiPath & Record<string, unknown> };

/**
 * What each call takes and answers, as types only: the website imports these with `import type`,
 * so its client is typed from the very schemas the server checks with, and no zod reaches its bundle.
 */
type Routes = typeof routes;
type Schema<K extends keyof Routes, F extends string> = Routes[K] extends { [P in F]: infer S extends z.ZodType }
  ? S
  : never;
/** The parsed answer of a call (never for calls that answer a file). */
export type RouteResponse<K extends keyof Routes> = z.output<Schema<K, 'response'>>;
/** The query a call takes, as sent (never when it takes none). */
export type RouteQuery<K extends keyof Routes> = z.input<Schema<K, 'query'>>;
/** The path parameters of a call, as sent (never when its path has none). */
export type RouteParams<K extends keyof Routes> = z.input<Schema<K, 'params'>>;
